"""Reconciliation: what a post's reactions and thread show on the platform after the bot was
deaf is brought into the archive once; what the archive heard after the read began, button
votes and deleted comments stay as they are; runs are claimed once, resumed, and counted."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey, PaperCard, Post
from bot.services import comments, reconcile, voting
from bot.services.reconcile import Found
from bot.services.reconcile_run import Reconciler
from bot.services.telemetry import Telemetry
from tests.services.conftest import follow, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.readback_platform import ShownPlatform
from tests.services.support import HOSTILE, MONDAY, deliver, in_thread, thread, vote, votes

UP, DOWN = voting.UP_REACTIONS, voting.DOWN_REACTIONS
NAMES = frozenset({"+1", "thumbsup", "-1", "thumbsdown"})
LATER = MONDAY + timedelta(hours=2)

Posted = tuple[ChannelKey, Post, PaperCard]


@dataclass
class Clock:
    """A clock a test moves."""

    at: datetime

    def now(self) -> datetime:
        """The instant set."""
        return self.at


class Counting(Telemetry):
    """Keeps what reconciliation reports."""

    def __init__(self) -> None:
        self.found: dict[str, int] = {}

    def reconciled(self, *, platform: str, change: str, count: int) -> None:
        """Add it up."""
        self.found[change] = self.found.get(change, 0) + count


@pytest.fixture
def posted(database: Database, chat: MemoryChat) -> Posted:
    """The sample list followed in C1, today's paper posted."""
    load_sample(database)
    channel = follow(database)
    post, card = deliver(database, chat, channel)
    return channel, post, card


def settle(database: Database, post: Post, shown: ShownPlatform, *, at: datetime = LATER) -> Found:
    """Read the post back at `at` and apply it."""
    seen = reconcile.read(
        chat=shown, post=post, names=NAMES, stopping=lambda: False, on_page=lambda: None
    )
    return reconcile.apply(
        uow=database, post=post, seen=seen, read_at=at, up=UP, down=DOWN, telemetry=Telemetry()
    )


def stored_votes(database: Database, post: Post) -> dict[str, tuple[int, str]]:
    """Each person's live vote (value, source)."""
    with database(write=False) as store:
        return {
            v.user: (v.value, v.source) for v in store.votes_on(post_id=post.id) if v.value != 0
        }


def react_live(
    database: Database,
    post: Post,
    *,
    user: str,
    added: bool,
    now: datetime,
    event: str | None,
    present_key: str | None = None,
) -> voting.VoteOutcome:
    """A 👍 (+1) added or taken back, heard live (Slack: an event id; Discord: a presence key)."""
    assert post.message_id is not None
    return voting.react(
        uow=database,
        channel=post.channel,
        message_id=post.message_id,
        user=user,
        reaction="+1",
        added=added,
        event_id=event,
        present_key=present_key,
        now=now,
        telemetry=Telemetry(),
    )


def test_reactions_added_and_removed_while_deaf_are_brought_in(
    database: Database, posted: Posted
) -> None:
    _, post, _ = posted
    assert post.message_id is not None
    shown = ShownPlatform()
    # U1 reacted 👍 live; U1 took it back and U2, U3 reacted while the bot was down.
    react_live(database, post, user="U1", added=True, now=MONDAY, event="ev1")
    shown.react(post.message_id, "U2", "+1::skin-tone-3")
    shown.react(post.message_id, "U3", "-1")
    shown.react(post.message_id, "U4", "tada")  # votes nothing
    found = settle(database, post, shown)
    assert found == Found(votes=3)
    assert stored_votes(database, post) == {"U2": (1, "reaction:+1"), "U3": (-1, "reaction:-1")}
    assert votes(database, post) == (1, 1)
    # Read again: nothing more to change.
    assert settle(database, post, shown, at=LATER + timedelta(minutes=1)) == Found()


