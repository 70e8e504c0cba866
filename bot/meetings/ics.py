"""A channel's calendar feed: its sessions as an iCalendar object (RFC 5545), pure.

Every session is one VEVENT with its own UID (no RRULE): the caller has already resolved the
recurrence, holidays, moves and one-off sessions, so the feed lists what will happen and no
client expands a rule its own way. Times are written in UTC ("Z" form, RFC 5545 §3.3.5
form 2), which needs no VTIMEZONE: the caller resolved each session's local time in its IANA
zone, DST included, and every client shows a UTC instant in its user's own zone. A VTIMEZONE
would only restate tzdata's rules, and a client trusting a stale copy would shift sessions
by an hour.

A change to a session (time, place, paper, cancellation) keeps its UID and bumps its
SEQUENCE (§3.8.7.4) and LAST-MODIFIED; a cancelled session stays in the feed as
STATUS:CANCELLED (§3.8.1.11), so subscribers see it called off rather than silently gone.

Text (§3.3.11) is escaped (backslash, semicolon, comma, newline); CR LF and lone CR become
newlines, and other control characters (and lone surrogates, which UTF-8 cannot carry) are
removed, so no value can end its property or start another ("x\\r\\nBEGIN:VEVENT" stays one
DESCRIPTION). Lines are folded at 75 octets (§3.1) without splitting a UTF-8 character, and
every line ends in CRLF.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Final, Literal, get_args
from urllib.parse import quote, urlsplit

Status = Literal["CONFIRMED", "CANCELLED"]
STATUSES: tuple[Status, ...] = get_args(Status)
CONFIRMED: Final[Status] = "CONFIRMED"
CANCELLED: Final[Status] = "CANCELLED"

PRODID = "-//Paper Club//Meetings//EN"
# How often a subscriber should read the feed again (RFC 7986 §5.7; X-PUBLISHED-TTL is the
# older name Outlook and Apple Calendar read): an hour, so a cancellation arrives the same
# day; clients may poll less often whatever we say.
REFRESH = "PT1H"
MAX_LINE = 75  # octets, the CRLF excluded (RFC 5545 §3.1)
UID_DOMAIN = "paperclub"
# Characters a URI value keeps as written (RFC 3986's reserved and unreserved, and "%" for
# escapes already made); anything else (spaces, controls, quotes, non-ASCII) is %-encoded.
_URI_SAFE = "!#$%&'()*+,/:;=?@[]~"
_ESCAPES = str.maketrans({"\\": "\\\\", ";": "\\;", ",": "\\,", "\n": "\\n"})


@dataclass(frozen=True, slots=True)
class SessionEvent:
    """One session as the feed carries it.

    `uid` is stable for the session's life (session_uid makes one); `sequence` is the
    revision, 0 at first and one more at each change the caller makes; `start` and `end`
    are aware datetimes, `end` after `start` (sub-second parts are dropped); `modified` is
    when the caller last changed the session. `location` is plain text (a room, an
    address); `url` a video or paper link, written only when it is http or https.
    """

    uid: str
    sequence: int
    start: datetime
    end: datetime
    summary: str
    modified: datetime
    description: str = ""
    location: str = ""
    url: str = ""
    status: Status = CONFIRMED


def session_uid(*, channel_key: str, day: date, one_off: bool = False) -> str:
    """A session's UID: a hash of its channel's key, its scheduled local date, and our domain,
    as "<16 hex>-<YYYYMMDD>@paperclub" ("<16 hex>-<YYYYMMDD>-once@paperclub" for a one-off,
    which may fall on a series date).

    `day` is the date the meeting's rule gave the session, before any move, so a session
    moved to another day keeps its UID (and bumps its SEQUENCE). The key is hashed because
    UIDs are visible to anyone holding the feed and a key carries workspace and channel ids
    (RFC 7986 §5.3 advises against identifying data in UIDs). Two sessions of one channel
    on one scheduled date would share a UID: calendar() refuses that.
    """
    digest = hashlib.sha256(channel_key.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    once = "-once" if one_off else ""
    return f"{digest}-{day:%Y%m%d}{once}@{UID_DOMAIN}"


def clean_text(*, text: str) -> str:
    """Text as the feed carries it: CR LF and lone CR as LF, other control characters but tab
    removed (TEXT allows no others, §3.3.11), lone surrogates removed. A value read back from
    the feed equals this, exactly."""
    flat = text.replace("\r\n", "\n").replace("\r", "\n")
    return "".join(c for c in flat if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cs"))


def escape_text(*, text: str) -> str:
    """A TEXT value (§3.3.11): cleaned, then backslash, semicolon, comma and newline escaped."""
    return clean_text(text=text).translate(_ESCAPES)


def uri_value(*, url: str) -> str | None:
    """A link as a URI value, or None when it is not an http or https URL. Characters a URI
    cannot hold (spaces, controls, quotes, non-ASCII) are %-encoded, so a valid URL is
    unchanged and a hostile one cannot leave its property."""
    written = quote(url.strip(), safe=_URI_SAFE, errors="ignore")  # ignore: lone surrogates
    try:
        parts = urlsplit(written)
    except ValueError:  # an unbalanced "[" in the host
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return written


def fold(*, line: str) -> bytes:
    """One content line as UTF-8 physical lines of at most 75 octets, each ending in CRLF;
    a continuation starts with one space (§3.1). Breaks fall between characters, never
    inside one's UTF-8 octets."""
    chunks: list[bytes] = []
    current = bytearray()
    for char in line:
        octets = char.encode("utf-8")
        if len(current) + len(octets) > MAX_LINE:
            chunks.append(bytes(current))
            current = bytearray(b" ")  # the space counts: 74 octets of content follow it
        current += octets
    chunks.append(bytes(current))
    return b"".join(chunk + b"\r\n" for chunk in chunks)


