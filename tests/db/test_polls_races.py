"""The polls storage with two processes racing (two Databases on one SQLite file or one
PostgreSQL server): a paper nominated by both is one nomination, a poll closed by both has
one winner."""

from __future__ import annotations

import threading
from collections.abc import Callable

from bot.db.database import Database
from bot.ports.polls import PollSettings, PollsStore
from tests.db.polls_data import LATER, paper_in, session_of
from tests.db.sources_data import HERE, NOW


def _race(url: str, *, work: Callable[[PollsStore, int], object]) -> list[object]:
    """What `work` gave in each of two processes' units of work (two Databases on one file or
    server) started at once, by writer number."""
    databases = (Database(url=url), Database(url=url))
    start = threading.Barrier(2)
    gave: dict[int, object] = {}

    def run(number: int) -> None:
        start.wait()
        with databases[number]() as store:
            gave[number] = work(store, number)

    try:
        threads = [threading.Thread(target=run, args=(number,)) for number in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for database in databases:
            database.dispose()
    return [gave[0], gave[1]]


def test_two_nominating_at_once_make_one_nomination_each_paper(any_url: str) -> None:
    database = Database(url=any_url)
    try:
        papers = [paper_in(database, title=f"Paper {n}") for n in range(20)]
        with database() as store:
            store.save_poll_settings(channel=HERE, settings=PollSettings())  # the channel row
    finally:
        database.dispose()

    def nominate_all(store: PollsStore, number: int) -> object:
        made = [
            store.nominate(channel=HERE, paper_id=paper, user=f"U{number}", now=NOW)
            for paper in papers  # one order for both: opposite ones could deadlock on PostgreSQL
        ]
        return [(record.id, new) for record, new in made]

    first, second = _race(any_url, work=nominate_all)
    assert isinstance(first, list) and isinstance(second, list)
    assert [id_ for id_, _ in first] == [id_ for id_, _ in second]
    assert all(one != two for (_, one), (_, two) in zip(first, second, strict=True))
    database = Database(url=any_url)
    try:
        with database(write=False) as store:
            assert len(store.nominations(channel=HERE, ids=None)) == 20
    finally:
        database.dispose()


def test_two_closing_at_once_choose_one_winner(any_url: str) -> None:
    database = Database(url=any_url)
    try:
        papers = [paper_in(database, title=f"Paper {n}") for n in range(2)]
        session_id = session_of(database)
        with database() as store:
            ids = [
                store.nominate(channel=HERE, paper_id=paper, user="U1", now=NOW)[0].id
                for paper in papers
            ]
            store.open_poll(session_id=session_id, slate=ids, now=NOW)
    finally:
        database.dispose()

    def close(store: PollsStore, number: int) -> object:
        return store.close_poll(session_id=session_id, winner=ids[number], now=LATER)

    closed = _race(any_url, work=close)
    assert sorted(closed, key=bool) == [False, True]
    winner = ids[closed.index(True)]
    database = Database(url=any_url)
    try:
        with database(write=False) as store:
            poll = store.session_poll(session_id=session_id)
            chosen = store.nominations(channel=HERE, ids=ids)
            assert store.chosen_paper(session_id=session_id) == papers[ids.index(winner)]
    finally:
        database.dispose()
    assert poll is not None and poll.winner == winner
    assert [record.chosen_for for record in chosen if record.id == winner] == [session_id]
    assert [record.chosen_for for record in chosen if record.id != winner] == [None]
