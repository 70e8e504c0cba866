"""Reading arXiv searches (keywords or authors, no categories) from arXiv's API: once per cycle,
only recent papers kept, one suggestion per paper whichever watch found it, an error entry a
failure told once, and the API asked three seconds after the feeds; on a real SQLite archive
against the local fake of arXiv."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

from bot.db.database import Database
from bot.ports.sources import WatchSpec
from bot.services import sources_read
from bot.sources.watch_text import API_RESULTS, SourceBases
from tests.fakesources import FakeArxiv
from tests.services.test_sources_read import paper, waiting_ids, watch
from tests.sources.faketime import FakeTime, fetcher_on

MONDAY = date(2024, 9, 2)
NOON = datetime(2024, 9, 2, 12, 0, tzinfo=UTC)
SEARCH = WatchSpec(kind="arxiv", target="", keywords=("speculative decoding",))


def bases(arxiv: FakeArxiv) -> SourceBases:
    return SourceBases(arxiv_feed=arxiv.url, arxiv_api=arxiv.api_url, crossref="http://127.0.0.1:9")


def test_a_search_keeps_the_last_week_then_what_came_since_its_last_read(
    database: Database,
) -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        for day, papers in (
            (date(2024, 8, 12), [paper(1)]),  # three weeks before: never suggested
            (date(2024, 8, 23), [paper(2)]),  # ten days before
            (date(2024, 8, 26), [paper(3)]),  # seven days before: the window's first day
            (date(2024, 8, 28), [paper(4)]),
            (MONDAY, [paper(5), paper(6, title="Protein folding")]),
        ):
            arxiv.calendar.announce(day=day, papers=papers)
        watch(database, channel="C1", spec=SEARCH)
        fetcher = fetcher_on(FakeTime())
        first = sources_read.read_due(uow=database, fetcher=fetcher, bases=bases(arxiv), now=NOON)
        assert first.asked == 1 and first.kept == 3
        assert waiting_ids(database, "C1") == ["2409.00003", "2409.00004", "2409.00005"]
        (asked,) = arxiv.requests
        url = urlsplit(asked.path)
        assert url.path == "/api/query"
        assert parse_qs(url.query) == {
            "search_query": ['ti:"speculative decoding" OR abs:"speculative decoding"'],
            "sortBy": ["submittedDate"],
            "sortOrder": ["descending"],
            "max_results": [str(API_RESULTS)],
        }
        again = sources_read.read_due(
            uow=database, fetcher=fetcher, bases=bases(arxiv), now=NOON + timedelta(hours=3)
        )
        assert again.asked == 0  # once per cycle
        # Tuesday: a new paper, and two the API shows only now though submitted earlier (the
        # weekend's lag): the one within a week of the last read is kept, the older one not.
        tuesday = MONDAY + timedelta(days=1)
        arxiv.calendar.announce(day=tuesday, papers=[paper(7)])
        arxiv.calendar.announce(day=date(2024, 8, 27), papers=[paper(8)])
        arxiv.calendar.announce(day=date(2024, 8, 22), papers=[paper(9)])
        arxiv.set_day(tuesday)
        later = sources_read.read_due(
            uow=database, fetcher=fetcher, bases=bases(arxiv), now=NOON + timedelta(days=1)
        )
        assert later.asked == 1 and later.kept == 2
        assert waiting_ids(database, "C1") == [
            "2409.00003",
            "2409.00004",
            "2409.00005",
            "2409.00007",
            "2409.00008",
        ]


def test_a_paper_a_category_watch_and_a_search_both_find_is_one_suggestion_3_s_apart(
    database: Database,
) -> None:
    time = FakeTime()
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(
            day=MONDAY, papers=[paper(1, "cs.LG"), paper(2, "cs.CL"), paper(3, "cs.CL", title="X")]
        )
        watch(database, channel="C1", spec=WatchSpec(kind="arxiv", target="cs.LG"))
        watch(database, channel="C1", spec=SEARCH)
        watch(database, channel="C2", spec=SEARCH)  # the same search: the same request
        watch(database, channel="C2", spec=WatchSpec(kind="arxiv", target="", authors=("Turing",)))
        fetcher = fetcher_on(time, gaps={"127.0.0.1": 3.0})
        read = sources_read.read_due(uow=database, fetcher=fetcher, bases=bases(arxiv), now=NOON)
        assert read.asked == 3 and len(arxiv.requests) == 3
        paths = [urlsplit(r.path).path for r in arxiv.requests]
        assert paths == ["/rss/cs.LG", "/api/query", "/api/query"]
        # One request at a time, each three seconds after the one before (arXiv's terms).
        assert time.sleeps == [3.0, 3.0] and arxiv.max_in_flight == 1
        # 2409.00001 is in cs.LG's feed and matches the search: C1 keeps it once.
        assert waiting_ids(database, "C1") == ["2409.00001", "2409.00002"]
        assert waiting_ids(database, "C2") == ["2409.00001", "2409.00002"]
        assert read.kept == 4


def test_an_api_error_entry_is_a_failure_reported_once(database: Database) -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(day=MONDAY, papers=[paper(1)])
        number = watch(database, channel="C1", spec=SEARCH)
        fetcher = fetcher_on(FakeTime())
        arxiv.api_error_next(summary="<!channel> search_query is malformed")
        arxiv.api_error_next(summary="<!channel> search_query is malformed")
        first = sources_read.read_due(uow=database, fetcher=fetcher, bases=bases(arxiv), now=NOON)
        assert [f.watch.id for f in first.failures] == [number]
        assert first.failures[0].reason == "arXiv API error: <!channel> search_query is malformed"
        assert waiting_ids(database, "C1") == []
        with database(write=False) as store:
            state = store.source_state(watch_id=number)
        assert state.cycle is None and state.failures == 1 and state.reported
        tuesday = MONDAY + timedelta(days=1)
        arxiv.set_day(tuesday)
        at = NOON + timedelta(days=1, hours=1)  # after the day a failure that is no 5xx waits
        second = sources_read.read_due(uow=database, fetcher=fetcher, bases=bases(arxiv), now=at)
        assert second.asked == 1 and second.failures == ()  # failing still, told already
        at += timedelta(days=1, hours=1)
        worked = sources_read.read_due(uow=database, fetcher=fetcher, bases=bases(arxiv), now=at)
        assert worked.failures == () and worked.kept == 1
        assert waiting_ids(database, "C1") == ["2409.00001"]
        with database(write=False) as store:
            assert store.source_state(watch_id=number).failures == 0
