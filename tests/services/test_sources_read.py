"""Reading watches: once per cycle and source, conditionally, resumably, failures told once;
on a real SQLite archive against the local fakes of arXiv and any feed."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from bot.db.database import Database
from bot.ingest import draft_from_reference
from bot.ports.sources import WatchSpec
from bot.services import sources_read
from bot.services.adding import queue_draft
from bot.sources.watch_text import SourceBases
from tests.fakesources import Announcement, CrossrefWork, FakeArxiv, FakeCrossref, FakeFeeds
from tests.services.conftest import key
from tests.sources.faketime import FakeTime, fetcher_on

MONDAY = date(2024, 9, 2)
NOON = datetime(2024, 9, 2, 1, 30, tzinfo=UTC)  # after arXiv's mailing, before noon


def paper(n: int, *cats: str, title: str = "", replacement: bool = False) -> Announcement:
    return Announcement(
        arxiv_id=f"2409.{n:05d}",
        title=title or f"Paper {n} on speculative decoding",
        abstract=f"Abstract {n}.",
        authors=("Ada Lovelace",),
        categories=cats or ("cs.LG",),
        version=2 if replacement else 1,
        replacement=replacement,
    )


def watch(database: Database, *, channel: str, spec: WatchSpec) -> int:
    with database() as store:
        return store.add_watch(channel=key(channel), spec=spec, user="U1", now=NOON)


def arxiv_bases(arxiv: FakeArxiv) -> SourceBases:
    return SourceBases(arxiv_feed=arxiv.url, crossref="http://127.0.0.1:9")


def waiting_ids(database: Database, channel: str) -> list[str]:
    with database(write=False) as store:
        found = store.suggestions(channel=key(channel), states=("waiting",), limit=100)
    return sorted(s.candidate.arxiv_id or "" for s in found)


def test_a_cycle_is_read_once_per_source_and_a_cross_list_is_one_suggestion(
    database: Database,
) -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(
            day=MONDAY, papers=[paper(1, "cs.LG"), paper(2, "cs.CL", "cs.LG"), paper(3, "cs.CL")]
        )
        watch(database, channel="C1", spec=WatchSpec(kind="arxiv", target="cs.LG"))
        watch(database, channel="C1", spec=WatchSpec(kind="arxiv", target="cs.CL"))
        watch(database, channel="C2", spec=WatchSpec(kind="arxiv", target="cs.LG"))
        fetcher = fetcher_on(FakeTime())
        first = sources_read.read_due(
            uow=database, fetcher=fetcher, bases=arxiv_bases(arxiv), now=NOON
        )
        # Two sources (cs.LG shared by C1 and C2, cs.CL): two requests, not three.
        assert first.asked == 2 and len(arxiv.requests) == 2
        assert waiting_ids(database, "C1") == ["2409.00001", "2409.00002", "2409.00003"]
        assert waiting_ids(database, "C2") == ["2409.00001", "2409.00002"]
        again = sources_read.read_due(
            uow=database, fetcher=fetcher, bases=arxiv_bases(arxiv), now=NOON + timedelta(hours=3)
        )
        assert again.asked == 0 and len(arxiv.requests) == 2  # the cycle was read


def test_a_late_mailing_is_asked_again_conditionally_an_hour_later(database: Database) -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(day=MONDAY, papers=[paper(1)])
        tuesday = MONDAY + timedelta(days=1)
        arxiv.calendar.announce(day=tuesday, papers=[paper(2)])
        watch(database, channel="C1", spec=WatchSpec(kind="arxiv", target="cs.LG"))
        fetcher = fetcher_on(FakeTime())
        bases = arxiv_bases(arxiv)
        sources_read.read_due(uow=database, fetcher=fetcher, bases=bases, now=NOON)
        arxiv.set_day(tuesday, late=True)  # Tuesday's mailing is not out yet
        at = NOON + timedelta(days=1)
        sources_read.read_due(uow=database, fetcher=fetcher, bases=bases, now=at)
        assert arxiv.requests[-1].status == 304
        assert waiting_ids(database, "C1") == ["2409.00001"]
        soon = sources_read.read_due(
            uow=database, fetcher=fetcher, bases=bases, now=at + timedelta(minutes=30)
        )
        assert soon.asked == 0  # not before the hour
        arxiv.set_day(tuesday)
        later = sources_read.read_due(
            uow=database, fetcher=fetcher, bases=bases, now=at + timedelta(hours=1)
        )
        assert later.asked == 1 and later.kept == 1
        assert waiting_ids(database, "C1") == ["2409.00001", "2409.00002"]


def test_keywords_filter_and_a_paper_in_the_archive_is_not_suggested(database: Database) -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(
            day=MONDAY,
            papers=[paper(1), paper(2, title="Protein folding"), paper(3, replacement=True)],
        )
        with database() as store:  # the group read 2409.00003 already
            store.add_watch(
                channel=key("C1"),
                spec=WatchSpec(kind="arxiv", target="cs.LG", keywords=("speculative decoding",)),
                user="U1",
                now=NOON,
            )
        draft = draft_from_reference(text="arXiv:2409.00003", origin="test")
        assert draft is not None
        with database() as store:
            assert queue_draft(store=store, draft=draft, channel=key("C1"), user="U1", now=NOON)
        sources_read.read_due(
            uow=database, fetcher=fetcher_on(FakeTime()), bases=arxiv_bases(arxiv), now=NOON
        )
        assert waiting_ids(database, "C1") == ["2409.00001"]


def test_a_failing_source_is_reported_once_then_again_after_it_worked(database: Database) -> None:
    with FakeFeeds() as feeds:
        url = feeds.put("/toc.xml", body="<html>not a feed</html>")
        number = watch(database, channel="C1", spec=WatchSpec(kind="feed", target=url))
        fetcher = fetcher_on(FakeTime())
        bases = SourceBases()
        first = sources_read.read_due(uow=database, fetcher=fetcher, bases=bases, now=NOON)
        assert [f.watch.id for f in first.failures] == [number]
        assert "not an RSS or Atom feed" in first.failures[0].reason
        with database(write=False) as store:
            state = store.source_state(watch_id=number)
        assert state.failures == 1 and state.reported and state.retry_at is not None
        next_day = NOON + timedelta(days=1, hours=1)
        second = sources_read.read_due(uow=database, fetcher=fetcher, bases=bases, now=next_day)
        assert second.asked == 1 and second.failures == ()  # failing still, told already
        feeds.put(
            "/toc.xml",
            body='<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>'
            "<item><title>A working feed's paper</title><link>https://e.org/1</link></item>"
            "</channel></rss>",
        )
        third_day = next_day + timedelta(days=1, hours=1)
        worked = sources_read.read_due(uow=database, fetcher=fetcher, bases=bases, now=third_day)
        assert worked.kept == 1 and worked.failures == ()
        feeds.remove("/toc.xml")  # answers 404 from now on
        fourth = third_day + timedelta(days=1)
        broke = sources_read.read_due(uow=database, fetcher=fetcher, bases=bases, now=fourth)
        assert [f.watch.id for f in broke.failures] == [number]  # a new run of failures
        assert "404" in broke.failures[0].reason


def test_an_unchanged_feed_is_read_once_a_day_and_a_weekend_listing_too(
    database: Database,
) -> None:
    body = '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title></channel></rss>'
    with FakeFeeds() as feeds, FakeArxiv(today=MONDAY) as arxiv:
        url = feeds.put("/toc.xml", body=body)
        watch(database, channel="C1", spec=WatchSpec(kind="feed", target=url))
        watch(database, channel="C1", spec=WatchSpec(kind="arxiv", target="cs.LG"))
        saturday = MONDAY + timedelta(days=5)
        arxiv.set_day(saturday)
        fetcher = fetcher_on(FakeTime())
        bases = arxiv_bases(arxiv)
        at = datetime.combine(saturday, datetime.min.time(), tzinfo=UTC) + timedelta(hours=1)
        asked = [
            sources_read.read_due(
                uow=database, fetcher=fetcher, bases=bases, now=at + timedelta(minutes=10 * n)
            ).asked
            for n in range(6 * 24 - 6)  # every ten minutes until midnight
        ]
        assert sum(asked) == 2  # the feed and the weekend listing, once each
        sunday = at + timedelta(days=1)
        assert (
            sources_read.read_due(uow=database, fetcher=fetcher, bases=bases, now=sunday).asked == 2
        )
        assert [r.status for r in feeds.requests] == [200, 304]  # asked conditionally


def test_a_journal_gives_works_first_deposited_since_its_last_read(database: Database) -> None:
    def work(n: int, *, created: datetime, indexed: datetime) -> CrossrefWork:
        return CrossrefWork(
            doi=f"10.1234/jis.{n}",
            title=f"Journal work {n}",
            authors=("Ada Lovelace",),
            issn="0028-0836",
            published=created.date(),
            indexed=indexed,
            created=created,
        )

    with FakeCrossref() as crossref:
        old = NOON - timedelta(days=60)
        crossref.add(
            work(1, created=NOON - timedelta(days=2), indexed=NOON - timedelta(days=2)),
            work(2, created=old, indexed=NOON - timedelta(hours=1)),  # re-indexed, not news
        )
        watch(database, channel="C1", spec=WatchSpec(kind="crossref", target="0028-0836"))
        bases = SourceBases(crossref=crossref.url)
        fetcher = fetcher_on(FakeTime())
        sources_read.read_due(uow=database, fetcher=fetcher, bases=bases, now=NOON)
        with database(write=False) as store:
            found = store.suggestions(channel=key("C1"), states=("waiting",), limit=10)
        assert [s.candidate.doi for s in found] == ["10.1234/jis.1"]
        asked = crossref.requests[0].path
        assert "from-created-date" in asked and "rows=1000" in asked
