"""The calendar feed read back by an independent RFC 5545 parser (icalendar): every field of
every session, stable UIDs, SEQUENCE and CANCELLED, UTC times across DST, refused caller bugs."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest
from icalendar.parser import unescape_backslash

from bot.meetings.ics import (
    CANCELLED,
    CONFIRMED,
    PRODID,
    SessionEvent,
    calendar,
    session_uid,
)

LONDON = ZoneInfo("Europe/London")
STAMP = datetime(2026, 3, 20, 9, 30, tzinfo=UTC)
KEY = "slack:T0123:C0456"


def _session(*, day: date, hour: int = 18, **changes: object) -> SessionEvent:
    """A one-hour session at `hour` London time on `day`, scheduled for that day."""
    start = datetime(day.year, day.month, day.day, hour, tzinfo=LONDON)
    event = SessionEvent(
        uid=session_uid(channel_key=KEY, day=day),
        sequence=0,
        start=start,
        end=start + timedelta(hours=1),
        summary="Attention Is All You Need",
        description="Presenter: Ana.\nBring questions.",
        location="Room 4.02",
        url="https://meet.example.org/paper-club",
        modified=datetime(2026, 3, 1, 12, tzinfo=UTC),
    )
    return replace(event, **changes)  # type: ignore[arg-type]


def _events(feed: bytes) -> list[icalendar.Component]:
    return list(icalendar.Calendar.from_ical(feed).walk("VEVENT"))


def _lines(feed: bytes) -> list[str]:
    """The feed's content lines, unfolded (RFC 5545 §3.1)."""
    return feed.decode("utf-8").replace("\r\n ", "").split("\r\n")


def test_header_says_what_the_feed_is() -> None:
    feed = calendar(name="Paper Club · #reading", events=[], stamp=STAMP)
    lines = _lines(feed)
    assert lines[:5] == [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ]
    assert lines[-2:] == ["END:VCALENDAR", ""]  # the last line ends in CRLF too
    parsed = icalendar.Calendar.from_ical(feed)
    assert unescape_backslash(str(parsed["NAME"])) == "Paper Club · #reading"
    assert unescape_backslash(str(parsed["X-WR-CALNAME"])) == "Paper Club · #reading"
    assert parsed.refresh_interval == timedelta(hours=1)
    assert _events(feed) == []


def test_every_field_round_trips() -> None:
    """Two sessions, one cancelled: each field comes back as given, times as UTC instants."""
    first = _session(day=date(2026, 3, 24), sequence=3)
    second = _session(day=date(2026, 3, 31), status=CANCELLED, location="", url="", description="")
    parsed = _events(calendar(name="n", events=[second, first], stamp=STAMP))
    assert [str(e["UID"]) for e in parsed] == [first.uid, second.uid]  # in start order
    one, two = parsed
    assert str(one["SUMMARY"]) == "Attention Is All You Need"
    assert str(one["DESCRIPTION"]) == "Presenter: Ana.\nBring questions."
    assert str(one["LOCATION"]) == "Room 4.02"
    assert str(one["URL"]) == "https://meet.example.org/paper-club"
    assert (one.decoded("SEQUENCE"), str(one["STATUS"])) == (3, CONFIRMED)
    assert one.decoded("DTSTART") == first.start and one.decoded("DTEND") == first.end
    assert one.decoded("DTSTART").utcoffset() == timedelta(0)  # written as UTC
    assert one.decoded("LAST-MODIFIED") == first.modified
    assert one.decoded("DTSTAMP") == STAMP
    assert (two.decoded("SEQUENCE"), str(two["STATUS"])) == (0, CANCELLED)
    assert all(name not in two for name in ("DESCRIPTION", "LOCATION", "URL"))


def test_times_are_utc_across_dst_without_vtimezone() -> None:
    """18:00 London is 18:00Z before the clocks change (2026-03-29) and 17:00Z after."""
    feed = calendar(
        name="n",
        events=[_session(day=date(2026, 3, 28)), _session(day=date(2026, 3, 29))],
        stamp=STAMP,
    )
    starts = [line for line in _lines(feed) if line.startswith("DTSTART")]
    assert starts == ["DTSTART:20260328T180000Z", "DTSTART:20260329T170000Z"]
    assert b"VTIMEZONE" not in feed and b"TZID" not in feed


