"""What admins type to set a meeting up, read into values (pure): the series, a date's skip
or move, a one-off, and reminders' lead times.

    set thu 16:00 [Europe/Berlin] [for 90m] [every 2 weeks] [from 2027-01-07]
        [reminders 1d,30m | reminders off] [at <place>]
    skip 2026-12-24
    move 2026-12-24 to 2026-12-23 16:00 [at <place>]
    once 2027-01-05 16:00 [for 2h] [at <place>]
    reminders 1d 30m | reminders off

Everything after `at` is the place, as typed (a room, a video link); it is shown back as plain
text on every platform, never as markup.
"""

from __future__ import annotations

import re
from datetime import date, time, timedelta

from bot.meetings.meeting import Meeting, Move, OneOff, Skip, zone_of
from bot.meetings.reminders import Before

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
# A place longer than this is cut: it is shown in every reminder and calendar entry.
PLACE_LIMIT = 500
# A session longer than this, or reminders further ahead than this, is refused as a typo.
LONGEST = timedelta(hours=12)
FURTHEST_DAYS = 14
YEARS = range(2000, 2100)
# Lead times: "1d", "30m", "2h", "1d12h", "90m".
_LEAD = re.compile(r"^(?:(\d{1,2})d)?(?:(\d{1,2})h)?(?:(\d{1,4})m)?$")
_TIME = re.compile(r"^(\d{1,2})[:.h](\d{2})$")


class MeetingTextError(ValueError):
    """Typed text that is not a meeting, with what to type instead (shown to the person)."""


def read_weekday(*, word: str) -> int:
    """ISO weekday (1 Monday .. 7 Sunday) of "thu", "Thursday", "Thurs"."""
    found = word.lower()[:3]
    if found not in WEEKDAYS:
        raise MeetingTextError(f"{word!r} is not a day of the week (mon, tue ... sun)")
    return WEEKDAYS.index(found) + 1


def read_time(*, word: str) -> time:
    """A wall time "16:00", "9:30", "16h00"."""
    match = _TIME.match(word)
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise MeetingTextError(f"{word!r} is not a time of day like 16:00")
    return time(int(match[1]), int(match[2]))


def read_date(*, word: str) -> date:
    """An ISO date "2026-12-24", in YEARS (a date far out is a typo, and computing around
    the calendar's ends overflows)."""
    try:
        day = date.fromisoformat(word)
    except ValueError:
        raise MeetingTextError(f"{word!r} is not a date like 2026-12-24") from None
    if day.year not in YEARS:
        raise MeetingTextError(f"{word!r} is not a date this century")
    return day


def read_lead(*, word: str) -> Before:
    """A lead time "1d", "30m", "2h", "1d12h": whole days on the wall clock, then minutes."""
    match = _LEAD.match(word.lower())
    if match is None or not any(match.groups()):
        raise MeetingTextError(f"{word!r} is not a lead time like 1d, 2h or 30m")
    days, hours, minutes = (int(part or 0) for part in match.groups())
    before = Before(days=days, minutes=hours * 60 + minutes)
    if days * 1440 + before.minutes > FURTHEST_DAYS * 1440:
        raise MeetingTextError(f"reminders come at most {FURTHEST_DAYS} days ahead")
    return before


def lead_text(*, before: Before) -> str:
    """A lead time as read_lead reads it: "1d", "30m", "1d2h", "90m"."""
    hours, minutes = divmod(before.minutes, 60)
    text = (f"{before.days}d" if before.days else "") + (f"{hours}h" if hours else "")
    text += f"{minutes}m" if minutes or not text else ""
    return text


def read_duration(*, word: str) -> timedelta:
    """A session's length "90m", "1h30m", "2h"."""
    lead = read_lead(word=word)
    length = timedelta(days=lead.days, minutes=lead.minutes)
    if not timedelta(0) < length <= LONGEST:
        raise MeetingTextError("a session lasts between a minute and 12 hours")
    return length


def read_reminders(*, words: list[str]) -> tuple[Before, ...]:
    """`reminders 1d 30m` (distinct, furthest first) or `reminders off` (none)."""
    if [w.lower() for w in words] == ["off"]:
        return ()
    if not words:
        raise MeetingTextError("say when: reminders 1d 30m, or reminders off")
    leads = {read_lead(word=word) for word in words}
    return tuple(sorted(leads, key=lambda b: (b.days, b.minutes), reverse=True))


