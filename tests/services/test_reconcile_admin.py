"""/paperclub reconcile: admins ask for a read-back now (the Room passes the ask on), set how
many days it reads, and see when it last ran and what it found; others are refused."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.ports.readback import SeenReaction, ThreadPage
from bot.services import voting
from bot.services.club import Club
from bot.services.embedding import NO_SEMANTIC
from bot.services.reconcile_run import Reconciler
from bot.services.telemetry import Telemetry
from tests.services.conftest import WEEKDAYS, follow, key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.readback_platform import ShownPlatform
from tests.services.support import MONDAY, NoLookup, deliver, plain


class Fixed:
    """The clock at a fixed instant."""

    def now(self) -> datetime:
        """MONDAY, a day on."""
        return MONDAY + timedelta(days=1)


@dataclass
class ReadingChat(MemoryChat):
    """A chat that can lose events and read its posts back (as Slack's and Discord's do)."""

    shown: ShownPlatform = field(default_factory=ShownPlatform)

    def reactions_on(
        self, *, channel: ChannelKey, message_id: str, names: frozenset[str]
    ) -> list[SeenReaction]:
        """What the platform shows."""
        return self.shown.reactions_on(channel=channel, message_id=message_id, names=names)

    def thread_page(
        self, *, channel: ChannelKey, message_id: str, cursor: str | None
    ) -> ThreadPage:
        """What the platform shows."""
        return self.shown.thread_page(channel=channel, message_id=message_id, cursor=cursor)


def club(database: Database, asked: list[str]) -> Club:
    """The club as the wiring builds it, with the ask recorded."""
    return Club(
        uow=database,
        clock=Fixed(),
        lookup=NoLookup(),
        owner="host:1:a",
        owner_alive=lambda _owner: True,
        defaults=WEEKDAYS,
        admins=("UADMIN",),
        up_reactions=voting.UP_REACTIONS,
        down_reactions=voting.DOWN_REACTIONS,
        reschedule=lambda: None,
        queue_redraw=lambda _post: None,
        semantic_extra=NO_SEMANTIC,
        wants_reconcile=asked.append,
        wake_reconcile=lambda: asked.append("woken"),
    )


def test_an_admin_asks_sets_the_window_and_sees_the_last_run(
    database: Database, chat: MemoryChat
) -> None:
    load_sample(database)
    channel = follow(database)
    post, _ = deliver(database, chat, channel)
    asked: list[str] = []
    room = club(database, asked).on(chat=ReadingChat(), platform="slack")
    other = follow(database, "C2")  # another channel of the platform: not asked
    first = plain(room.command(channel=channel, user="UADMIN", text="reconcile").message)
    assert asked == ["woken"]
    with database(write=False) as store:
        wanted = {s.channel: s.wanted_at for s in store.reconcile_status(channels=None)}
    assert wanted[channel] is not None and wanted[other] is None
    assert "not read back yet; reads back the last 7 day(s) of posts" in first
    # A run happens (the runtime's worker would do this), and finds a vote.
    shown = ShownPlatform()
    assert post.message_id is not None
    shown.react(post.message_id, "U2", "+1")
    runs = Reconciler(
        uow=database,
        clock=Fixed(),
        owner="host:1:a",
        owner_alive=lambda _owner: True,
        up=voting.UP_REACTIONS,
        down=voting.DOWN_REACTIONS,
        telemetry=Telemetry(),
        queue_redraw=lambda _post: None,
    )
    [channel_id] = runs.due(platform="slack")  # the admin's channel alone
    assert runs.run(chat=shown, channel_id=channel_id, stopping=lambda: False) == 1
    again = plain(room.command(channel=channel, user="UADMIN", text="reconcile 14").message)
    assert asked == ["woken", "woken"]
    assert "From now on, reconciliation reads back the last 14 day(s)" in again
    assert "last read back 2026-01-06 08:00 UTC: 1 change(s) found" in again


def test_bad_windows_strangers_and_unfollowed_channels(
    database: Database, chat: MemoryChat
) -> None:
    channel = follow(database)
    asked: list[str] = []
    room = club(database, asked).on(chat=ReadingChat(), platform="slack")
    for text in ("reconcile 0", "reconcile 31", "reconcile seven", "reconcile 3 4"):
        said = plain(room.command(channel=channel, user="UADMIN", text=text).message)
        assert said.startswith("Usage: /paperclub reconcile"), said
    stranger = plain(room.command(channel=channel, user="U5", text="reconcile").message)
    assert "admin" in stranger.lower()
    elsewhere = plain(room.command(channel=key("C9"), user="UADMIN", text="reconcile").message)
    assert "does not follow the reading list" in elsewhere
    assert asked == []


def test_a_chat_that_misses_nothing_has_nothing_to_read_back(
    database: Database, chat: MemoryChat
) -> None:
    """The console: the answer says so, and nothing is asked."""
    channel = follow(database)
    asked: list[str] = []
    room = club(database, asked).on(chat=chat, platform="console")
    said = plain(room.command(channel=channel, user="UADMIN", text="reconcile").message)
    assert said.startswith("Nothing to read back here")
    assert asked == []
    with database(write=False) as store:
        [status] = store.reconcile_status(channels=[channel])
    assert status.wanted_at is None
