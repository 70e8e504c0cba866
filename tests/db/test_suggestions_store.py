"""The sources storage's suggestions: dedupe against the channel's suggestions and its
workspace's papers, exact round-trips, deciding once, and the group's history; on SQLite and,
where present, PostgreSQL."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import timedelta

from sqlalchemy import func, select

from bot.db.database import Database
from bot.db.schema import PaperRow
from bot.db.schema_sources import SuggestionKeyRow, SuggestionRow
from bot.domain import ChannelKey, VoteCount
from bot.sources.candidates import Candidate, candidate_keys
from bot.sources.rank import GroupRead
from tests.db.sources_data import (
    ELSEWHERE,
    HERE,
    HOSTILE,
    NEXT_DOOR,
    NOW,
    add_paper,
    candidate,
    posted,
    watch,
)

# An abstract long enough to be a paper's fingerprint on its own (bot/ingest/keys.py).
LONG = " ".join(f"word{n}" for n in range(60))
ALL = ("waiting", "shown", "promoted", "hidden", "passed")


UNKNOWN = ChannelKey(platform="slack", workspace="T9", channel="C9")


def _add(
    database: Database, candidates: list[Candidate], *, channel: ChannelKey = HERE, watch_id: int
) -> int:
    """add_suggestions in a unit of its own; how many were kept."""
    with database() as store:
        return store.add_suggestions(
            channel=channel, watch_id=watch_id, candidates=candidates, now=NOW
        )


def test_candidates_the_archive_knows_are_not_kept(any_database: Database) -> None:
    watch_id = watch(any_database)
    add_paper(any_database, title="A versioned one", abstract="Known by id.", arxiv_id="2412.00001")
    add_paper(any_database, title="A journal one", abstract="Known by DOI.", doi="10.1000/j.1")
    add_paper(
        any_database, title="An arXiv one", abstract="Known by DataCite.", arxiv_id="2412.00003"
    )
    add_paper(any_database, title="Sparse attention study number 4", abstract="Another text.")
    add_paper(
        any_database,
        title="Same words",
        abstract=LONG,
    )
    add_paper(
        any_database, title="Its DataCite DOI", abstract="Known.", doi="10.48550/arXiv.2412.00006"
    )
    fresh = candidate(9)
    offered = [
        candidate(1, version=3),  # the archive's id, another version
        candidate(2, arxiv_id="", doi="https://doi.org/10.1000/J.1"),
        candidate(3, arxiv_id="", doi="10.48550/arXiv.2412.00003"),  # DataCite names the id
        candidate(4, arxiv_id="", abstract="A journal's own abstract."),  # the title alone
        candidate(5, arxiv_id="", title="Other words", abstract=LONG),  # its fingerprint
        candidate(1, version=2, announce="replace"),  # a replacement of a paper read
        candidate(6),  # its id's DataCite DOI is the paper's DOI
        # A source's DataCite DOI alone, the arXiv id not made from it: the paper's id.
        Candidate(title="Hand made", source="feed:x", doi="10.48550/arxiv.2412.00001"),
        fresh,
    ]
    assert _add(any_database, offered, watch_id=watch_id) == 1
    with any_database(write=False) as store:
        (kept,) = store.suggestions(channel=HERE, states=ALL, limit=10)
    assert kept.candidate == fresh and kept.state == "waiting" and kept.watch_id == watch_id


def test_a_cross_list_twice_in_one_call_and_a_repeat_fetch_are_one(any_database: Database) -> None:
    watch_id = watch(any_database)
    new = candidate(1, categories=["cs.LG"])
    cross = candidate(1, categories=["cs.CL", "cs.LG"], announce="cross", version=None)
    assert _add(any_database, [new, cross, candidate(2)], watch_id=watch_id) == 2
    # The same listing fetched again after a crash, and a replacement of a suggestion.
    again = [cross, candidate(2), candidate(1, version=2, announce="replace")]
    assert _add(any_database, again, watch_id=watch_id) == 0
    with any_database(write=False) as store:
        kept = store.suggestions(channel=HERE, states=ALL, limit=10)
        assert sorted(s.candidate.arxiv_id or "" for s in kept) == ["2412.00001", "2412.00002"]
        assert next(s for s in kept if s.candidate.arxiv_id == "2412.00001").candidate == new
        # Every key of every kept candidate is held for the channel.
        keys = set(store.session.scalars(select(SuggestionKeyRow.key)))
    assert keys == {k for s in kept for k in candidate_keys(candidate=s.candidate)}


def test_a_decided_suggestion_still_dedupes(any_database: Database) -> None:
    watch_id = watch(any_database)
    assert _add(any_database, [candidate(1)], watch_id=watch_id) == 1
    with any_database() as store:
        (hidden,) = store.suggestions(channel=HERE, states=["waiting"], limit=1)
        assert store.decide_suggestion(suggestion_id=hidden.id, state="hidden", user="U2", now=NOW)
    assert _add(any_database, [candidate(1, version=4)], watch_id=watch_id) == 0


def test_channels_and_workspaces_keep_their_own(any_database: Database) -> None:
    here, next_door, elsewhere = (
        watch(any_database, channel=c) for c in (HERE, NEXT_DOOR, ELSEWHERE)
    )
    add_paper(
        any_database,
        title="Read in T2",
        abstract="Their paper.",
        arxiv_id="2412.00002",
        workspace=ELSEWHERE,
    )
    assert _add(any_database, [candidate(1)], watch_id=here) == 1
    # The same paper is the next channel's to decide too; T1 never read T2's paper.
    assert (
        _add(any_database, [candidate(1), candidate(2)], channel=NEXT_DOOR, watch_id=next_door) == 2
    )
    assert (
        _add(any_database, [candidate(1), candidate(2)], channel=ELSEWHERE, watch_id=elsewhere) == 1
    )
    with any_database() as store:
        (mine,) = store.suggestions(channel=HERE, states=ALL, limit=10)
        theirs = store.suggestions(channel=NEXT_DOOR, states=ALL, limit=10)
        assert {s.channel for s in theirs} == {NEXT_DOOR} and mine.id not in {s.id for s in theirs}
        assert [
            s.candidate.arxiv_id for s in store.suggestions(channel=ELSEWHERE, states=ALL, limit=9)
        ] == ["2412.00001"]
        # Another channel's suggestion is not found through this one, nor is it decided here.
        assert store.suggestion(channel=NEXT_DOOR, suggestion_id=mine.id) is None
        assert store.suggestion(channel=HERE, suggestion_id=mine.id) == mine
        assert store.suggestions(channel=UNKNOWN, states=ALL, limit=9) == []
    assert _add(any_database, [candidate(3)], channel=UNKNOWN, watch_id=here) == 0


def test_every_field_and_hostile_text_round_trip(any_database: Database) -> None:
    watch_id = watch(any_database)
    odd = Candidate(
        title=HOSTILE,
        source="feed:https://example.org/<!channel>",
        authors=("<@U1>", "Zoë Łukasz 🧪", HOSTILE),
        abstract=HOSTILE * 2,
        arxiv_id=None,
        version=None,
        doi="10.1000/" + "x" * 400,
        url="https://example.org/a?b=<c>&d=" + "e" * 1_900,
        announced=None,
        categories=("q-bio.NC", "@everyone"),
        announce="replace-cross",
    )
    plain = candidate(1)
    assert _add(any_database, [odd, plain], watch_id=watch_id) == 2
    with any_database(write=False) as store:
        found = store.suggestions(channel=HERE, states=["waiting"], limit=10)
    assert sorted((s.candidate for s in found), key=lambda c: c.title) == sorted(
        [odd, plain], key=lambda c: c.title
    )
    assert all(s.found_at == NOW and s.reason is None and s.score is None for s in found)
    # Its long keys are kept as digests, and still meet the same candidate again.
    assert _add(any_database, [odd], watch_id=watch_id) == 0


def test_suggestions_are_newest_found_first_in_the_states_asked(any_database: Database) -> None:
    watch_id = watch(any_database)
    with any_database() as store:
        for n in range(1, 5):
            found = NOW + timedelta(minutes=n % 3)  # 1 and 4 found at the same time
            store.add_suggestions(
                channel=HERE, watch_id=watch_id, candidates=[candidate(n)], now=found
            )
    with any_database() as store:
        by_number = {
            s.candidate.arxiv_id: s for s in store.suggestions(channel=HERE, states=ALL, limit=9)
        }
        store.decide_suggestion(
            suggestion_id=by_number["2412.00002"].id, state="promoted", user="U1", now=NOW
        )
    with any_database(write=False) as store:
        waiting = store.suggestions(channel=HERE, states=["waiting"], limit=9)
        assert [s.candidate.arxiv_id for s in waiting] == ["2412.00004", "2412.00001", "2412.00003"]
        assert [
            s.candidate.arxiv_id
            for s in store.suggestions(channel=HERE, states=["waiting"], limit=1)
        ] == ["2412.00004"]
        assert [s.state for s in store.suggestions(channel=HERE, states=["promoted"], limit=9)] == [
            "promoted"
        ]
        assert store.suggestions(channel=HERE, states=[], limit=9) == []


def test_a_suggestion_is_decided_once(any_database: Database) -> None:
    watch_id = watch(any_database)
    add_paper(any_database, title="Queued from it", abstract="The promoted one.")
    assert _add(any_database, [candidate(1), candidate(2)], watch_id=watch_id) == 2
    with any_database() as store:
        first, second = store.suggestions(channel=HERE, states=["waiting"], limit=2)
        paper_id = store.session.scalar(select(PaperRow.id))
        later = NOW + timedelta(hours=1)
        assert store.decide_suggestion(
            suggestion_id=first.id, state="promoted", user="U1", now=later, paper_id=paper_id
        )
        # A second click, or another replica's, finds it decided.
        assert not store.decide_suggestion(
            suggestion_id=first.id, state="hidden", user="U2", now=later
        )
        assert not store.decide_suggestion(
            suggestion_id=first.id, state="promoted", user="U2", now=later
        )
        assert store.decide_suggestion(
            suggestion_id=second.id, state="hidden", user="U2", now=later
        )
        assert not store.decide_suggestion(
            suggestion_id=999_999, state="hidden", user="U2", now=later
        )
    with any_database(write=False) as store:
        promoted = store.suggestion(channel=HERE, suggestion_id=first.id)
        hidden = store.suggestion(channel=HERE, suggestion_id=second.id)
    assert promoted == replace(
        first, state="promoted", decided_by="U1", decided_at=later, paper_id=paper_id
    )
    assert hidden == replace(second, state="hidden", decided_by="U2", decided_at=later)


def test_group_history_is_the_channels_posted_papers_and_decisions(any_database: Database) -> None:
    watch_id = watch(any_database)
    posted(
        any_database,
        channel=HERE,
        title="Liked",
        days_ago=2,
        votes=(1, 1, -1),
        comments=3,
        deleted=1,
    )
    posted(any_database, channel=HERE, title="Latest", days_ago=1)
    posted(any_database, channel=HERE, title="Oldest", days_ago=5)
    posted(any_database, channel=HERE, title="Never went out", days_ago=0, state="pending")
    posted(any_database, channel=NEXT_DOOR, title="Next door's", days_ago=1, votes=(1,))
    assert _add(any_database, [candidate(n) for n in range(1, 5)], watch_id=watch_id) == 4
    with any_database() as store:
        s = {x.candidate.arxiv_id: x for x in store.suggestions(channel=HERE, states=ALL, limit=9)}
        for n, state, minutes in ((1, "promoted", 1), (2, "promoted", 2), (3, "hidden", 1)):
            store.decide_suggestion(
                suggestion_id=s[f"2412.{n:05d}"].id,
                state=state,
                user="U1",
                now=NOW + timedelta(minutes=minutes),
            )  # type: ignore[arg-type]
        history = store.group_history(channel=HERE, limit=2)
        assert [r.title for r in store.group_history(channel=HERE, limit=9).read] == [
            "Latest",
            "Liked",
            "Oldest",
        ]
        assert store.group_history(channel=NEXT_DOOR, limit=9).promoted == ()
        assert store.group_history(channel=ELSEWHERE, limit=9).read == ()
    assert history.read == (
        GroupRead(title="Latest", abstract="About Latest."),
        GroupRead(
            title="Liked", abstract="About Liked.", votes=VoteCount(up=2, down=1), comments=3
        ),
    )
    assert history.promoted == (s["2412.00002"].candidate, s["2412.00001"].candidate)
    assert history.hidden == (s["2412.00003"].candidate,)


def test_two_writers_racing_keep_each_candidate_once(any_url: str) -> None:
    first, second = Database(url=any_url), Database(url=any_url)
    try:
        watch_id = watch(first)
        batch = [candidate(n) for n in range(1, 41)]
        start = threading.Barrier(2)
        kept: list[int] = []

        def write(database: Database, offered: list[Candidate]) -> None:
            start.wait()
            kept.append(_add(database, offered, watch_id=watch_id))

        threads = [
            threading.Thread(target=write, args=(first, batch)),
            threading.Thread(target=write, args=(second, list(reversed(batch)))),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(kept) == [0, 40]
        with first(write=False) as store:
            assert store.session.scalar(select(func.count()).select_from(SuggestionRow)) == 40
    finally:
        first.dispose()
        second.dispose()


def test_suggestions_are_counted_by_state_since_a_moment(any_database: Database) -> None:
    number = watch(any_database)
    early, late = NOW - timedelta(days=10), NOW
    with any_database() as store:
        store.add_suggestions(channel=HERE, watch_id=number, candidates=[candidate(1)], now=early)
        store.add_suggestions(
            channel=HERE, watch_id=number, candidates=[candidate(2), candidate(3)], now=late
        )
    with any_database(write=False) as store:
        count = store.count_suggestions
        assert count(channel=HERE, states=("waiting",), since=early) == 3
        assert count(channel=HERE, states=("waiting",), since=late) == 2
        assert count(channel=HERE, states=("hidden",), since=early) == 0
        assert count(channel=NEXT_DOOR, states=("waiting",), since=early) == 0
