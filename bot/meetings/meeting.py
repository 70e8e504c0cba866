"""A channel's meeting as values: the recurring series, its skipped and moved dates, one-off
sessions and the sessions they make, and the wall-clock rule that places them.

A meeting is a wall-clock rule: its sessions start at its local time in its IANA zone on
every session day, whatever the UTC offset that day (an 18:00 Europe/Berlin meeting is 18:00
in Berlin in winter and in summer, so 17:00 UTC, then 16:00 UTC). Two local times need a
rule, and take the standard library's (PEP 495, fold=0):

- a time that does not exist (02:30 on a spring-forward day, clocks jumping 02:00 -> 03:00)
  moves forward by the gap: 03:30 (Lord Howe Island's 30-minute gap, 02:00 -> 02:30, moves
  02:15 to 02:45);
- a time that happens twice (02:30 on an autumn day, clocks falling back 03:00 -> 02:00)
  is its first occurrence, still on summer time.

A session's duration is elapsed time: a two-hour session across a change still lasts two
hours, and ends at a wall time an hour off its start plus two.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def zone_of(*, name: str) -> ZoneInfo:
    """The IANA zone named; ValueError for a name the zone database does not know."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as error:  # a folder is an OSError
        raise ValueError(f"not an IANA time zone: {name!r}") from error


def local_instant(*, day: date, at: time, zone: str) -> datetime:
    """The UTC instant the wall clock of `zone` shows `at` on `day`: a time in a spring gap
    moves forward by the gap, a time the autumn repeats is its first occurrence (fold=0)."""
    return datetime.combine(day, at.replace(tzinfo=None, fold=0), zone_of(name=zone)).astimezone(
        UTC
    )


def _check_time(*, at: time) -> None:
    """A wall time carries no zone of its own: the meeting's zone places it."""
    if at.tzinfo is not None:
        raise ValueError("a local time carries no zone; the meeting's zone places it")


@dataclass(frozen=True, slots=True)
class Meeting:
    """A channel's recurring meeting: on ISO `weekday` (1 Monday .. 7 Sunday) at local `start`
    in IANA `zone`, every `every_weeks` weeks (1 weekly, 2 fortnightly).

    The series' first session is the first `weekday` on or after `first_date`; the next ones
    fall every `every_weeks` weeks after it, up to `until` (a local date, inclusive; None for
    no end). `place` is the room or video link, as people typed it.
    """

    weekday: int
    start: time
    zone: str
    first_date: date
    duration: timedelta
    every_weeks: int = 1
    place: str = ""
    until: date | None = None

    def __post_init__(self) -> None:
        """Refuse a rule that names no session day or no length."""
        if not 1 <= self.weekday <= 7:
            raise ValueError(f"weekday is ISO 1 (Monday) to 7 (Sunday), got {self.weekday}")
        if self.every_weeks < 1:
            raise ValueError(f"every_weeks is 1 or more, got {self.every_weeks}")
        if self.duration <= timedelta(0):
            raise ValueError("a meeting lasts some time")
        if self.until is not None and self.until < self.first_date:
            raise ValueError("a meeting's until comes after its first date")
        _check_time(at=self.start)
        zone_of(name=self.zone)


@dataclass(frozen=True, slots=True)
class Skip:
    """The series' session of local date `day` does not happen (a holiday)."""

    day: date


@dataclass(frozen=True, slots=True)
class Move:
    """The series' session of local date `day` happens at local `to_time` on `to_day` instead
    (in the meeting's zone, for the meeting's duration); `place`, when given, replaces the
    meeting's. The session keeps `day` as its key."""

    day: date
    to_day: date
    to_time: time
    place: str | None = None

    def __post_init__(self) -> None:
        """A moved time is a wall time, as the meeting's is."""
        _check_time(at=self.to_time)


@dataclass(frozen=True, slots=True)
class OneOff:
    """A session outside the series, at local `at` on `day` in the meeting's zone; its
    duration and place default to the meeting's."""

    day: date
    at: time
    duration: timedelta | None = None
    place: str | None = None

    def __post_init__(self) -> None:
        """A one-off lasts some time and starts at a wall time."""
        if self.duration is not None and self.duration <= timedelta(0):
            raise ValueError("a one-off session lasts some time")
        _check_time(at=self.at)


@dataclass(frozen=True, slots=True)
class Session:
    """One session as it happens: `start` and `end` are aware UTC instants.

    Its key is (`one_off`, `day`): `day` is the series date it belongs to (kept when the
    session is moved, so a calendar can say which occurrence changed) or a one-off's date.
    """

    day: date
    start: datetime
    end: datetime
    zone: str
    place: str
    moved: bool = False
    one_off: bool = False

    @property
    def local_start(self) -> datetime:
        """The start on the meeting's wall clock."""
        return self.start.astimezone(zone_of(name=self.zone))

    @property
    def key(self) -> tuple[bool, date]:
        """What names this session across edits: series or one-off, and its date."""
        return (self.one_off, self.day)
