"""The storage of what stays of a session (ratings, links): one rating a member and session,
each question changed alone, counted by the paper its poll chose; links kept once, in order;
gone with their session's channel. On SQLite and, where present, PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete

from bot.db.database import Database
from bot.db.schema import ChannelRow
from bot.domain.ratings import RatingCount
from bot.ports.session_memory import Rating, SessionLink
from tests.db.polls_data import LATER, paper_in, session_of
from tests.db.sources_data import ELSEWHERE, HERE, NOW


def test_a_rating_is_one_a_member_each_question_changed_alone(any_database: Database) -> None:
    session_id = session_of(any_database)
    with any_database() as store:
        rate = store.rate_session
        assert rate(session_id=session_id, user="U1", question="worth", answer=True, now=NOW)
        assert not rate(session_id=session_id, user="U1", question="worth", answer=True, now=NOW)
        assert rate(session_id=session_id, user="U1", question="discussion", answer=False, now=NOW)
        assert rate(session_id=session_id, user="U1", question="worth", answer=False, now=LATER)
        assert rate(session_id=session_id, user="U2", question="discussion", answer=True, now=NOW)
    with any_database(write=False) as store:
        assert store.ratings(session_id=session_id) == {
            "U1": Rating(worth=False, discussion=False),
            "U2": Rating(worth=None, discussion=True),
        }
        assert store.ratings(session_id=session_id + 1_000) == {}


def test_ratings_count_for_the_paper_the_poll_chose_in_that_channel_alone(
    any_database: Database,
) -> None:
    first, second, third = (session_of(any_database, weeks=w) for w in range(3))
    paper = paper_in(any_database, title="Chosen twice")
    with any_database() as store:
        for session_id in (first, second, third):
            nomination = store.nominate(channel=HERE, paper_id=paper, user="U1", now=NOW)[0]
            store.open_poll(session_id=session_id, slate=[nomination.id], now=NOW)
            winner = nomination.id if session_id != third else None
            store.close_poll(session_id=session_id, winner=winner, now=NOW)
        for session_id, user, worth in (
            (first, "U1", True),
            (second, "U1", True),
            (second, "U2", False),
            (third, "U3", True),
        ):
            store.rate_session(
                session_id=session_id, user=user, question="worth", answer=worth, now=NOW
            )
        store.rate_session(session_id=first, user="U2", question="discussion", answer=True, now=NOW)
    with any_database(write=False) as store:
        # The third session's poll chose nothing: its rating counts for no paper.
        assert store.rated_papers(channel=HERE) == {
            paper: RatingCount(worth=2, not_worth=1, lively=1)
        }
        assert store.rated_papers(channel=ELSEWHERE) == {}


def test_links_are_kept_once_in_order_and_go_with_the_channel(any_database: Database) -> None:
    session_id = session_of(any_database)
    later = NOW + timedelta(minutes=1)
    with any_database() as store:
        add = store.add_session_link
        assert add(session_id=session_id, url="https://a.example/notes", user="U1", now=NOW)
        assert add(session_id=session_id, url="https://a.example/slides", user="U2", now=later)
        assert not add(session_id=session_id, url="https://a.example/notes", user="U3", now=later)
        store.rate_session(session_id=session_id, user="U1", question="worth", answer=True, now=NOW)
    with any_database(write=False) as store:
        assert store.session_links(session_id=session_id) == [
            SessionLink(url="https://a.example/notes", added_by="U1", added_at=NOW),
            SessionLink(url="https://a.example/slides", added_by="U2", added_at=later),
        ]
    with any_database() as store:
        store.session.execute(delete(ChannelRow))
    with any_database(write=False) as store:
        assert store.session_links(session_id=session_id) == []
        assert store.ratings(session_id=session_id) == {}
