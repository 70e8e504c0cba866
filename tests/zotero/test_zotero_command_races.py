"""`watch zotero pause`, `resume`, `test` and `connect` while a sync commits its own columns of the
link (its collection key, cursor, next try) on PostgreSQL: the command waits for the sync's
write and keeps it, never putting back what it read before (a destination lost would make a
second collection in Zotero)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import timedelta

import pytest

from bot.config.settings import Settings
from bot.config.sources import SourcesSettings
from bot.db.database import Database
from bot.messages import as_plain
from bot.ports.zotero import ZoteroLink
from bot.sealing import new_key
from bot.services import zotero_commands
from bot.services.reply import Reply
from bot.zotero.desk import make_desk
from tests.fakezotero import FakeZotero
from tests.lock_waits import waiting_on_locks
from tests.services.conftest import key
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, invocation
from tests.zotero.command_rooms import GOOD, GROUP, READING, fake_zotero

pytestmark = pytest.mark.postgres

ADMIN = "UADMIN"
HERE = key("C1")
SYNCED = MONDAY + timedelta(hours=1)


@dataclass
class Race:
    """The command's archive, the sync's (another engine, as another thread or replica), and
    the desk on the fake Zotero."""

    commands: Database
    sync: Database
    zotero: FakeZotero

    def say(self, *args: str) -> Reply:
        """`/paperclub watch zotero ARGS` typed by an admin."""
        settings = Settings(
            secret_keys=(SECRET,),
            zotero_api=self.zotero.url,
            sources=SourcesSettings(allow_private=True),
        )
        call = invocation(self.commands, MemoryChat(), HERE, user=ADMIN, admins=(ADMIN,))
        call = replace(call, zotero=make_desk(settings=settings))
        return zotero_commands.command(call=call, args=list(args))

    def link(self) -> ZoteroLink:
        with self.commands(write=False) as store:
            found = store.zotero_link(channel=HERE)
        assert found is not None
        return found

    def while_the_sync_writes(self, *args: str, **written: object) -> Reply:
        """The command typed while a sync's unit has written `written` into the link and not
        committed: the command comes to wait on it, then the sync commits."""
        said: list[Reply] = []
        failed: list[BaseException] = []

        def typed() -> None:
            try:
                said.append(self.say(*args))
            except BaseException as error:  # the assertions below say what went wrong
                failed.append(error)

        with self.sync.engine.connect() as watcher:
            with self.sync() as store:
                now = store.zotero_link(channel=HERE)
                assert now is not None
                store.save_zotero_link(link=replace(now, **written))  # type: ignore[arg-type]
                thread = threading.Thread(target=typed)
                thread.start()
                assert waiting_on_locks(watcher=watcher, count=1, threads=[thread]), failed
            thread.join()
        assert failed == [] and len(said) == 1
        return said[0]


SECRET = new_key()
THE_SYNCS = {"destination": "DEST2345", "source_version": 41, "synced_at": SYNCED}


@pytest.fixture
def race(postgres_url: str) -> Iterator[Race]:
    commands, sync = Database(url=postgres_url), Database(url=postgres_url)
    try:
        with fake_zotero() as zotero:
            made = Race(commands=commands, sync=sync, zotero=zotero)
            connected = made.say("connect", f"groups/{GROUP}", GOOD, "from", READING)
            assert "Connected this channel" in as_plain(message=connected.message)
            yield made
    finally:
        commands.dispose()
        sync.dispose()


def _kept_the_syncs(link: ZoteroLink) -> None:
    assert (link.destination, link.source_version, link.synced_at) == (
        "DEST2345",
        41,
        SYNCED,
    )


def test_pause_and_resume_keep_what_a_sync_commits_meanwhile(race: Race) -> None:
    race.while_the_sync_writes("pause", **THE_SYNCS)
    paused = race.link()
    assert paused.paused
    _kept_the_syncs(paused)
    retry = SYNCED + timedelta(minutes=30)
    race.while_the_sync_writes("resume", destination="DEST2345", retry_at=retry, failures=1)
    resumed = race.link()
    assert not resumed.paused and (resumed.retry_at, resumed.failures) == (retry, 1)
    _kept_the_syncs(resumed)


def test_test_clears_the_failing_state_and_keeps_the_syncs_columns(race: Race) -> None:
    with race.commands() as store:
        store.save_zotero_link(
            link=replace(race.link(), failures=3, failing_since=MONDAY, last_error="revoked")
        )
    race.while_the_sync_writes("test", **THE_SYNCS)
    tested = race.link()
    assert (tested.failures, tested.failing_since, tested.last_error) == (0, None, "")
    _kept_the_syncs(tested)


def test_connecting_again_keeps_the_collection_a_sync_just_made(race: Race) -> None:
    said = race.while_the_sync_writes(
        "connect", f"groups/{GROUP}", GOOD, "from", READING, **THE_SYNCS
    )
    assert "Connected again" in as_plain(message=said.message)
    _kept_the_syncs(race.link())
