"""The club's memory of its sessions read at once: each session with its poll (slate, tally
as it closed, winner), presenter and RSVPs, one workspace (or channel) at a time, in a span;
on SQLite and, where present, PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from bot.db.database import Database
from bot.meetings.ballots import Rsvp
from bot.ports.polls import Tally
from bot.ports.session_history import SlatePaper
from tests.db.meetings_data import FAR_AHEAD, LONG_AGO, session_on
from tests.db.polls_data import LATER, paper_in
from tests.db.sources_data import DAY, ELSEWHERE, HERE, HOSTILE, NEXT_DOOR, NOW


def test_sessions_come_back_with_their_poll_presenter_and_rsvps(any_database: Database) -> None:
    title = HOSTILE[:200]  # a paper title's room
    won, lost = paper_in(any_database, title=title), paper_in(any_database, title="Runner-up")
    with any_database() as store:
        first = store.add_session(channel=HERE, session=session_on(DAY), now=NOW)
        second = store.add_session(
            channel=HERE, session=session_on(DAY + timedelta(weeks=1)), now=NOW
        )
        other = store.add_session(channel=ELSEWHERE, session=session_on(DAY), now=NOW)
        assert first and second and other
        one = store.nominate(channel=HERE, paper_id=won, user="U1", now=NOW)[0]
        two = store.nominate(channel=HERE, paper_id=lost, user="", now=NOW)[0]
        store.open_poll(session_id=first, slate=[two.id, one.id], now=NOW)
        kept = Tally(mode="approval", counts=((one.id, 1.5), (two.id, 0.0)))
        store.close_poll(session_id=first, winner=one.id, now=LATER, tally=kept)
        store.open_poll(session_id=second, slate=[two.id], now=LATER)  # still open
        store.assign_presenter(session_id=first, user="U9", how="volunteer", now=NOW, replace=True)
        store.set_rsvp(session_id=first, user="U2", answer=Rsvp.MAYBE, now=NOW)
        store.set_rsvp(session_id=first, user="U1", answer=Rsvp.GOING, now=NOW)
        store.set_rsvp(session_id=other, user="U1", answer=Rsvp.NO, now=NOW)
    with any_database(write=False) as store:
        ours = store.session_history(
            workspace=HERE.workspace_key, channel=None, since=None, until=None
        )
        theirs = store.session_history(
            workspace=ELSEWHERE.workspace_key, channel=None, since=LONG_AGO, until=FAR_AHEAD
        )
        later = store.session_history(
            workspace=HERE.workspace_key, channel=HERE, since=NOW + timedelta(days=1), until=None
        )
        next_door = store.session_history(
            workspace=HERE.workspace_key, channel=NEXT_DOOR, since=None, until=None
        )
    assert [m.record.id for m in ours] == [first, second]
    assert [m.record.id for m in later] == [second] and next_door == []
    assert [m.rsvps for m in theirs] == [(("U1", Rsvp.NO),)]
    done, coming = ours
    # A channel a meeting made is private until a follow says otherwise.
    assert done.record.channel == HERE and done.private
    assert done.rsvps == (("U1", Rsvp.GOING), ("U2", Rsvp.MAYBE))
    assert done.presenter is not None and (done.presenter.user, done.presenter.how) == (
        "U9",
        "volunteer",
    )
    assert done.poll is not None and done.poll.mode == "approval"
    chosen = SlatePaper(nomination=one.id, paper_id=won, title=title, votes=1.5)
    assert done.poll.slate == (
        SlatePaper(nomination=two.id, paper_id=lost, title="Runner-up", votes=0.0),
        chosen,
    )
    assert done.paper == chosen and done.poll.closed_at == LATER
    # Still open: no mode, no votes, no winner yet.
    assert coming.poll is not None and coming.paper is None and coming.poll.mode is None
    assert [p.votes for p in coming.poll.slate] == [None]
    assert coming.presenter is None and coming.rsvps == ()