def test_uids_stay_across_renders_and_changes_bump_sequence() -> None:
    """A session moved and re-rendered keeps its UID; its SEQUENCE says it changed."""
    session = _session(day=date(2026, 4, 7))
    moved = replace(
        session,
        sequence=1,
        start=session.start + timedelta(days=1),
        end=session.end + timedelta(days=1),
        modified=datetime(2026, 4, 1, tzinfo=UTC),
    )
    before = _events(calendar(name="n", events=[session], stamp=STAMP))
    again = _events(calendar(name="n", events=[session], stamp=STAMP + timedelta(hours=1)))
    after = _events(calendar(name="n", events=[moved], stamp=STAMP + timedelta(days=1)))
    assert str(before[0]["UID"]) == str(again[0]["UID"]) == str(after[0]["UID"])
    assert (before[0].decoded("SEQUENCE"), after[0].decoded("SEQUENCE")) == (0, 1)
    assert after[0].decoded("DTSTART") == session.start + timedelta(days=1)


def test_session_uid_is_stable_and_hides_the_channel_key() -> None:
    day = date(2026, 4, 7)
    uid = session_uid(channel_key=KEY, day=day)
    assert uid == session_uid(channel_key=KEY, day=day)
    assert uid.endswith("-20260407@paperclub") and len(uid) == len("x" * 16 + "-20260407@paperclub")
    assert "T0123" not in uid and "C0456" not in uid
    assert uid != session_uid(channel_key="slack:T0123:C0457", day=day)
    assert uid != session_uid(channel_key=KEY, day=day + timedelta(days=7))


def test_same_sessions_give_the_same_bytes_in_any_order() -> None:
    sessions = [_session(day=date(2026, 5, d)) for d in (5, 12, 19)]
    feed = calendar(name="n", events=sessions, stamp=STAMP)
    assert feed == calendar(name="n", events=sessions[::-1], stamp=STAMP)


def test_only_web_links_are_written_and_never_raw() -> None:
    """A URL is written only for http and https; what a URI cannot hold is %-encoded."""
    day = date(2026, 5, 5)
    links = {
        "https://meet.example.org/a b?x=1,2;3": "https://meet.example.org/a%20b?x=1,2;3",
        "HTTP://例え.jp/päper": "HTTP://%E4%BE%8B%E3%81%88.jp/p%C3%A4per",
        "https://x.org/\r\nBEGIN:VEVENT": "https://x.org/%0D%0ABEGIN:VEVENT",
    }
    for given, written in links.items():
        parsed = _events(calendar(name="n", events=[_session(day=day, url=given)], stamp=STAMP))
        assert [str(e["URL"]) for e in parsed] == [written]
    for refused in ("javascript:alert(1)", "meet.example.org/x", "https://[oops", "ftp://x.org"):
        parsed = _events(calendar(name="n", events=[_session(day=day, url=refused)], stamp=STAMP))
        assert len(parsed) == 1 and "URL" not in parsed[0]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"start": datetime(2026, 5, 5, 18)}, "naive"),
        ({"modified": datetime(2026, 5, 5, 18)}, "naive"),
        ({"sequence": -1}, "negative SEQUENCE"),
        ({"status": "TENTATIVE"}, "status"),
        ({"end": datetime(2026, 5, 5, 17, tzinfo=UTC)}, "does not end after"),
        ({"end": datetime(2026, 5, 5, 17, 0, 0, 999, tzinfo=UTC)}, "does not end after"),
        ({"uid": "\r\n"}, "empty"),
    ],
)
def test_caller_bugs_are_refused(changes: dict[str, object], message: str) -> None:
    """A session at 18:00 London (17:00Z) that would make an invalid feed raises."""
    event = replace(_session(day=date(2026, 5, 5)), **changes)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        calendar(name="n", events=[event], stamp=STAMP)


def test_a_repeated_uid_is_refused() -> None:
    """Two sessions of one channel on one scheduled date would be one event to a client."""
    first = _session(day=date(2026, 5, 5))
    with pytest.raises(ValueError, match="repeated UID"):
        calendar(name="n", events=[first, replace(first, summary="other")], stamp=STAMP)
    with pytest.raises(ValueError, match="naive"):
        calendar(name="n", events=[], stamp=datetime(2026, 5, 5))
