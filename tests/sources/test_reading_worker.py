"""The reading thread (bot/runtime/reading.py): it reads due watches only while its process
leads, tells a channel of a failing source once, and waits a pass without reading while it
does not lead; on a real SQLite archive, against a local feed."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.db.database import Database
from bot.ports.sources import WatchSpec
from bot.runtime.reading import SourcesWorker
from bot.sources.watch_text import SourceBases
from tests.fakesources import FakeFeeds
from tests.services.conftest import key
from tests.services.memory_chat import MemoryChat
from tests.slack.conftest import FakeClock
from tests.sources.faketime import FakeTime, fetcher_on

NOW = datetime(2024, 9, 2, 1, 30, tzinfo=UTC)
WAIT = 10.0
GOOD = (
    '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>'
    "<item><title>A paper from a feed</title><link>https://e.org/1</link></item></channel></rss>"
)


def test_it_reads_only_while_leading_and_tells_a_failure_once(database: Database) -> None:
    chat = MemoryChat()
    leading = [False]
    with FakeFeeds() as feeds:
        good = feeds.put("/good.xml", body=GOOD)
        bad = feeds.put("/bad.xml", body="<html>no feed</html>")
        with database() as store:
            for url in (good, bad):
                spec = WatchSpec(kind="feed", target=url)
                store.add_watch(channel=key("C1"), spec=spec, user="U1", now=NOW)
        worker = SourcesWorker(
            uow=database,
            fetcher=fetcher_on(FakeTime()),
            bases=SourceBases(),
            clock=FakeClock(NOW),
            platforms=lambda: {"slack": chat},
            leading=lambda: leading[0],
            poll=0.01,
        )
        worker.start()
        try:
            assert worker.thread.wait_rounds(count=3, timeout=WAIT)
            assert feeds.requests == []  # another replica leads: nothing read here
            leading[0] = True
            done = worker.thread.rounds
            assert worker.thread.wait_rounds(count=done + 3, timeout=WAIT)
        finally:
            worker.close()
    assert sorted(r.path for r in feeds.requests) == ["/bad.xml", "/good.xml"]  # once a cycle
    with database(write=False) as store:
        found = store.suggestions(channel=key("C1"), states=("waiting",), limit=5)
    assert [s.candidate.title for s in found] == ["A paper from a feed"]
    told = chat.notices["C1"]
    assert len(told) == 1 and "a watched source cannot be read" in told[0]
    assert bad in told[0] and "not an RSS or Atom feed" in told[0]