def take_reminders(*, words: list[str]) -> tuple[list[str], tuple[Before, ...] | None]:
    """A series' words without its `reminders 1d,30m` (or `reminders off`), and those lead
    times (None: the words name none). Looked for before `at` only: the place is as typed."""
    lowered = [w.lower() for w in words]
    cut = lowered.index("at") if "at" in lowered else len(words)
    if "reminders" not in lowered[:cut]:
        return words, None
    found = lowered.index("reminders")
    if found + 1 >= cut:
        raise MeetingTextError("say when: reminders 1d,30m, or reminders off")
    leads = read_reminders(words=[w for w in words[found + 1].split(",") if w])
    return words[:found] + words[found + 2 :], leads


def _place(*, words: list[str]) -> tuple[list[str], str | None]:
    """The words before `at`, and the place after it (None: no `at`)."""
    lowered = [w.lower() for w in words]
    if "at" not in lowered:
        return words, None
    cut = lowered.index("at")
    place = " ".join(words[cut + 1 :]).strip()
    if not place:
        raise MeetingTextError("say where after `at`: a room or a video link")
    return words[:cut], place[:PLACE_LIMIT]


def _options(*, words: list[str]) -> dict[str, str]:
    """`for 90m`, `every 2 weeks`, `from 2027-01-07` as a dict; anything else is refused."""
    found: dict[str, str] = {}
    rest = list(words)
    while rest:
        key = rest.pop(0).lower()
        if key not in ("for", "every", "from") or not rest or key in found:
            raise MeetingTextError(f"{key!r} is not understood here")
        found[key] = rest.pop(0)
        if key == "every" and rest and rest[0].lower() in ("week", "weeks"):
            rest.pop(0)
    return found


def read_series(*, words: list[str], zone: str, today: date) -> Meeting:
    """`thu 16:00 [zone] [for 90m] [every 2 weeks] [from DATE] [at PLACE]`: the series, in
    `zone` unless a zone is named, starting with the first session day from `today` on."""
    words, place = _place(words=words)
    if len(words) < 2:
        raise MeetingTextError("say the day and time: meeting set thu 16:00")
    weekday, start = read_weekday(word=words[0]), read_time(word=words[1])
    rest = words[2:]
    if rest and ("/" in rest[0] or rest[0].upper() == "UTC"):
        zone = rest.pop(0)
        try:
            zone_of(name=zone)
        except ValueError:
            raise MeetingTextError(f"{zone!r} is not a time zone like Europe/Berlin") from None
    options = _options(words=rest)
    every = options.get("every", "1")
    if not every.isdigit() or not 1 <= int(every) <= 8:
        raise MeetingTextError("every 1 to 8 weeks")
    return Meeting(
        weekday=weekday,
        start=start,
        zone=zone,
        first_date=read_date(word=options["from"]) if "from" in options else today,
        duration=read_duration(word=options.get("for", "60m")),
        every_weeks=int(every),
        place=place or "",
    )


def read_change(*, verb: str, words: list[str]) -> Skip | Move | OneOff:
    """`skip DATE`, `move DATE to DATE HH:MM [at PLACE]`, `once DATE HH:MM [for 2h] [at PLACE]`."""
    words, place = _place(words=words)
    if verb == "skip" and len(words) == 1 and place is None:
        return Skip(day=read_date(word=words[0]))
    if verb == "move" and len(words) == 4 and words[1].lower() == "to":
        return Move(
            day=read_date(word=words[0]),
            to_day=read_date(word=words[2]),
            to_time=read_time(word=words[3]),
            place=place,
        )
    if verb == "once" and len(words) in (2, 4):
        options = _options(words=words[2:])
        if set(options) - {"for"}:
            raise MeetingTextError("a one-off takes a date, a time, `for` and `at`")
        return OneOff(
            day=read_date(word=words[0]),
            at=read_time(word=words[1]),
            duration=read_duration(word=options["for"]) if "for" in options else None,
            place=place,
        )
    raise MeetingTextError(
        "try: meeting skip 2026-12-24 · meeting move 2026-12-24 to 2026-12-23 16:00"
        " · meeting once 2027-01-05 16:00"
    )
