"""The presenter rotation: order, away dates, volunteers, swaps, and its fairness (hypothesis)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.meetings.rotation import (
    Assignment,
    Member,
    is_available,
    next_presenter,
    plan,
    presented,
    rotation_order,
    swap,
)

T0 = datetime(2026, 9, 1, 12, 0, tzinfo=UTC)
MONDAY = date(2027, 1, 4)
WEEKS = [MONDAY + timedelta(weeks=n) for n in range(8)]


def _member(
    id: str, minute: int, last: date | None = None, away_until: date | None = None
) -> Member:
    return Member(
        id=id,
        opted_in_at=T0 + timedelta(minutes=minute),
        last_presented=last,
        away_until=away_until,
    )


def _who(assignments: tuple[Assignment, ...]) -> list[str | None]:
    return [a.presenter for a in assignments]


def test_never_presented_first_then_least_recent_then_opt_in_then_id() -> None:
    members = [
        _member("dee", 0, last=date(2026, 12, 1)),
        _member("ann", 5, last=date(2026, 11, 2)),
        _member("bo", 3),
        _member("cal", 1),
        _member("al", 1),
    ]
    assert [m.id for m in rotation_order(members=members)] == ["al", "cal", "bo", "ann", "dee"]
    nxt = next_presenter(members=members, on=MONDAY)
    assert nxt is not None and nxt.id == "al"


def test_away_members_are_skipped_until_their_return_date() -> None:
    members = [_member("ann", 0, away_until=WEEKS[2]), _member("bo", 1), _member("cy", 2)]
    assert not is_available(member=members[0], on=WEEKS[1])
    assert is_available(member=members[0], on=WEEKS[2])  # the return date is a session back
    assert _who(plan(members=members, sessions=WEEKS[:4])) == ["bo", "cy", "ann", "bo"]


def test_nobody_available_is_no_presenter() -> None:
    members = [_member("ann", 0, away_until=WEEKS[1])]
    assert next_presenter(members=members, on=WEEKS[0]) is None
    assert next_presenter(members=[], on=WEEKS[0]) is None
    assert _who(plan(members=members, sessions=WEEKS[:2])) == [None, "ann"]


def test_presenting_moves_a_member_to_the_back() -> None:
    members = (_member("ann", 0), _member("bo", 1))
    after = presented(members=members, presenter="ann", on=WEEKS[0])
    assert after == (_member("ann", 0, last=WEEKS[0]), _member("bo", 1))
    assert presented(members=after, presenter="ann", on=MONDAY - timedelta(days=30)) == after
    assert presented(members=after, presenter="stranger", on=WEEKS[1]) == after


def test_a_volunteer_takes_the_session_and_the_rotation_resumes() -> None:
    members = [_member(name, minute) for minute, name in enumerate(("ann", "bo", "cy", "dee"))]
    assert _who(plan(members=members, sessions=WEEKS[:4])) == ["ann", "bo", "cy", "dee"]
    # dee volunteers for the first session: ann, whom the rotation chose, comes next, and dee
    # is not given another session before the others have presented.
    volunteered = plan(members=members, sessions=WEEKS[:5], fixed={WEEKS[0]: "dee"})
    assert _who(volunteered) == ["dee", "ann", "bo", "cy", "dee"]
    # A volunteer for a later session is not also given an earlier one.
    later = plan(members=members, sessions=WEEKS[:4], fixed={WEEKS[1]: "ann"})
    assert _who(later) == ["bo", "ann", "cy", "dee"]
    # Someone outside the rotation may volunteer; the rotation does not count them.
    guest = plan(members=members, sessions=WEEKS[:2], fixed={WEEKS[0]: "<@U999> @everyone"})
    assert _who(guest) == ["<@U999> @everyone", "ann"]


def test_a_swap_exchanges_two_sessions_and_who_comes_up_first_next_time() -> None:
    members = [_member(name, minute) for minute, name in enumerate(("ann", "bo", "cy"))]
    planned = plan(members=members, sessions=WEEKS[:3])
    assert _who(planned) == ["ann", "bo", "cy"]
    fixed = swap(planned=planned, members=members, fixed={}, first=WEEKS[0], second=WEEKS[2])
    assert fixed == {WEEKS[0]: "cy", WEEKS[2]: "ann"}
    swapped = plan(members=members, sessions=WEEKS[:6], fixed=fixed)
    # cy presented first this time, so comes up first next time round.
    assert _who(swapped) == ["cy", "bo", "ann", "cy", "bo", "ann"]


def test_a_swap_is_refused_into_an_away_date_or_off_the_plan() -> None:
    members = [_member("ann", 0), _member("bo", 1, away_until=WEEKS[3])]
    planned = plan(members=members, sessions=WEEKS[3:5])
    assert _who(planned) == ["ann", "bo"]
    early = plan(members=members, sessions=[WEEKS[0], WEEKS[3]])
    assert _who(early) == ["ann", "bo"]
    with pytest.raises(ValueError, match="away"):
        swap(planned=early, members=members, fixed={}, first=WEEKS[0], second=WEEKS[3])
    with pytest.raises(ValueError, match="planned"):
        swap(planned=planned, members=members, fixed={}, first=WEEKS[3], second=WEEKS[7])
    ok = swap(planned=planned, members=members, fixed={}, first=WEEKS[3], second=WEEKS[4])
    assert _who(plan(members=members, sessions=WEEKS[3:5], fixed=ok)) == ["bo", "ann"]


members_st = st.lists(
    st.builds(
        _member,
        id=st.sampled_from(("ann", "bo", "cy", "dee", "<!channel>", "🧪", "x" * 200)),
        minute=st.integers(0, 3),
        last=st.none() | st.dates(date(2026, 1, 1), date(2026, 12, 31)),
        away_until=st.none() | st.sampled_from(WEEKS),
    ),
    max_size=7,
    unique_by=lambda m: m.id,
)


@settings(max_examples=300, deadline=None)
@given(members=members_st, sessions=st.integers(1, 20))
def test_nobody_presents_twice_before_every_available_member_presented_once(
    members: list[Member], sessions: int
) -> None:
    days = [MONDAY + timedelta(weeks=n) for n in range(sessions)]
    assignments = plan(members=members, sessions=days)
    for i, assignment in enumerate(assignments):
        available = {m.id for m in members if is_available(member=m, on=assignment.on)}
        if assignment.presenter is None:
            assert not available
            continue
        assert assignment.presenter in available
        earlier = [j for j in range(i) if assignments[j].presenter == assignment.presenter]
        if earlier:
            between = {a.presenter for a in assignments[earlier[-1] + 1 : i]}
            assert available - {assignment.presenter} <= between


@settings(max_examples=200, deadline=None)
@given(members=members_st, data=st.data())
def test_a_volunteer_presents_once_in_a_round_and_the_rest_keep_their_turns(
    members: list[Member], data: st.DataObject
) -> None:
    ready = [
        Member(id=m.id, opted_in_at=m.opted_in_at, last_presented=m.last_presented) for m in members
    ]
    if not ready:
        return
    who = data.draw(st.sampled_from([m.id for m in ready]))
    when = data.draw(st.integers(0, len(ready) - 1))
    days = [MONDAY + timedelta(weeks=n) for n in range(len(ready))]
    assignments = plan(members=ready, sessions=days, fixed={days[when]: who})
    # Nobody away: one round gives every member exactly one session, the volunteer theirs.
    assert sorted(a.presenter or "" for a in assignments) == sorted(m.id for m in ready)
    assert assignments[when].presenter == who
