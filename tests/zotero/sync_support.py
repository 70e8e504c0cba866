"""What the sync tests share: a real SQLite archive, the fake Zotero with one key, a sealed
link between them, a month of posts with votes and a thread, and looks at both sides.

Every pass runs at a fixed instant the test gives; the client's waits are recorded, never
slept (tests/zotero/conftest.Waits)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from cryptography.fernet import Fernet

from bot.db.database import Database
from bot.domain import ChannelKey, PaperDraft, Post
from bot.ports.names import CHANNEL, PERSON
from bot.ports.zotero import SourceInto, ZoteroCopy, ZoteroLink
from bot.sealing import TokenCipher
from bot.services import comments
from bot.services.adding import queue_draft
from bot.services.telemetry import Telemetry
from bot.zotero import ZoteroSession
from bot.zotero.sync import SyncRound, sync_due
from tests.fakezotero import FakeZotero, Library
from tests.services.conftest import follow, key
from tests.services.memory_chat import MemoryChat
from tests.services.support import deliver, in_thread, vote
from tests.zotero.conftest import KEY, USER, Waits

C1 = key("C1")
# Monday 2 Feb 2026, 12:00 UTC: after the month of January's posts.
NOW = datetime(2026, 2, 2, 12, 0, tzinfo=UTC)
JANUARY = [datetime(2026, 1, d, 8, 0, tzinfo=UTC) for d in range(5, 31)]
WEEKDAYS_OF_JANUARY = [d for d in JANUARY if d.weekday() < 5]  # 5 to 30 January: 20 posts
NEW_YEAR = datetime(2026, 1, 1, tzinfo=UTC)  # when the papers were queued


@dataclass
class World:
    """The archive, the fake, the client's waits, the cipher, and the chat posts go to."""

    database: Database
    fake: FakeZotero
    waits: Waits
    cipher: TokenCipher
    chat: MemoryChat
    attempts: int = 4  # tries per request of the next sessions (1: a lost answer is not replayed)

    def session_for(self, api_key: str) -> ZoteroSession:
        """A session to the fake with this key, on the recorded waits."""
        return ZoteroSession(
            api_key=api_key,
            base=self.fake.url,
            allow_private=True,
            attempts=self.attempts,
            clock=self.waits.clock,
            sleep=self.waits.sleep,
        )

    def sync(self, *, now: datetime = NOW) -> SyncRound:
        """One sync pass at `now`."""
        return sync_due(
            uow=self.database, cipher=self.cipher, session_for=self.session_for, now=now
        )

    def connect(
        self,
        *,
        channel: ChannelKey = C1,
        source: str | None = None,
        into: SourceInto = "tray",
        key: str = KEY,
    ) -> ZoteroLink:
        """Link `channel` to USER's library as the commands would (key sealed)."""
        sealed = self.cipher.seal(value=key)
        assert sealed is not None
        link = ZoteroLink(
            channel=channel,
            library_kind="users",
            library_id=USER,
            sealed_key=sealed,
            connected_by="UADMIN",
            connected_at=NOW - timedelta(days=40),
            source=source,
            source_name="Reading" if source else "",
            into=into,
        )
        with self.database() as store:
            store.save_zotero_link(link=link)
        return link

    def link(self, *, channel: ChannelKey = C1) -> ZoteroLink:
        """The channel's link as stored."""
        with self.database(write=False) as store:
            found = store.zotero_link(channel=channel)
        assert found is not None
        return found

    def change_link(self, *, channel: ChannelKey = C1, **changes: Any) -> None:
        """Change the stored link as an admin's command would."""
        with self.database() as store:
            store.save_zotero_link(link=replace(self.link(channel=channel), **changes))

    def copies(self, *, posts: list[Post], channel: ChannelKey = C1) -> dict[int, ZoteroCopy]:
        """The copies of these posts in USER's library."""
        with self.database(write=False) as store:
            return store.zotero_copies(
                channel=channel, library=f"users/{USER}", post_ids=[p.id for p in posts]
            )

    @property
    def library(self) -> Library:
        """USER's library in the fake."""
        return self.fake.library(kind="users", id=USER)

    def items(self) -> list[dict[str, Any]]:
        """The library's items that are not notes."""
        return [d for d in self.library.live(kind="items") if d["itemType"] != "note"]

    def notes(self) -> list[dict[str, Any]]:
        """The library's notes."""
        return [d for d in self.library.live(kind="items") if d["itemType"] == "note"]

    def writes(self) -> list[str]:
        """Every write request so far, as "METHOD /path" (status 0: its answer was dropped)."""
        return [
            f"{r.method} {r.path.split('?')[0]}"
            for r in self.fake.requests
            if r.method in ("POST", "PATCH", "PUT", "DELETE")
        ]


