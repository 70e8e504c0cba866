"""The meetings storage's notices (opened once per session and kind, claimed by one sender at a
time, noted once sent) and RSVPs; on SQLite and, where present, PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.meetings.ballots import Rsvp
from bot.ports.meetings import Notice
from tests.db.meetings_data import session_on
from tests.db.sources_data import DAY, ELSEWHERE, HERE, NOW, ON_DISCORD


def _session(database: Database, *, channel: ChannelKey = HERE, weeks: int = 0) -> int:
    """A session of the channel `weeks` after DAY's."""
    with database() as store:
        made = store.add_session(
            channel=channel, session=session_on(DAY + timedelta(weeks=weeks)), now=NOW
        )
    assert made is not None
    return made


def test_a_notice_is_opened_once_per_session_and_kind(any_database: Database) -> None:
    session_id = _session(any_database)
    with any_database() as store:
        day_ahead = store.open_notice(session_id=session_id, kind="reminder:1d", now=NOW)
        assert day_ahead is not None
        assert day_ahead == Notice(
            id=day_ahead.id,
            session_id=session_id,
            channel=HERE,
            kind="reminder:1d",
            opened_at=NOW,
        )
        # Another sweep, or replica, finds it opened; another kind is another notice.
        assert store.open_notice(session_id=session_id, kind="reminder:1d", now=NOW) is None
        later = NOW + timedelta(hours=1)
        half_hour = store.open_notice(session_id=session_id, kind="reminder:30m", now=later)
        assert half_hour is not None and half_hour.id != day_ahead.id
        with pytest.raises(LookupError):
            store.open_notice(session_id=session_id + 1_000, kind="reminder:1d", now=NOW)
    with any_database(write=False) as store:
        assert store.notices_of(session_id=session_id) == [day_ahead, half_hour]


def test_a_claim_holds_until_its_holder_is_taken_over(any_database: Database) -> None:
    session_id = _session(any_database)
    later = NOW + timedelta(minutes=5)
    with any_database() as store:
        notice = store.open_notice(session_id=session_id, kind="reminder:1d", now=NOW)
        assert notice is not None
        assert store.claim_notice(notice_id=notice.id, owner="a:1", now=NOW, holder=None)
        # Of two takers, one wins: the second finds it held.
        assert not store.claim_notice(notice_id=notice.id, owner="b:2", now=NOW, holder=None)
        assert store.claim_notice(notice_id=notice.id, owner="a:1", now=later, holder="a:1")
        # b takes over from a silent a; a, waking, renews with a stale holder and loses.
        assert store.claim_notice(notice_id=notice.id, owner="b:2", now=later, holder="a:1")
        assert not store.claim_notice(notice_id=notice.id, owner="a:1", now=later, holder="a:1")
        (held,) = store.notices_of(session_id=session_id)
        assert (held.claimed_by, held.claimed_at) == ("b:2", later)
        store.notice_refused(notice_id=notice.id, at=later)
        (refused,) = store.notices_of(session_id=session_id)
        assert refused.refused_at == later
        store.notice_refused(notice_id=notice.id, at=None)
        store.notice_sent(notice_id=notice.id, message_id="1700000000.000200")
        # A notice noted is never claimed again, by its holder either.
        assert not store.claim_notice(notice_id=notice.id, owner="b:2", now=later, holder="b:2")
    with any_database(write=False) as store:
        (sent,) = store.notices_of(session_id=session_id)
    assert (sent.message_id, sent.refused_at, sent.claimed_by) == ("1700000000.000200", None, "b:2")


def test_unsent_notices_are_the_platforms_opened_since(any_database: Database) -> None:
    first, second = _session(any_database), _session(any_database, weeks=1)
    other = _session(any_database, channel=ON_DISCORD)
    with any_database() as store:
        old = store.open_notice(session_id=first, kind="reminder:1d", now=NOW - timedelta(days=2))
        sent = store.open_notice(session_id=first, kind="reminder:30m", now=NOW)
        mine = store.open_notice(session_id=second, kind="reminder:1d", now=NOW)
        unknown = store.open_notice(
            session_id=second, kind="reminder:30m", now=NOW + timedelta(seconds=1)
        )
        theirs = store.open_notice(session_id=other, kind="reminder:1d", now=NOW)
        assert old is not None and sent is not None and mine is not None
        assert unknown is not None and theirs is not None
        store.notice_sent(notice_id=sent.id, message_id="1700000000.000300")
        store.notice_sent(notice_id=unknown.id, message_id="")  # may have gone out
        assert store.claim_notice(notice_id=mine.id, owner="a", now=NOW, holder=None)
    with any_database(write=False) as store:
        unsent = store.unsent_notices(platform="slack", since=NOW)
        assert [notice.id for notice in unsent] == [mine.id]
        assert unsent[0].claimed_by == "a" and unsent[0].channel == HERE
        since_before = store.unsent_notices(platform="slack", since=NOW - timedelta(days=7))
        assert since_before[0] == old and len(since_before) == 2
        assert store.unsent_notices(platform="discord", since=NOW) == [theirs]


def test_an_rsvp_changes_stays_and_is_withdrawn(any_database: Database) -> None:
    session_id = _session(any_database)
    other = _session(any_database, channel=ELSEWHERE)
    later = NOW + timedelta(minutes=1)
    member = "<@U123> 🧪"  # an id is kept as given
    with any_database() as store:
        assert store.set_rsvp(session_id=session_id, user=member, answer=Rsvp.GOING, now=NOW)
        assert not store.set_rsvp(session_id=session_id, user=member, answer=Rsvp.GOING, now=later)
        assert store.set_rsvp(session_id=session_id, user="U2", answer=Rsvp.NO, now=NOW)
        assert store.set_rsvp(session_id=session_id, user=member, answer=Rsvp.MAYBE, now=later)
        assert store.set_rsvp(session_id=other, user="U2", answer=Rsvp.GOING, now=NOW)
        assert store.rsvps(session_id=session_id) == {member: Rsvp.MAYBE, "U2": Rsvp.NO}
        assert store.set_rsvp(session_id=session_id, user="U2", answer=None, now=later)
        assert not store.set_rsvp(session_id=session_id, user="U2", answer=None, now=later)
    with any_database(write=False) as store:
        assert store.rsvps(session_id=session_id) == {member: Rsvp.MAYBE}
        assert store.rsvps(session_id=other) == {"U2": Rsvp.GOING}
        assert store.rsvps(session_id=other + 1_000) == {}