def test_button_votes_stay_and_one_vote_per_person_holds(
    database: Database, posted: Posted
) -> None:
    _, post, _ = posted
    assert post.message_id is not None
    vote(database, post, user="U1", value=-1)
    shown = ShownPlatform()
    shown.react(post.message_id, "U1", "+1")  # a button vote is acknowledged: it stays
    shown.react(post.message_id, "U2", "+1")
    shown.react(post.message_id, "U2", "-1")  # both: the first listed counts, once
    assert settle(database, post, shown) == Found(votes=1)
    assert stored_votes(database, post) == {"U1": (-1, "button"), "U2": (1, "reaction:+1")}
    assert votes(database, post) == (1, 1)


def test_what_the_archive_heard_after_the_read_began_wins(
    database: Database, posted: Posted
) -> None:
    _, post, _ = posted
    assert post.message_id is not None
    shown = ShownPlatform()
    shown.react(post.message_id, "U2", "+1")
    shown.reply(post.message_id, "r1", "old text", at=MONDAY)
    read = reconcile.read(
        chat=shown, post=post, names=NAMES, stopping=lambda: False, on_page=lambda: None
    )
    # Between the read and its apply, U2 takes the reaction back and a reply is kept live.
    react_live(
        database, post, user="U2", added=True, now=LATER + timedelta(seconds=1), event="ev-add"
    )
    react_live(
        database, post, user="U2", added=False, now=LATER + timedelta(seconds=2), event="ev-remove"
    )
    comments.reply(
        uow=database,
        message=_at(in_thread(post, message_id="r2", event="ev-r2"), LATER + timedelta(seconds=3)),
        text="said live",
        telemetry=Telemetry(),
    )
    found = reconcile.apply(
        uow=database,
        post=post,
        seen=read,
        read_at=LATER,
        up=UP,
        down=DOWN,
        telemetry=Telemetry(),
    )
    assert found == Found(added=1)  # r1; the withdrawn vote is not brought back, r2 stays
    assert stored_votes(database, post) == {}
    assert sorted(thread(database, posted[2], post.channel)) == ["old text", "said live"]


def _at(message: comments.ThreadMessage, now: datetime) -> comments.ThreadMessage:
    """The same thread message, stamped `now`."""
    return replace(message, now=now)


def test_thread_replies_edits_and_deletes_while_deaf(database: Database, posted: Posted) -> None:
    channel, post, card = posted
    assert post.message_id is not None
    for index, (message_id, text) in enumerate((("r1", "kept live"), ("r2", "deleted later"))):
        comments.reply(
            uow=database,
            message=_at(in_thread(post, message_id=message_id, event=f"e{index}"), MONDAY),
            text=text,
            telemetry=Telemetry(),
        )
    comments.delete(
        uow=database,
        message=_at(in_thread(post, message_id="r9", event="e9"), MONDAY),
        telemetry=Telemetry(),
    )
    shown = ShownPlatform(page_size=2)
    shown.reply(post.message_id, "r1", "kept live, then edited", at=MONDAY, edited=MONDAY)
    # r2 deleted while deaf; r9 was deleted before its message arrived: it never comes back.
    shown.reply(post.message_id, "r9", "a ghost", at=MONDAY)
    for index, text in enumerate(HOSTILE):
        shown.reply(post.message_id, f"n{index}", text, at=MONDAY + timedelta(minutes=index))
    counting = Counting()
    seen = reconcile.read(
        chat=shown, post=post, names=NAMES, stopping=lambda: False, on_page=lambda: None
    )
    found = reconcile.apply(
        uow=database, post=post, seen=seen, read_at=LATER, up=UP, down=DOWN, telemetry=counting
    )
    assert found == Found(added=len(HOSTILE), edited=1, deleted=1)
    assert counting.found == {"new": len(HOSTILE), "edit": 1, "delete": 1}
    assert sorted(thread(database, card, channel)) == sorted(["kept live, then edited", *HOSTILE])
    assert settle(database, post, shown, at=LATER + timedelta(minutes=1)) == Found()
    with database.engine.connect() as connection:
        origins = dict(connection.exec_driver_sql("SELECT message_id, origin FROM comments").all())
    # What the read-back changed says so; what was heard live and left alone says live.
    assert origins == {
        "r1": "reconciled",
        "r2": "reconciled",
        "r9": "live",
        "n0": "reconciled",
        "n1": "reconciled",
        "n2": "reconciled",
    }


