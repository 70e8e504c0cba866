"""The polls storage: a channel's poll settings, its nominations (one a paper), its members'
standing ballots, and each session's poll opened once and closed once; on SQLite and, where
present, PostgreSQL. Two processes racing: test_polls_races.py."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.db.database import Database
from bot.meetings.ballots import Ballot
from bot.meetings.reminders import Before
from bot.ports.polls import PollSettings, SessionPoll, Tally
from tests.db.polls_data import LATER, paper_in, session_of
from tests.db.sources_data import ELSEWHERE, HERE, HOSTILE, NEXT_DOOR, NOW


def test_settings_round_trip_and_turn_off(any_database: Database) -> None:
    ranked = PollSettings(
        mode="ranked",
        hidden=True,
        weighted=True,
        opens=Before(days=5, minutes=90),
        closes=Before(minutes=45),
        slate=7,
    )
    with any_database() as store:
        assert store.poll_settings(channel=HERE) is None
        store.save_poll_settings(channel=HERE, settings=None)  # nothing to turn off: no error
        store.save_poll_settings(channel=HERE, settings=ranked)
        store.save_poll_settings(channel=NEXT_DOOR, settings=PollSettings())
    with any_database(write=False) as store:
        assert store.poll_settings(channel=HERE) == ranked
        assert store.poll_settings(channel=NEXT_DOOR) == PollSettings()
        # Its channel row is made as a watch's is: not a follow, so no daily post before one.
        assert store.channel(key=HERE) is None
    with any_database() as store:
        store.save_poll_settings(channel=HERE, settings=PollSettings(slate=2))
        assert store.poll_settings(channel=HERE) == PollSettings(slate=2)
        store.save_poll_settings(channel=HERE, settings=None)
    with any_database(write=False) as store:
        assert store.poll_settings(channel=HERE) is None
        assert store.poll_settings(channel=NEXT_DOOR) == PollSettings()


def test_a_paper_is_nominated_once(any_database: Database) -> None:
    title = "Sparse attention: " + HOSTILE[:200]
    paper = paper_in(any_database, title=title)
    with any_database() as store:
        first, new = store.nominate(channel=HERE, paper_id=paper, user="U1", now=NOW)
        again, new_again = store.nominate(channel=HERE, paper_id=paper, user="U2", now=LATER)
        # Another channel of the workspace nominates it on its own.
        there, new_there = store.nominate(channel=NEXT_DOOR, paper_id=paper, user="", now=LATER)
    assert (new, new_again, new_there) == (True, False, True)
    assert again == first and there.id != first.id
    assert (first.channel, first.paper_id, first.title) == (HERE, paper, title)
    assert (first.nominated_by, first.nominated_at, first.chosen_for) == ("U1", NOW, None)
    assert first.nominated_at.utcoffset() == timedelta(0)
    assert (there.channel, there.nominated_by) == (NEXT_DOOR, "")
    with any_database(write=False) as store:
        assert store.nominations(channel=HERE, ids=None) == [first]


def test_a_paper_of_another_workspace_is_not_nominated(any_database: Database) -> None:
    theirs = paper_in(any_database, title="Their paper", workspace=ELSEWHERE)
    with any_database() as store, pytest.raises(LookupError):
        store.nominate(channel=HERE, paper_id=theirs, user="U1", now=NOW)
    with any_database() as store, pytest.raises(LookupError):
        store.nominate(channel=HERE, paper_id=theirs + 1_000, user="U1", now=NOW)


def test_nominations_oldest_first_and_the_chosen_ones_done(any_database: Database) -> None:
    papers = [paper_in(any_database, title=f"Paper {n}") for n in range(3)]
    session_id = session_of(any_database)
    with any_database() as store:
        # Nominated out of their papers' order; two at one instant go by id.
        late = store.nominate(channel=HERE, paper_id=papers[0], user="U1", now=LATER)[0]
        early = store.nominate(channel=HERE, paper_id=papers[1], user="U2", now=NOW)[0]
        tied = store.nominate(channel=HERE, paper_id=papers[2], user="U3", now=LATER)[0]
        assert store.nominations(channel=HERE, ids=None) == [early, late, tied]
        assert store.open_poll(session_id=session_id, slate=[late.id, tied.id], now=NOW)
        assert store.close_poll(session_id=session_id, winner=late.id, now=LATER)
    with any_database(write=False) as store:
        waiting = store.nominations(channel=HERE, ids=None)
        chosen = store.nominations(channel=HERE, ids=[tied.id, late.id, early.id + 1_000])
        assert store.nominations(channel=HERE, ids=[]) == []
        assert store.nominations(channel=NEXT_DOOR, ids=[late.id]) == []  # another channel's
    assert waiting == [early, tied]
    assert [record.id for record in chosen] == [late.id, tied.id]
    assert (chosen[0].chosen_for, chosen[1].chosen_for) == (session_id, None)


def test_ballots_replace_withdraw_and_keep_their_order(any_database: Database) -> None:
    with any_database() as store:
        assert store.ballots(channel=HERE) == []
        store.cast_ballot(channel=HERE, voter="U1", choices=[3, 1], now=NOW)
        store.cast_ballot(channel=HERE, voter="U2", choices=[2], now=NOW)
        store.cast_ballot(channel=HERE, voter="U3", choices=[1, 2, 3], now=NOW)
        store.cast_ballot(channel=NEXT_DOOR, voter="U1", choices=[9], now=NOW)
        # U1 votes again: theirs replaced, now the last cast; U3 withdraws.
        store.cast_ballot(channel=HERE, voter="U1", choices=[4], now=LATER)
        store.cast_ballot(channel=HERE, voter="U3", choices=[], now=LATER)
        store.cast_ballot(channel=HERE, voter="U9", choices=(), now=LATER)  # none to withdraw
    with any_database(write=False) as store:
        assert store.ballots(channel=HERE) == [
            Ballot(voter="U2", choices=(2,)),
            Ballot(voter="U1", choices=(4,)),
        ]
        assert store.ballots(channel=NEXT_DOOR) == [Ballot(voter="U1", choices=(9,))]
    with any_database() as store:
        # Cast at one instant, they keep the order the voters first cast theirs (U1 before U2).
        store.cast_ballot(channel=HERE, voter="U2", choices=[2, 1], now=LATER)
        store.cast_ballot(channel=HERE, voter="U1", choices=[1, 2], now=LATER)
        assert store.ballots(channel=HERE) == [
            Ballot(voter="U1", choices=(1, 2)),
            Ballot(voter="U2", choices=(2, 1)),
        ]


def test_a_poll_opens_once(any_database: Database) -> None:
    session_id = session_of(any_database)
    with any_database() as store:
        assert store.session_poll(session_id=session_id) is None
        assert store.open_poll(session_id=session_id, slate=[5, 2, 8], now=NOW)
        # Another sweep or replica: its slate does not replace the first.
        assert not store.open_poll(session_id=session_id, slate=[1], now=LATER)
    with any_database(write=False) as store:
        poll = store.session_poll(session_id=session_id)
        assert store.chosen_paper(session_id=session_id) is None  # still open
    assert poll == SessionPoll(session_id=session_id, slate=(5, 2, 8), opened_at=NOW)
    assert poll.opened_at.utcoffset() == timedelta(0)


def test_a_poll_closes_once_and_its_winner_is_chosen(any_database: Database) -> None:
    papers = [paper_in(any_database, title=f"Paper {n}") for n in range(2)]
    first, second = session_of(any_database), session_of(any_database, weeks=1)
    with any_database() as store:
        one, two = (
            store.nominate(channel=HERE, paper_id=paper, user="U1", now=NOW)[0] for paper in papers
        )
        slate = [one.id, two.id]
        assert store.open_poll(session_id=first, slate=slate, now=NOW)
        assert store.open_poll(session_id=second, slate=slate, now=NOW)
        assert not store.close_poll(session_id=second + 1_000, winner=one.id, now=LATER)
        kept = Tally(mode="ranked", counts=((two.id, 2.5), (one.id, 0.5)))
        assert store.close_poll(session_id=first, winner=two.id, now=LATER, tally=kept)
        # A second closer (another replica, a tally that came out otherwise) changes nothing.
        assert not store.close_poll(session_id=first, winner=one.id, now=LATER + LATER.resolution)
        # Nobody voted in the second's poll: closed without a winner.
        assert store.close_poll(session_id=second, winner=None, now=LATER)
    with any_database(write=False) as store:
        closed = store.session_poll(session_id=first)
        assert store.chosen_paper(session_id=first) == papers[1]
        assert store.chosen_paper(session_id=second) is None
        assert store.session_poll(session_id=second) == SessionPoll(
            session_id=second, slate=tuple(slate), opened_at=NOW, closed_at=LATER
        )
        assert [record.id for record in store.nominations(channel=HERE, ids=None)] == [one.id]
        assert store.nominations(channel=HERE, ids=[two.id])[0].chosen_for == first
    assert closed == SessionPoll(
        session_id=first,
        slate=tuple(slate),
        opened_at=NOW,
        closed_at=LATER,
        winner=two.id,
        tally=kept,  # the counts as it closed, whatever the ballots say later
    )


def test_another_workspace_sees_nothing_of_this_ones(any_database: Database) -> None:
    paper = paper_in(any_database, title="Ours")
    with any_database() as store:
        store.save_poll_settings(channel=HERE, settings=PollSettings())
        mine = store.nominate(channel=HERE, paper_id=paper, user="U1", now=NOW)[0]
        store.cast_ballot(channel=HERE, voter="U1", choices=[mine.id], now=NOW)
    # ELSEWHERE is channel C1 too, in workspace T2.
    with any_database() as store:
        assert store.poll_settings(channel=ELSEWHERE) is None
        assert store.nominations(channel=ELSEWHERE, ids=None) == []
        assert store.nominations(channel=ELSEWHERE, ids=[mine.id]) == []
        assert store.ballots(channel=ELSEWHERE) == []
        # Their withdrawals and turning off touch nothing of ours.
        store.cast_ballot(channel=ELSEWHERE, voter="U1", choices=[], now=LATER)
        store.save_poll_settings(channel=ELSEWHERE, settings=None)
    with any_database(write=False) as store:
        assert store.poll_settings(channel=HERE) == PollSettings()
        assert store.ballots(channel=HERE) == [Ballot(voter="U1", choices=(mine.id,))]
        assert store.nominations(channel=HERE, ids=None) == [mine]
