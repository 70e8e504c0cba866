"""Fixtures for service tests: a migrated database, the sample list, an in-memory chat."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from bot import ingest
from bot.db.database import Database
from bot.domain import ChannelKey, Schedule, WorkspaceKey
from bot.services import importing
from bot.services.embedding import NO_SEMANTIC, SemanticExtra
from bot.services.posting import Poster
from bot.services.telemetry import Telemetry
from tests.conftest import SAMPLE
from tests.services.memory_chat import MemoryChat

WEEKDAYS = Schedule(post_time=time(9, 0), timezone="Europe/Berlin", weekdays=frozenset(range(1, 6)))


def load_sample(database: Database, *, workspace: WorkspaceKey | None = None) -> int:
    """Import the sample reading list (into the only workspace, or the one given); returns
    how many were added."""
    drafts, _ = ingest.parse(path=str(SAMPLE), text=SAMPLE.read_text(), fmt="auto")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    report = importing.import_drafts(uow=database, drafts=drafts, now=now, workspace=workspace)
    return report.added


def key(channel: str = "C1", *, platform: str = "slack", workspace: str = "T1") -> ChannelKey:
    """The key of a test channel."""
    return ChannelKey(platform=platform, workspace=workspace, channel=channel)


def follow(
    database: Database, channel: str = "C1", schedule: Schedule = WEEKDAYS, private: bool = False
) -> ChannelKey:
    """Make a channel follow the list; its key."""
    followed = key(channel)
    with database() as store:
        store.save_channel(key=followed, schedule=schedule, private=private)
    return followed


@pytest.fixture
def chat() -> MemoryChat:
    """A fresh in-memory chat."""
    return MemoryChat()


def make_poster(
    database: Database,
    chat: MemoryChat,
    owner: str = "host:1:a",
    *,
    semantic_extra: SemanticExtra = NO_SEMANTIC,
) -> Poster:
    """A poster whose other owners are all dead unless said otherwise; no metrics, and the
    semantic extra only when given."""
    return Poster(
        uow=database,
        chat=chat,
        platform="slack",
        owner=owner,
        owner_alive=lambda _o: False,
        telemetry=Telemetry(),
        semantic_extra=semantic_extra,
    )