def test_a_reaction_cleared_by_a_read_can_be_added_again_live(
    database: Database, posted: Posted
) -> None:
    """Discord keys its reactions by presence: a read that finds one gone forgets it."""
    _, post, _ = posted
    assert post.message_id is not None

    def discord_react(added: bool, now: datetime) -> None:
        key = f"reaction:{post.message_id}:U2:👍"
        react_live(database, post, user="U2", added=added, now=now, event=None, present_key=key)

    discord_react(True, MONDAY)
    assert settle(database, post, ShownPlatform()) == Found(votes=1)  # removed while deaf
    discord_react(True, LATER + timedelta(minutes=5))
    assert stored_votes(database, post) == {"U2": (1, "reaction:+1")}


def reconciler(database: Database, clock: Clock, owner: str, redraws: list[int]) -> Reconciler:
    """A run's inputs: every other owner counts as alive."""
    return Reconciler(
        uow=database,
        clock=clock,
        owner=owner,
        owner_alive=lambda _owner: True,
        up=UP,
        down=DOWN,
        telemetry=Telemetry(),
        queue_redraw=redraws.append,
    )


def three_days(database: Database, chat: MemoryChat) -> list[Post]:
    """Posts on three days in C1, oldest first."""
    load_sample(database)
    channel = follow(database)
    return [deliver(database, chat, channel, now=MONDAY + timedelta(days=d))[0] for d in range(3)]


def test_a_run_reads_each_post_once_newest_first_and_redraws_once(
    database: Database, chat: MemoryChat
) -> None:
    posts = three_days(database, chat)
    clock, redraws = Clock(MONDAY + timedelta(days=3)), []
    shown = ShownPlatform()
    for post in posts:
        assert post.message_id is not None
        shown.react(post.message_id, "U2", "+1")
        shown.react(post.message_id, "U3", "+1")
    first = reconciler(database, clock, "host:1:a", redraws)
    second = reconciler(database, clock, "host:2:b", redraws)
    assert first.want(platform="slack", since=clock.at) == 1
    # Another replica starting at the same moment asks too: the run covers both.
    assert second.want(platform="slack", since=clock.at - timedelta(seconds=1)) == 1
    [channel_id] = first.due(platform="slack")
    clock.at += timedelta(seconds=1)
    assert first.run(chat=shown, channel_id=channel_id, stopping=lambda: False) == 6
    assert second.due(platform="slack") == []
    assert second.run(chat=shown, channel_id=channel_id, stopping=lambda: False) is None
    reads = [a.split()[1] for a in shown.asked if a.startswith("reactions")]
    assert reads == [p.message_id for p in reversed(posts)]
    assert redraws == [p.id for p in reversed(posts)]
    with database(write=False) as store:
        [status] = store.reconcile_status(channels=None)
    assert (status.changes, status.failures, status.running) == (6, 0, False)
    assert status.finished_at == clock.at


def test_a_stopped_run_goes_on_where_it_stopped(database: Database, chat: MemoryChat) -> None:
    posts = three_days(database, chat)
    clock, redraws = Clock(MONDAY + timedelta(days=3)), []
    shown = ShownPlatform()
    first = reconciler(database, clock, "host:1:a", redraws)
    first.want(platform="slack", since=clock.at)
    [channel_id] = first.due(platform="slack")
    stop = {"now": False}

    def stop_after_first_post() -> None:
        if sum(a.startswith("thread") for a in shown.asked) >= 1:
            stop["now"] = True

    shown.before_page = stop_after_first_post
    clock.at += timedelta(seconds=1)
    assert first.run(chat=shown, channel_id=channel_id, stopping=lambda: stop["now"]) is None
    # The process died holding the claim: a new one takes it over once it is stale.
    fresh = reconciler(database, clock, "host:3:c", redraws)
    assert fresh.due(platform="slack") == [channel_id]
    assert fresh.run(chat=shown, channel_id=channel_id, stopping=lambda: False) is None
    clock.at += timedelta(minutes=6)
    shown.before_page = lambda: None
    assert fresh.run(chat=shown, channel_id=channel_id, stopping=lambda: False) == 0
    reads = [a.split()[1] for a in shown.asked if a.startswith("reactions")]
    assert reads == [p.message_id for p in reversed(posts)]  # none read twice


