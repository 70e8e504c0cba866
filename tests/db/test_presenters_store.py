"""The presenters storage: a channel's rotation (a return keeps the first opt-in), each session's
presenter (set once by the rotation, replaced by a volunteer), the rotation's memory, and swaps
decided once; on SQLite and, where present, PostgreSQL."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.ports.presenters import Presenter, RotationMember, Swap
from tests.db.meetings_data import session_on
from tests.db.sources_data import DAY, ELSEWHERE, HERE, NOW


def _session(
    database: Database, *, channel: ChannelKey = HERE, weeks: int = 0, at: time = time(18, 0)
) -> int:
    """A session of the channel `weeks` after DAY's, at Berlin's `at`."""
    with database() as store:
        made = store.add_session(
            channel=channel, session=session_on(DAY + timedelta(weeks=weeks), at=at), now=NOW
        )
    assert made is not None
    return made


def test_a_member_back_in_the_rotation_keeps_their_first_opt_in(any_database: Database) -> None:
    later, latest = NOW + timedelta(days=1), NOW + timedelta(days=2)
    with any_database() as store:
        assert store.rotation(channel=HERE) == []
        assert store.join_rotation(channel=HERE, user="U1", now=NOW)
        assert store.join_rotation(channel=HERE, user="U2", now=later)
        # Joining again changes nothing: they were in.
        assert not store.join_rotation(channel=HERE, user="U1", now=latest)
        assert store.leave_rotation(channel=HERE, user="U1")
        assert not store.leave_rotation(channel=HERE, user="U1")
        assert not store.leave_rotation(channel=HERE, user="U9")
        assert store.rotation(channel=HERE) == [RotationMember(user="U2", opted_in_at=later)]
        assert store.join_rotation(channel=HERE, user="U1", now=latest)
    with any_database(write=False) as store:
        members = store.rotation(channel=HERE)
    assert members == [
        RotationMember(user="U1", opted_in_at=NOW),
        RotationMember(user="U2", opted_in_at=later),
    ]
    assert all(member.opted_in_at.utcoffset() == timedelta(0) for member in members)


def test_away_is_for_members_in_the_rotation(any_database: Database) -> None:
    back = date(2027, 1, 12)
    with any_database() as store:
        store.join_rotation(channel=HERE, user="U1", now=NOW)
        store.join_rotation(channel=HERE, user="U2", now=NOW)
        assert store.set_away(channel=HERE, user="U1", until=back)
        assert not store.set_away(channel=HERE, user="U9", until=back)
        store.leave_rotation(channel=HERE, user="U2")
        assert not store.set_away(channel=HERE, user="U2", until=back)
        assert store.rotation(channel=HERE) == [
            RotationMember(user="U1", opted_in_at=NOW, away_until=back)
        ]
        assert store.set_away(channel=HERE, user="U1", until=None)
    with any_database(write=False) as store:
        assert store.rotation(channel=HERE) == [RotationMember(user="U1", opted_in_at=NOW)]


def test_the_rotation_assigns_once_and_a_volunteer_is_told_anew(any_database: Database) -> None:
    session_id = _session(any_database)
    later, latest = NOW + timedelta(hours=1), NOW + timedelta(hours=2)
    with any_database() as store:
        assert store.presenter_of(session_id=session_id) is None
        assert store.assign_presenter(
            session_id=session_id, user="U1", how="rotation", now=NOW, replace=False
        )
        # A second sweep, or replica, choosing too finds it chosen: the first choice stands.
        assert not store.assign_presenter(
            session_id=session_id, user="U2", how="rotation", now=later, replace=False
        )
        store.presenter_told(session_id=session_id, now=later)
        assert store.presenter_of(session_id=session_id) == Presenter(
            session_id=session_id, user="U1", how="rotation", assigned_at=NOW, told_at=later
        )
        # The same member volunteering for their own session was told already.
        assert store.assign_presenter(
            session_id=session_id, user="U1", how="volunteer", now=later, replace=True
        )
        mine = store.presenter_of(session_id=session_id)
        assert mine is not None and (mine.how, mine.told_at) == ("volunteer", later)
        assert store.assign_presenter(
            session_id=session_id, user="U3", how="volunteer", now=latest, replace=True
        )
        with pytest.raises(LookupError):
            store.assign_presenter(
                session_id=session_id + 1_000, user="U1", how="rotation", now=NOW, replace=False
            )
    with any_database(write=False) as store:
        assert store.presenter_of(session_id=session_id) == Presenter(
            session_id=session_id, user="U3", how="volunteer", assigned_at=latest
        )


def test_presenters_are_the_rotations_memory_in_session_order(any_database: Database) -> None:
    # Made out of order; the one at half past midnight in Berlin is the day before in UTC.
    third, first, second = (
        _session(any_database, weeks=2),
        _session(any_database, weeks=0, at=time(0, 30)),
        _session(any_database, weeks=1),
    )
    cancelled = _session(any_database, weeks=3)
    _session(any_database, weeks=4)  # nobody chosen yet
    with any_database() as store:
        for session_id, user in ((third, "U3"), (first, "U1"), (second, "U2"), (cancelled, "U4")):
            store.assign_presenter(
                session_id=session_id, user=user, how="rotation", now=NOW, replace=False
            )
        (record,) = store.session_records(
            channel=HERE, since=NOW + timedelta(weeks=3), until=NOW + timedelta(weeks=3, days=1)
        )
        store.change_session(session_id=cancelled, session=record.session, cancelled=True, now=NOW)
    with any_database(write=False) as store:
        assert store.presenters(channel=HERE) == [
            (DAY, "U1"),
            (DAY + timedelta(weeks=1), "U2"),
            (DAY + timedelta(weeks=2), "U3"),
        ]


def test_a_swap_is_decided_once(any_database: Database) -> None:
    mine, theirs = _session(any_database), _session(any_database, weeks=1)
    with any_database() as store:
        swap_id = store.ask_swap(
            channel=HERE,
            asked_by="U1",
            asked_of="U2",
            their_session=mine,
            other_session=theirs,
            now=NOW,
        )
        asked = Swap(
            id=swap_id,
            channel=HERE,
            asked_by="U1",
            asked_of="U2",
            their_session=mine,
            other_session=theirs,
            asked_at=NOW,
        )
        assert store.swap(swap_id=swap_id) == asked
        assert store.decide_swap(swap_id=swap_id, accepted=True)
        # A second click, or a stale sweep declining it, comes too late.
        assert not store.decide_swap(swap_id=swap_id, accepted=False)
        assert store.swap(swap_id=swap_id + 1_000) is None
        assert not store.decide_swap(swap_id=swap_id + 1_000, accepted=True)
    with any_database(write=False) as store:
        decided = store.swap(swap_id=swap_id)
    assert decided is not None and decided.accepted is True
    assert decided.asked_at.utcoffset() == timedelta(0)


def test_another_workspaces_channel_sees_nothing(any_database: Database) -> None:
    session_id, other = _session(any_database), _session(any_database, weeks=1)
    elsewhere = _session(any_database, channel=ELSEWHERE)
    with any_database() as store:
        store.join_rotation(channel=HERE, user="U1", now=NOW)
        store.assign_presenter(
            session_id=session_id, user="U1", how="rotation", now=NOW, replace=False
        )
        assert store.rotation(channel=ELSEWHERE) == []
        assert store.presenters(channel=ELSEWHERE) == []
        assert not store.leave_rotation(channel=ELSEWHERE, user="U1")
        assert not store.set_away(channel=ELSEWHERE, user="U1", until=DAY)
        # Its sessions are not the other channel's to swap.
        with pytest.raises(LookupError):
            store.ask_swap(
                channel=ELSEWHERE,
                asked_by="U1",
                asked_of="U2",
                their_session=session_id,
                other_session=other,
                now=NOW,
            )
        with pytest.raises(LookupError):
            store.ask_swap(
                channel=HERE,
                asked_by="U1",
                asked_of="U2",
                their_session=session_id,
                other_session=elsewhere,
                now=NOW,
            )
    with any_database(write=False) as store:
        assert store.rotation(channel=HERE) == [RotationMember(user="U1", opted_in_at=NOW)]
        assert store.presenters(channel=HERE) == [(DAY, "U1")]
