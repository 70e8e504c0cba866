"""What the Discord reconciliation scenarios share: the real wiring on a real SQLite file with
its reconciliation worker running (as `Wiring.start` runs it), stopped and started again on the
same file; what the fake Discord shows of a post (its voting reactions, its thread); what the
archive holds of it (raw rows, the export); and waits on a finished read-back."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.config.settings import Settings
from bot.db.database import Database
from bot.discord.plugin import DiscordPlatform
from bot.domain import WorkspaceKey
from bot.runtime.wiring import Wiring
from bot.services import listing, reconcile_admin
from tests.discord.conftest import WAIT, DiscordHarness, QuickPlugin
from tests.fakediscord import FakeDiscord
from tests.faults.support import wait_until

UP, DOWN = "👍", "👎"


class ShiftedClock:
    """The real time moved by `offset` (the test sets it to post on past days): a read-back
    compares the archive's times with its own and Discord's snowflake times, so time runs."""

    def __init__(self) -> None:
        """No shift yet."""
        self.offset = timedelta(0)

    def now(self) -> datetime:
        """The shifted instant."""
        return datetime.now(UTC) + self.offset


@contextmanager
def bot(
    *, fake: FakeDiscord, settings: Settings, database: Database, clock: ShiftedClock
) -> Iterator[DiscordHarness]:
    """The bot connected to the fake with reconciliation running; a clean stop on exit."""
    wiring = Wiring(settings=settings, database=database, clock=clock, plugins=[QuickPlugin()])
    platform = wiring.platforms["discord"]
    assert isinstance(platform, DiscordPlatform)
    try:
        platform.connect()
        assert platform.client.ready.wait(WAIT), "the bot never got ready"
        wiring.workers.reconciling.start()  # as Wiring.start does: a start follows downtime
        yield DiscordHarness(
            wiring=wiring,
            platform=platform,
            fake=fake,
            clock=clock,  # type: ignore[arg-type]  # any Clock will do
            database=database,
        )
    finally:
        wiring.close()


def reconciled(harness: DiscordHarness, *, after: datetime, timeout: float = WAIT) -> int:
    """Wait until a read-back of #general that began at or after `after` has finished and
    nothing more is due; the changes that run found."""

    def done() -> bool:
        [status] = reconcile_admin.statuses(uow=harness.database, channels=[harness.key])
        finished = status.finished_at
        return (
            finished is not None
            and status.started_at is not None
            and status.started_at >= after
            and finished >= status.started_at
            and not status.running
            and not harness.wiring.workers.reconciling.reconciler.due(platform="discord")
        )

    # The archive is polled: a finished run changes nothing the fake would wake a wait on.
    wait_until(done, timeout=timeout, what="the read-back", interval=0.02)
    [status] = reconcile_admin.statuses(uow=harness.database, channels=[harness.key])
    return status.changes


# -- what Discord shows ------------------------------------------------------------------------


def shown_votes(fake: FakeDiscord, *, post: str, buttons: dict[str, int]) -> dict[str, int]:
    """Each person's vote as the platform shows it: their 👍 or 👎 (never both in these
    tests), or the button they clicked when they did not react."""
    reactions = fake.people.reactions(post)
    votes = dict(buttons)
    for emoji, value in ((UP, 1), (DOWN, -1)):
        for user in reactions.get(emoji, []):
            if user != fake.bot_id:
                votes[user] = value
    return votes


def shown_replies(fake: FakeDiscord, *, post: str) -> dict[str, tuple[str, str]]:
    """The post's thread as the platform shows it: message id -> (author, text), people only."""
    return {
        m["id"]: (m["author"]["id"], m["content"])
        for m in fake.messages(post)
        if not m["author"].get("bot") and m["id"] != post
    }


def labels(fake: FakeDiscord, *, post: str) -> list[str]:
    """The vote buttons' labels as Discord shows them now."""
    shown = fake.message(post)
    return [c["label"] for row in shown["components"] for c in row["components"]]


def counted(votes: dict[str, int]) -> list[str]:
    """The labels those votes should draw."""
    ups = sum(1 for v in votes.values() if v > 0)
    downs = sum(1 for v in votes.values() if v < 0)
    return [f"{UP} {ups}", f"{DOWN} {downs}"]


def redraws(fake: FakeDiscord, *, post: str) -> int:
    """How many times the bot edited the post so far."""
    return len(fake.requests("PATCH", f"/channels/{fake.channel_id}/messages/{post}"))


# -- what the archive holds --------------------------------------------------------------------


@dataclass(frozen=True)
class Archived:
    """A post's rows: every vote (user -> value, origin), every comment (id -> row)."""

    votes: dict[str, tuple[int, str]]
    vote_rows: int
    comments: dict[str, tuple[str, str, bool, str]]  # author, text, deleted, origin
    comment_rows: int

    def live_votes(self) -> dict[str, int]:
        """user -> value of the votes not withdrawn."""
        return {user: value for user, (value, _) in self.votes.items() if value}

    def live_comments(self) -> dict[str, tuple[str, str]]:
        """id -> (author, text) of the comments not deleted."""
        return {
            key: (user, text)
            for key, (user, text, deleted, _) in self.comments.items()
            if not deleted
        }


def archived(path: str, *, post: str) -> Archived:
    """Read the file as it is now (the bot may be writing): the post's votes and comments."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)) as conn:
        [(post_id,)] = conn.execute("SELECT id FROM posts WHERE message_id = ?", (post,))
        votes = conn.execute(
            "SELECT user_id, value, origin FROM votes WHERE post_id = ?", (post_id,)
        ).fetchall()
        comments = conn.execute(
            "SELECT message_id, user_id, text, deleted, origin FROM comments WHERE post_id = ?",
            (post_id,),
        ).fetchall()
    return Archived(
        votes={str(u): (int(v), str(o)) for u, v, o in votes},
        vote_rows=len(votes),
        comments={str(m): (str(u), str(t), bool(d), str(o)) for m, u, t, d, o in comments},
        comment_rows=len(comments),
    )


def exported(database: Database, *, fake: FakeDiscord, post: str) -> dict[str, Any]:
    """The post as the export (`listing.records`) carries it: its counts and comments."""
    workspace = WorkspaceKey(platform="discord", id=fake.guild_id)
    for record in listing.records(uow=database, workspace=workspace):
        for view in record.posts:
            if view.message_id == post:
                return {
                    "up": view.votes.up,
                    "down": view.votes.down,
                    "comments": sorted((c.user, c.text) for c in view.comments),
                }
    raise AssertionError(f"post {post} is not in the export")
