"""Who presents at a session: a fair rotation among the members who opted in, pure (issue 33).

The next presenter is the member who presented least recently, members who never presented
first; at equal dates, the one who opted in earlier, then the lower id. A member away until a
date is skipped for every session before that date (the date itself is their first session
back). So, with nobody volunteering, nobody presents twice before every member available at
that session has presented once.

A volunteer takes a session in the rotation's place and counts as having presented on it, so
the member the rotation would have chosen stays first for the session after. A swap exchanges
two planned sessions' presenters; each then counts as having presented on the session they
took, so the one who presents earlier comes up earlier the next time round.

A plan assigns upcoming sessions in date order, each assignment counting as presented for the
ones after it; a member fixed to a later session of the plan (a volunteer, a swap) counts as
having presented then, so the rotation does not also give them an earlier one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime


@dataclass(frozen=True, slots=True)
class Member:
    """A member in the rotation: when they opted in (timezone-aware), the date they last
    presented (None: never), and the first date they are back when away (None: not away)."""

    id: str
    opted_in_at: datetime
    last_presented: date | None = None
    away_until: date | None = None


@dataclass(frozen=True, slots=True)
class Assignment:
    """A session's presenter: None when no member is available for it."""

    on: date
    presenter: str | None


def is_available(*, member: Member, on: date) -> bool:
    """Whether the member can present at a session on that date (not away before it)."""
    return member.away_until is None or on >= member.away_until


def rotation_order(*, members: Iterable[Member]) -> tuple[Member, ...]:
    """The members in the rotation's order, available or not: never presented first, then
    least recently presented, then earliest opted in, then lowest id."""
    return tuple(
        sorted(
            members,
            key=lambda m: (
                m.last_presented is not None,
                m.last_presented or date.min,
                m.opted_in_at,
                m.id,
            ),
        )
    )


def next_presenter(*, members: Iterable[Member], on: date) -> Member | None:
    """The member first in the rotation among those available on that date; None when
    nobody is."""
    return next((m for m in rotation_order(members=members) if is_available(member=m, on=on)), None)


def presented(*, members: Iterable[Member], presenter: str, on: date) -> tuple[Member, ...]:
    """The members after `presenter` presented on that date (as chosen, as a volunteer or by a
    swap). A later date than that is kept: recording an older session changes nothing. A
    presenter who is not in the rotation changes nothing either."""
    return tuple(
        replace(m, last_presented=on)
        if m.id == presenter and (m.last_presented is None or m.last_presented < on)
        else m
        for m in members
    )


def plan(
    *, members: Iterable[Member], sessions: Iterable[date], fixed: Mapping[date, str] = {}
) -> tuple[Assignment, ...]:
    """Presenters for the sessions, in date order: `fixed`'s for its dates (volunteers and
    swaps, honoured even for a member away or not in the rotation), the rotation's for the
    rest. Each assignment counts as presented for the sessions after it."""
    dates = sorted(set(sessions))
    # A member fixed to a session of the plan counts as having presented on their last one.
    ahead = {fixed[day]: day for day in dates if day in fixed}
    now = tuple(members)
    for member_id, day in ahead.items():
        now = presented(members=now, presenter=member_id, on=day)
    assignments = []
    for day in dates:
        chosen = fixed.get(day)
        if chosen is None:
            member = next_presenter(members=now, on=day)
            chosen = None if member is None else member.id
        if chosen is not None:
            now = presented(members=now, presenter=chosen, on=day)
        assignments.append(Assignment(on=day, presenter=chosen))
    return tuple(assignments)


def swap(
    *,
    planned: Sequence[Assignment],
    members: Iterable[Member],
    fixed: Mapping[date, str],
    first: date,
    second: date,
) -> dict[date, str]:
    """`fixed` with the presenters of two planned sessions exchanged; plan() again with it.
    Refused (ValueError) when a date is not planned, has no presenter, or would fall before the
    return of a member who is away."""
    by_date = {a.on: a.presenter for a in planned}
    one, other = by_date.get(first), by_date.get(second)
    if one is None or other is None:
        raise ValueError("a swap exchanges two planned sessions that have presenters")
    rota = {m.id: m for m in members}
    for member_id, day in ((one, second), (other, first)):
        member = rota.get(member_id)
        if member is not None and not is_available(member=member, on=day):
            raise ValueError(f"{member_id!r} is away on {day.isoformat()}")
    return {**fixed, first: other, second: one}
