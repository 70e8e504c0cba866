"""When a channel's reading-group sessions fall: the series' dates less its skips, the moved
sessions where they were moved to, and the one-offs, in order (values and the wall-clock rule
in bot/meetings/meeting.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date, datetime, timedelta

from bot.meetings.meeting import Meeting, Move, OneOff, Session, Skip, local_instant, zone_of


def series_days(*, meeting: Meeting, since: date) -> Iterator[date]:
    """The series' local dates on or after `since`, in order, ignoring skips and moves
    (endless when the meeting has no `until`)."""
    first = meeting.first_date + timedelta(
        days=(meeting.weekday - meeting.first_date.isoweekday()) % 7
    )
    period = 7 * meeting.every_weeks
    steps = max(0, -(-(since - first).days // period))  # periods to the first day >= since
    day = first + timedelta(days=steps * period)
    while meeting.until is None or day <= meeting.until:
        yield day
        day += timedelta(days=period)


def is_series_day(*, meeting: Meeting, day: date) -> bool:
    """Whether the series has a session (skipped, moved or not) on local date `day`."""
    return next(series_days(meeting=meeting, since=day), None) == day


def _by_day(*, exceptions: Iterable[Skip | Move]) -> dict[date, Skip | Move]:
    """The exceptions keyed by the series date they change; two for one date is a mistake."""
    found: dict[date, Skip | Move] = {}
    for exception in exceptions:
        if exception.day in found:
            raise ValueError(f"two exceptions for the session of {exception.day}")
        found[exception.day] = exception
    return found


def _session(*, meeting: Meeting, day: date, exception: Move | None = None) -> Session:
    """The series' session of `day`, where `exception` puts it if it is moved."""
    start = (
        local_instant(day=day, at=meeting.start, zone=meeting.zone)
        if exception is None
        else local_instant(day=exception.to_day, at=exception.to_time, zone=meeting.zone)
    )
    place = meeting.place if exception is None or exception.place is None else exception.place
    return Session(
        day=day,
        start=start,
        end=start + meeting.duration,
        zone=meeting.zone,
        place=place,
        moved=exception is not None,
    )


def _one_off(*, meeting: Meeting, one_off: OneOff) -> Session:
    """A one-off session, filled in from its meeting."""
    start = local_instant(day=one_off.day, at=one_off.at, zone=meeting.zone)
    return Session(
        day=one_off.day,
        start=start,
        end=start + (one_off.duration or meeting.duration),
        zone=meeting.zone,
        place=meeting.place if one_off.place is None else one_off.place,
        one_off=True,
    )


def _exceptional(
    *, meeting: Meeting, exceptions: Iterable[Skip | Move], one_offs: Iterable[OneOff]
) -> tuple[dict[date, Skip | Move], list[Session]]:
    """The exceptions by series date, and the sessions that do not fall on their series date:
    the moved ones and the one-offs. An exception for a date the series does not hold (the
    meeting's day or rhythm changed since) is ignored; two one-offs on one date are refused,
    as the date is their key."""
    changes = _by_day(exceptions=exceptions)
    elsewhere = [
        _session(meeting=meeting, day=day, exception=change)
        for day, change in changes.items()
        if isinstance(change, Move) and is_series_day(meeting=meeting, day=day)
    ]
    days: set[date] = set()
    for one_off in one_offs:
        if one_off.day in days:
            raise ValueError(f"two one-off sessions on {one_off.day}")
        days.add(one_off.day)
        elsewhere.append(_one_off(meeting=meeting, one_off=one_off))
    return changes, elsewhere


def _order(session: Session) -> tuple[datetime, bool, date]:
    """Sessions in time; two at one instant (only people moving them there) by key."""
    return (session.start, session.one_off, session.day)


def _check_aware(*, instants: Iterable[datetime]) -> None:
    """Instants compared with UTC ones must say their offset."""
    if any(at.utcoffset() is None for at in instants):
        raise ValueError("give aware datetimes (with a zone), not naive ones")


def sessions_between(
    *,
    meeting: Meeting,
    exceptions: Iterable[Skip | Move] = (),
    one_offs: Iterable[OneOff] = (),
    start: datetime,
    end: datetime,
) -> tuple[Session, ...]:
    """Every session starting in [`start`, `end`) (aware datetimes), earliest first: the
    series' sessions less the skipped ones, the moved ones where they were moved to (a session
    moved into the window counts though its series date lies outside it, one moved out of it
    does not), and the one-offs. Sessions at one instant are ordered by key."""
    _check_aware(instants=(start, end))
    changes, elsewhere = _exceptional(meeting=meeting, exceptions=exceptions, one_offs=one_offs)
    zone = zone_of(name=meeting.zone)
    # A session starts on its local date: a day either side covers every offset and gap.
    first, last = (at.astimezone(zone).date() for at in (start, end))
    found = [s for s in elsewhere if start <= s.start < end]
    for day in series_days(meeting=meeting, since=first - timedelta(days=1)):
        if day > last + timedelta(days=1):
            break
        if (
            day not in changes
            and start <= (session := _session(meeting=meeting, day=day)).start < end
        ):
            found.append(session)
    return tuple(sorted(found, key=_order))


def next_session(
    *,
    meeting: Meeting,
    exceptions: Iterable[Skip | Move] = (),
    one_offs: Iterable[OneOff] = (),
    now: datetime,
) -> Session | None:
    """The first session starting at or after `now` (aware), as sessions_between orders
    them; None once a meeting with an `until` has held its last."""
    _check_aware(instants=(now,))
    changes, elsewhere = _exceptional(meeting=meeting, exceptions=exceptions, one_offs=one_offs)
    since = now.astimezone(zone_of(name=meeting.zone)).date() - timedelta(days=1)
    found = [s for s in elsewhere if s.start >= now]
    # Exceptions are finite, so the walk meets an unchanged future day after at most as many.
    for day in series_days(meeting=meeting, since=since):
        if day not in changes and (session := _session(meeting=meeting, day=day)).start >= now:
            found.append(session)
            break
    return min(found, key=_order, default=None)