def utc_stamp(*, moment: datetime) -> str:
    """An aware datetime as a UTC DATE-TIME (§3.3.5 form 2): 20260301T170000Z."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment.isoformat()}: the feed needs an instant")
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _checked(*, events: Iterable[SessionEvent]) -> list[SessionEvent]:
    """The events in feed order (start, then UID), refusing what would make an invalid feed:
    an empty or repeated UID, a negative SEQUENCE, an unknown status, an end not after the
    start. These are caller bugs, never user input: hence errors, not omissions."""
    ordered = sorted(events, key=lambda e: (utc_stamp(moment=e.start), e.uid))
    seen: set[str] = set()
    for event in ordered:
        uid = clean_text(text=event.uid)
        if not uid.strip() or uid in seen:
            raise ValueError(f"empty or repeated UID {event.uid!r}")
        seen.add(uid)
        if event.sequence < 0:
            raise ValueError(f"negative SEQUENCE {event.sequence} for {event.uid!r}")
        if event.status not in STATUSES:
            raise ValueError(f"status {event.status!r} is not one of {STATUSES}")
        if utc_stamp(moment=event.end) <= utc_stamp(moment=event.start):
            raise ValueError(f"session {event.uid!r} does not end after it starts")
    return ordered


def _event_lines(*, event: SessionEvent, stamp: str) -> list[str]:
    """The content lines of one VEVENT (§3.6.1), unfolded. DTSTAMP is the feed's render time:
    with METHOD present it is when the object was made (§3.8.7.2)."""
    lines = [
        "BEGIN:VEVENT",
        f"UID:{escape_text(text=event.uid)}",
        f"DTSTAMP:{stamp}",
        f"DTSTART:{utc_stamp(moment=event.start)}",
        f"DTEND:{utc_stamp(moment=event.end)}",
        f"SEQUENCE:{event.sequence}",
        f"STATUS:{event.status}",
        f"LAST-MODIFIED:{utc_stamp(moment=event.modified)}",
        f"SUMMARY:{escape_text(text=event.summary)}",
    ]
    if description := escape_text(text=event.description):
        lines.append(f"DESCRIPTION:{description}")
    if location := escape_text(text=event.location):
        lines.append(f"LOCATION:{location}")
    if link := uri_value(url=event.url):
        lines.append(f"URL:{link}")
    lines.append("END:VEVENT")
    return lines


def calendar(*, name: str, events: Sequence[SessionEvent], stamp: datetime) -> bytes:
    """The whole feed, UTF-8 with CRLF lines: VERSION 2.0, PRODID, GREGORIAN, METHOD:PUBLISH,
    the calendar's name (NAME from RFC 7986, X-WR-CALNAME for older clients), the refresh
    interval, then one VEVENT per session in start order. `stamp` is when the feed is made.
    The same sessions and stamp give the same bytes."""
    written = utc_stamp(moment=stamp)
    title = escape_text(text=name)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"NAME:{title}",
        f"X-WR-CALNAME:{title}",
        f"REFRESH-INTERVAL;VALUE=DURATION:{REFRESH}",
        f"X-PUBLISHED-TTL:{REFRESH}",
    ]
    for event in _checked(events=events):
        lines += _event_lines(event=event, stamp=written)
    lines.append("END:VCALENDAR")
    return b"".join(fold(line=line) for line in lines)