@contextmanager
def opened_world(*, database: Database) -> Iterator[World]:
    """A running fake with KEY for USER, over `database`."""
    with FakeZotero() as fake:
        fake.add_key(key=KEY, user_id=USER)
        cipher = TokenCipher(keys=[Fernet.generate_key().decode("ascii")])
        yield World(database=database, fake=fake, waits=Waits(), cipher=cipher, chat=MemoryChat())


def queue(world: World, *titles: str, channel: ChannelKey = C1) -> None:
    """Queue papers of these titles in the channel (its own queue: it follows the list)."""
    with world.database() as store:
        for n, title in enumerate(titles):
            draft = PaperDraft(title=title, abstract=f"Abstract {n}.", origin="test")
            assert queue_draft(store=store, draft=draft, channel=channel, user="U8", now=NEW_YEAR)


def name_things(world: World, *, channel: ChannelKey = C1, name: str = "general") -> None:
    """The names the platform gave: the channel's, and two people's."""
    with world.database() as store:
        workspace = channel.workspace_key
        store.record_names(
            workspace=workspace, kind=CHANNEL, names={channel.channel: name}, now=NOW
        )
        people = {"U1": "Ada", "U2": "Grace"}
        store.record_names(workspace=workspace, kind=PERSON, names=people, now=NOW)


def say(world: World, post: Post, *, n: int, text: str, user: str = "U1") -> None:
    """A reply in the post's thread (message id and event from `n`)."""
    message = in_thread(
        post, user=user, message_id=f"9{post.id:04d}.{n:06d}", event=f"say-{post.id}-{n}"
    )
    assert comments.reply(uow=world.database, message=message, text=text, telemetry=Telemetry())


def edit(world: World, post: Post, *, n: int, text: str, user: str = "U1") -> None:
    """The reply `n` edited."""
    message = in_thread(
        post, user=user, message_id=f"9{post.id:04d}.{n:06d}", event=f"edit-{post.id}-{n}"
    )
    assert comments.edit(uow=world.database, message=message, text=text, telemetry=Telemetry())


def unsay(world: World, post: Post, *, n: int, user: str = "U1") -> None:
    """The reply `n` deleted."""
    message = in_thread(
        post, user=user, message_id=f"9{post.id:04d}.{n:06d}", event=f"del-{post.id}-{n}"
    )
    assert comments.delete(uow=world.database, message=message, telemetry=Telemetry())


def month_of_posts(world: World, *, channel: ChannelKey = C1) -> list[Post]:
    """January's weekdays posted in the channel, each with a 👍 from U1 and a 👎 from U2 on
    every third, and a comment from each on every other."""
    follow(world.database, channel.channel)
    queue(world, *(f"Paper {n:02d} on sparse attention" for n in range(len(WEEKDAYS_OF_JANUARY))))
    posts: list[Post] = []
    for n, day in enumerate(WEEKDAYS_OF_JANUARY):
        post, _card = deliver(world.database, world.chat, channel, now=day)
        vote(world.database, post, user="U1", value=1, event=f"up-{n}", now=day)
        if n % 3 == 0:
            vote(world.database, post, user="U2", value=-1, event=f"down-{n}", now=day)
        if n % 2 == 0:
            say(world, post, n=1, text=f"Ada on paper {n}", user="U1")
            say(world, post, n=2, text=f"Grace on paper {n}", user="U2")
        posts.append(post)
    return posts


def tags_of(item: dict[str, Any]) -> list[str]:
    """An item's tags as text."""
    return [t["tag"] for t in item.get("tags", [])]
