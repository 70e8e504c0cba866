"""`/paperclub add` through the real HTTP lookup against local fakes of arXiv and Crossref."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import UTC, date, datetime
from http.server import ThreadingHTTPServer

import pytest

from bot.db.database import Database
from bot.db.schema import ChannelRow, PostRow
from bot.domain import ChannelKey, PaperStatus
from bot.lookup import HttpLookup
from bot.messages import ChannelRef, Link
from bot.ports import LookupFailed
from bot.services.adding import add
from bot.services.embedding import NO_SEMANTIC
from bot.services.reply import Reply
from bot.wording.replies import ADD_USAGE
from tests.lookup.fakes import metadata_server

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def fake() -> Iterator[ThreadingHTTPServer]:
    """The fake arXiv API and Crossref."""
    with metadata_server() as server:
        yield server


def _lookup(server: ThreadingHTTPServer) -> HttpLookup:
    base = server.base  # type: ignore[attr-defined]
    return HttpLookup(arxiv_url=f"{base}/api/query", crossref_url=base, timeout=2)


def _offline() -> HttpLookup:
    """A lookup whose services refuse connections (nothing listens there)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return HttpLookup(
        arxiv_url=f"http://127.0.0.1:{port}/q", crossref_url=f"http://127.0.0.1:{port}", timeout=1
    )


def _reply(database: Database, lookup: HttpLookup, text: str) -> Reply:
    channel = ChannelKey(platform="slack", workspace="T", channel="C1")
    return add(
        uow=database,
        lookup=lookup,
        text=text,
        channel=channel,
        user="U1",
        now=NOW,
        semantic_extra=NO_SEMANTIC,
    )


def _add(database: Database, lookup: HttpLookup, text: str) -> str:
    return _reply(database, lookup, text).text


def test_lookup_reads_both_services(fake: ThreadingHTTPServer) -> None:
    lookup = _lookup(fake)
    paper = lookup.by_arxiv_id(arxiv_id="2104.04473")
    assert paper is not None and paper.title.startswith("Efficient Large-Scale")
    assert paper.authors == ("Deepak Narayanan", "Mohammad Shoeybi")
    assert lookup.by_arxiv_id(arxiv_id="9912.99999") is None
    work = lookup.by_doi(doi="10.1145/3458817.3476209")
    assert work is not None and "tensor" in work.abstract and "<" not in work.abstract
    assert lookup.by_doi(doi="10.1/nothing") is None
    fake.fail = True  # type: ignore[attr-defined]
    with pytest.raises(LookupFailed, match="503"):
        lookup.by_doi(doi="10.1145/3458817.3476209")
    with pytest.raises(LookupFailed, match="arXiv could not be reached: connection refused"):
        _offline().by_arxiv_id(arxiv_id="2104.04473")


def test_add_fetches_metadata_and_knows_it_again(
    database: Database, fake: ThreadingHTTPServer
) -> None:
    lookup = _lookup(fake)
    first = _add(database, lookup, "https://arxiv.org/pdf/2104.04473v2.pdf")
    assert first.startswith("Added “Efficient Large-Scale Language Model Training")
    assert "position 1" in first
    assert "already in the queue, at position 1" in _add(database, lookup, "arXiv:2104.04473")
    doi = _add(database, lookup, "https://doi.org/10.1145/3458817.3476209")
    assert "Added “Efficient large-scale language model training on GPU clusters”" in doi
    assert "position 2" in doi
    titled = _add(database, lookup, "Attention Is All You Need")
    assert "Added “Attention Is All You Need”" in titled and "position 3" in titled
    assert _reply(database, lookup, "   ").message == ADD_USAGE


def test_add_offline_keeps_what_is_known(database: Database) -> None:
    reply = _add(database, _offline(), "2104.04473")
    assert reply.startswith("Added “arXiv:2104.04473”") and "added as typed" in reply
    assert "already in the queue" in _add(database, _offline(), "https://arxiv.org/abs/2104.04473")


def test_add_a_paper_the_group_already_read(database: Database, fake: ThreadingHTTPServer) -> None:
    lookup = _lookup(fake)
    _add(database, lookup, "2104.04473")
    with database() as store:
        channel = ChannelRow(
            platform="slack",
            workspace="T",
            external_id="C1",
            post_time="09:00",
            timezone="UTC",
            weekdays="mon",
            paused=False,
            empty_notice_sent=False,
        )
        store.session.add(channel)
        store.session.flush()
        store.session.add(
            PostRow(
                paper_id=1,
                channel_id=channel.id,
                local_date=date(2026, 2, 2),
                state="posted",
                message_id="1.1",
                permalink="https://x.test/p1",
                created_at=NOW,
            )
        )
        store.set_paper_status(paper_id=1, status=PaperStatus.POSTED)
    reply = _reply(database, lookup, "2104.04473")
    assert "already read" in reply.text and "Mon 2 Feb 2026" in reply.text
    assert "👍 0 · 👎 0 · 💬 0" in reply.text
    shown = [run for block in reply.message.blocks for run in getattr(block, "runs", ())]
    assert ChannelRef(channel="C1") in shown
    assert Link(url="https://x.test/p1", label="Read the thread.") in shown