def test_a_post_that_cannot_be_read_is_counted_and_the_rest_go_on(
    database: Database, chat: MemoryChat
) -> None:
    posts = three_days(database, chat)
    clock = Clock(MONDAY + timedelta(days=3))
    shown = ShownPlatform()
    assert posts[1].message_id is not None and posts[0].message_id is not None
    shown.failing.add(posts[1].message_id)
    shown.react(posts[0].message_id, "U2", "-1")
    run = reconciler(database, clock, "host:1:a", [])
    run.want(platform="slack", since=clock.at)
    [channel_id] = run.due(platform="slack")
    assert run.run(chat=shown, channel_id=channel_id, stopping=lambda: False) == 1
    with database(write=False) as store:
        [status] = store.reconcile_status(channels=None)
    assert (status.changes, status.failures) == (1, 1)


def test_the_window_leaves_older_posts_alone(database: Database, chat: MemoryChat) -> None:
    posts = three_days(database, chat)
    clock = Clock(MONDAY + timedelta(days=2, hours=12))
    shown = ShownPlatform()
    run = reconciler(database, clock, "host:1:a", [])
    with database() as store:
        store.set_reconcile_window(channel=posts[0].channel, days=1)
    run.want(platform="slack", since=clock.at)
    [channel_id] = run.due(platform="slack")
    run.run(chat=shown, channel_id=channel_id, stopping=lambda: False)
    reads = [a.split()[1] for a in shown.asked if a.startswith("reactions")]
    assert reads == [posts[2].message_id]


def test_a_vote_withdrawn_by_button_stays_withdrawn_whatever_reaction_is_shown(
    database: Database, posted: Posted
) -> None:
    _, post, _ = posted
    assert post.message_id is not None
    shown = ShownPlatform()
    shown.react(post.message_id, "U1", "+1")  # reacted 👍, then clicked 👍: withdrawn
    react_live(database, post, user="U1", added=True, now=MONDAY, event="ev1")
    vote(database, post, user="U1", value=1, event="c1")  # the same vote again withdraws it
    assert stored_votes(database, post) == {}
    assert settle(database, post, shown) == Found()
    assert stored_votes(database, post) == {}


def test_a_presence_the_read_back_left_behind_does_not_swallow_a_live_add(
    database: Database, posted: Posted
) -> None:
    """Discord: 👍 live, then the 👎 button; 👍 taken back while unheard (the button's vote
    stands, so the read-back changes nothing); 👍 added again live counts."""
    _, post, _ = posted
    assert post.message_id is not None
    key = f"reaction:{post.message_id}:U2:👍"

    def discord_react(added: bool, now: datetime) -> voting.VoteOutcome:
        return react_live(
            database, post, user="U2", added=added, now=now, event=None, present_key=key
        )

    discord_react(True, MONDAY)
    vote(database, post, user="U2", value=-1, event="c1", now=MONDAY + timedelta(minutes=1))
    assert settle(database, post, ShownPlatform()) == Found()
    assert stored_votes(database, post) == {"U2": (-1, "button")}
    assert discord_react(True, LATER + timedelta(minutes=5)).changed
    assert stored_votes(database, post) == {"U2": (1, "reaction:+1")}
    # The same add delivered again (a resumed session's replay) changes nothing.
    assert not discord_react(True, LATER + timedelta(minutes=6)).changed
