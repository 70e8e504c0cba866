"""The Discord gateway misbehaving in the middle of a burst of clicks, reactions and thread
comments: connections dropped (closed, or the TCP link cut) and resumed, op 7 RECONNECT, and
events delivered twice (the same MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE, reaction or
INTERACTION_CREATE again). The stored votes and comments equal the ones computed independently
from the members' actions: nothing lost, nothing counted twice.

The real wiring with the Discord plug-in runs in-process against FakeDiscord, which keeps every
event dispatched while the client is away and replays it on RESUME. The bot handles events
concurrently (a task each, core calls on worker threads), so the order of two events about one
vote or one comment is not the order they were sent: the burst comes in batches whose actions
touch distinct votes and comments, and the bot settles between batches."""

from __future__ import annotations

import random
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.discord.embeds import vote_custom_id
from bot.services import posting
from tests.discord.conftest import DiscordHarness, no_thread_leaks
from tests.fakediscord import FakeDiscord
from tests.faults.discord_support import (
    Trap,
    discord_bot,
    discord_key,
    last_frame,
    redeliver,
    settle,
    trapped,
)
from tests.faults.support import fast_folder, read_only, scaled, seed_for

__all__ = ["no_thread_leaks"]  # the Discord suite's autouse check: every thread ends

UPS = ("👍", "👍🏽", "👍🏿")
DOWNS = ("👎", "👎🏻")
OTHERS = ("🎉", "👀")
TONES = "\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff"
DUPLICATED = 0.25
CALLBACK = "/interactions/{id}/{token}/callback"
VoteKey = tuple[int, str]


@dataclass(frozen=True)
class Target:
    """A daily post: where it is, and its two buttons."""

    post_id: int
    channel_id: str
    message_id: str  # its thread has the same id

    def button(self, *, up: bool) -> str:
        """The custom id of 👍 or 👎."""
        return vote_custom_id(post_id=self.post_id, up=up)


@dataclass
class Expected:
    """What the members' actions add up to, by the rules the bot promises (not its code)."""

    votes: dict[VoteKey, tuple[int, str]] = field(default_factory=dict)
    # message id -> [post id, user, text, deleted]
    comments: dict[str, list[Any]] = field(default_factory=dict)

    def click(self, post: int, user: str, value: int) -> None:
        """The other button changes the vote, the same one again withdraws it."""
        if self.votes.get((post, user), (0, ""))[0] == value:
            del self.votes[(post, user)]
        else:
            self.votes[(post, user)] = (value, "button")

    def react(self, post: int, user: str, emoji: str, added: bool) -> None:
        """👍/👎 in any skin tone sets the vote; removing the one that set it withdraws it."""
        base = emoji.strip(TONES)
        value = 1 if base == "👍" else -1 if base == "👎" else 0
        if not value:
            return
        source = f"reaction:{base}"
        if added:
            self.votes[(post, user)] = (value, source)
        elif self.votes.get((post, user), (0, ""))[1] == source:
            del self.votes[(post, user)]

    def reply(self, post: int, message_id: str, user: str, text: str) -> None:
        """A new comment."""
        self.comments[message_id] = [post, user, text, False]

    def edit(self, message_id: str, text: str) -> None:
        """The comment takes the new text."""
        self.comments[message_id][2] = text

    def delete(self, message_id: str) -> None:
        """Gone from search and export."""
        self.comments[message_id][3] = True


@dataclass
class Sent:
    """An event sent for an action, kept to deliver it again."""

    frame: dict[str, Any]
    vote: VoteKey | None  # the vote it is about (reactions and clicks)


class Burst:
    """Members acting on the daily posts through the fake; each action's effect goes into
    `expected` as it is sent."""

    def __init__(
        self, harness: DiscordHarness, rng: random.Random, targets: list[Target], users: list[str]
    ) -> None:
        """A burst over these posts by these members."""
        self.h, self.fake, self.rng = harness, harness.fake, rng
        self.targets, self.users = targets, users
        self.expected = Expected()
        self.kinds: Counter[str] = Counter()
        self.sent: list[Sent] = []
        self.latest: dict[VoteKey, int] = {}  # vote -> index in `sent` of its latest action
        self.present: dict[tuple[str, str], set[str]] = {}  # (message, user) -> reactions
        self.live: dict[str, tuple[Target, str]] = {}  # comment id -> (post, text)
        self.clicks: list[str] = []  # interaction ids: each must get its callback
        self.twice: list[tuple[str, str]] = []  # (id, token) of interactions delivered again
        self._n = 0

    # -- a batch ---------------------------------------------------------------------------

    def batch(self, size: int, *, between: Callable[[], None] | None = None) -> None:
        """`size` actions touching distinct votes and comments (about a quarter of them
        deliveries again of earlier events); `between` runs halfway (a drop, a reconnect)."""
        busy: set[object] = set()
        for step in range(size):
            if between is not None and step == size // 2:
                between()
            if self.sent and self.rng.random() < DUPLICATED:
                self._again(busy)
            else:
                self._fresh(busy)

    def _fresh(self, busy: set[object]) -> None:
        """A new action: a click, a reaction, a reply, or an edit or deletion of one."""
        roll = self.rng.random()
        if roll < 0.35:
            self._vote(busy, self._click)
        elif roll < 0.62:
            self._vote(busy, self._reaction)
        elif roll < 0.85 or not self.live:
            self._reply(busy)
        else:
            self._change(busy)

    def _vote(self, busy: set[object], act: Callable[[Target, str], None]) -> None:
        """Act on a vote no other action of this batch touches."""
        for _ in range(10):
            target, user = self.rng.choice(self.targets), self.rng.choice(self.users)
            if (target.post_id, user) not in busy:
                busy.add((target.post_id, user))
                act(target, user)
                return

    def _keep(self, frame: dict[str, Any], vote: VoteKey | None, kind: str) -> None:
        """Remember an action's event, to deliver it again later."""
        self.kinds[kind] += 1
        if vote is not None:
            self.latest[vote] = len(self.sent)
        self.sent.append(Sent(frame=frame, vote=vote))

    def _click(self, target: Target, user: str) -> None:
        """👍 or 👎 by button."""
        up = self.rng.random() < 0.6
        record = self.fake.click(target.message_id, target.button(up=up), user=user)
        self.clicks.append(record.id)
        self.expected.click(target.post_id, user, 1 if up else -1)
        frame = last_frame(self.fake, "INTERACTION_CREATE", lambda d: d["id"] == record.id)
        self._keep(frame, (target.post_id, user), "click")

    def _reaction(self, target: Target, user: str) -> None:
        """Add a reaction the member does not have yet, or take one back."""
        have = self.present.setdefault((target.message_id, user), set())
        addable = [e for e in (*UPS, *DOWNS, *OTHERS) if e not in have]
        added = not have or (bool(addable) and self.rng.random() < 0.6)
        emoji = self.rng.choice(addable) if added else self.rng.choice(sorted(have))
        if added:
            have.add(emoji)
            self.fake.react(target.message_id, emoji, user=user)
        else:
            have.discard(emoji)
            self.fake.unreact(target.message_id, emoji, user=user)
        self.expected.react(target.post_id, user, emoji, added)
        event = "MESSAGE_REACTION_ADD" if added else "MESSAGE_REACTION_REMOVE"
        frame = last_frame(
            self.fake,
            event,
            lambda d: d["user_id"] == user and d["message_id"] == target.message_id,
        )
        self._keep(frame, (target.post_id, user), "reaction " + ("added" if added else "removed"))

    def _reply(self, busy: set[object]) -> None:
        """A comment in a post's thread."""
        target, user = self.rng.choice(self.targets), self.rng.choice(self.users)
        self._n += 1
        text = f"comment {self._n} on post {target.post_id}"
        said = self.fake.user_says(text=text, thread=target.message_id, user=user)
        busy.add(said["id"])
        self.live[said["id"]] = (target, text)
        self.expected.reply(target.post_id, said["id"], user, text)
        frame = last_frame(self.fake, "MESSAGE_CREATE", lambda d: d["id"] == said["id"])
        self._keep(frame, None, "reply")

    def _change(self, busy: set[object]) -> None:
        """Edit or delete a comment no other action of this batch touches."""
        free = [m for m in sorted(self.live) if m not in busy]
        if not free:
            return
        message_id = self.rng.choice(free)
        busy.add(message_id)
        target, text = self.live[message_id]
        self._n += 1
        if self.rng.random() < 0.7:
            new = f"{text} (edit {self._n})"
            self.fake.user_edits(message_id, new)
            self.live[message_id] = (target, new)
            self.expected.edit(message_id, new)
            frame = last_frame(
                self.fake,
                "MESSAGE_UPDATE",
                lambda d: d["id"] == message_id and d.get("content") == new,
            )
            self._keep(frame, None, "edit")
        else:
            self.fake.user_deletes(message_id)
            del self.live[message_id]
            self.expected.delete(message_id)
            frame = last_frame(self.fake, "MESSAGE_DELETE", lambda d: d["id"] == message_id)
            self._keep(frame, None, "delete")

    def _again(self, busy: set[object]) -> None:
        """Deliver an earlier event again. A reaction event carries no id to tell a second
        delivery from a new action; one about a vote acted on since (or in this batch) is left
        alone: test_a_late_second_reaction_event_does_not_undo_a_click is that case."""
        for _ in range(10):
            index = self.rng.randrange(len(self.sent))
            if self.rng.random() < 0.7:  # mostly a recent one
                index = max(index, len(self.sent) - 30)
            sent = self.sent[index]
            reaction = sent.frame["t"].startswith("MESSAGE_REACTION")
            if reaction and (sent.vote in busy or self.latest.get(sent.vote or (0, "")) != index):
                continue
            if reaction:  # no fresh action on this vote may race it in this batch
                busy.add(sent.vote)
            redeliver(self.fake, sent.frame)
            if sent.frame["t"] == "INTERACTION_CREATE":
                self.twice.append((sent.frame["d"]["id"], sent.frame["d"]["token"]))
            self.kinds["delivered again"] += 1
            return

    # -- the end ---------------------------------------------------------------------------

    def settle(self) -> None:
        """Every event handled, every click answered (a second delivery too), redraws sent."""
        settle(self.h, interactions=self.clicks)
        for interaction_id, token in self.twice:
            path = f"/interactions/{interaction_id}/{token}/callback"
            self.fake.wait_request("POST", path, count=2, timeout=20)
        settle(self.h)


# -- the bot ------------------------------------------------------------------------------------


@dataclass
class Club:
    """The bot on the fake with two channels and two days of posts: four targets."""

    harness: DiscordHarness
    targets: list[Target]
    users: list[str]
    db: Path


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    """A fake guild with #general."""
    with FakeDiscord() as discord_fake:
        yield discord_fake


@pytest.fixture
def club(fake: FakeDiscord, tmp_path: Path) -> Iterator[Club]:
    """#general and #club follow the list; Monday's and Tuesday's posts are out."""
    users = [fake.alice_id, fake.bob_id, *(fake.add_member(f"member{n}") for n in range(10))]
    second = fake.add_channel("club")
    folder = fast_folder(tmp_path)
    try:
        with discord_bot(fake, db=folder / "club.db", follow=[second]) as harness:
            for day in range(2):
                harness.clock.at += timedelta(days=day)
                outcomes = harness.sweep()
                assert {o.outcome for o in outcomes.values()} == {posting.Outcome.POSTED}
            targets = []
            with harness.database(write=False) as store:
                for channel_id in (fake.channel_id, second):
                    for message in harness.posts(channel_id):
                        key = discord_key(fake, channel_id)
                        post = store.post_by_message(channel=key, message_id=message["id"])
                        assert post is not None
                        targets.append(Target(post.id, channel_id, message["id"]))
            assert len(targets) == 4
            settle(harness)
            yield Club(harness=harness, targets=targets, users=users, db=folder / "club.db")
    finally:
        if folder != tmp_path:
            shutil.rmtree(folder, ignore_errors=True)


def _stored_votes(club: Club) -> dict[VoteKey, tuple[int, str]]:
    """Every vote in the archive."""
    with read_only(club.db) as conn:
        rows = conn.execute("SELECT post_id, user_id, value, source FROM votes").fetchall()
    return {(int(p), str(u)): (int(v), str(s)) for p, u, v, s in rows}


def _stored_comments(club: Club) -> dict[str, list[Any]]:
    """Every comment in the archive: message id -> [post id, user, text, deleted]."""
    with read_only(club.db) as conn:
        rows = conn.execute(
            "SELECT post_id, user_id, message_id, text, deleted FROM comments"
        ).fetchall()
    return {str(m): [int(p), str(u), str(t), bool(d)] for p, u, m, t, d in rows}


def _tracebacks(trap: Trap) -> list[str]:
    """The log's tracebacks, but for the known one of a click delivered twice (the second
    acknowledgement is refused with 40060): test_a_click_delivered_twice_... marks that bug."""
    return [t for t in trap.tracebacks() if "40060" not in t]


def _assert_state(club: Club, burst: Burst) -> None:
    """The archive holds what the actions add up to; each post shows its counts."""
    harness = club.harness
    assert _stored_votes(club) == burst.expected.votes
    stored = _stored_comments(club)
    expected = burst.expected.comments
    # A deleted comment keeps no text that search or export could show.
    for values in [*stored.values(), *expected.values()]:
        if values[3]:
            values[2] = ""
    assert stored == expected
    for target in club.targets:
        values = [v for (p, _u), (v, _s) in burst.expected.votes.items() if p == target.post_id]
        up, down = sum(v > 0 for v in values), sum(v < 0 for v in values)
        shown = harness.fake.message(target.message_id)["components"][0]["components"]
        assert [b["label"] for b in shown] == [f"👍 {up}", f"👎 {down}"], target


# -- the tests ----------------------------------------------------------------------------------


def test_a_burst_with_drops_reconnects_and_second_deliveries_counts_each_action_once(
    club: Club,
) -> None:
    rng = random.Random(seed_for("discord gateway: burst"))
    harness, fake = club.harness, club.harness.fake
    burst = Burst(harness, rng, club.targets, club.users)
    modes: Counter[str] = Counter()
    session = fake.gateway.current
    assert session is not None

    def connected() -> bool:
        """The client is on the gateway (not between a drop and its resume)."""
        return session.conn is not None

    with trapped() as trap:
        for _ in range(scaled(10, 80)):
            fake.wait_until(connected, timeout=10)  # the last drop is resumed
            size = rng.randint(8, 30)
            mode = rng.choice(("plain", "plain", "held drop", "drop", "reconnect"))
            modes[mode] += 1
            if mode == "held drop":  # every event of the batch is missed, then replayed
                with fake.disconnected(abrupt=rng.random() < 0.5):
                    burst.batch(size)
            elif mode == "drop":  # the link dies halfway; the rest races the resume
                burst.batch(size, between=lambda: fake.drop_connection(abrupt=rng.random() < 0.5))
            elif mode == "reconnect":
                burst.batch(size, between=fake.send_reconnect)
            else:
                burst.batch(size)
            burst.settle()
        _assert_state(club, burst)
    counts = fake.counts
    print(f"modes {dict(modes)}; actions {dict(burst.kinds)}; gateway {counts}")
    assert counts["identifies"] == 1, "a fresh session: the events of the old one were lost"
    assert counts["resumes"] == modes["held drop"] + modes["drop"] + modes["reconnect"]
    assert counts["replayed"] > 0 and burst.kinds["delivered again"] > 10
    assert burst.expected.votes and burst.expected.comments
    found = _tracebacks(trap)
    assert not found, found[0]


def test_events_missed_while_disconnected_are_replayed_once(club: Club) -> None:
    harness, fake = club.harness, club.harness.fake
    burst = Burst(harness, random.Random(1), club.targets, club.users)
    first, second = club.targets[:2]
    with trapped() as trap:
        with fake.disconnected():
            burst._click(first, fake.alice_id)
            burst._reaction(second, fake.bob_id)
            burst._reply(set())
        burst.settle()
        _assert_state(club, burst)
    assert fake.counts["resumes"] == 1 and fake.counts["replayed"] >= 3
    found = _tracebacks(trap)
    assert not found, found[0]


def test_every_kind_of_event_delivered_twice_counts_once(club: Club) -> None:
    harness, fake = club.harness, club.harness.fake
    burst = Burst(harness, random.Random(2), club.targets, club.users)
    target = club.targets[0]
    with trapped() as trap:
        burst._click(target, fake.alice_id)  # 👍 by button
        burst._reaction(club.targets[1], fake.bob_id)
        burst._reply(set())
        burst.settle()
        burst._change(set())  # an edit or a deletion of that reply
        burst.settle()
        for sent in list(burst.sent):
            redeliver(fake, sent.frame)
            if sent.frame["t"] == "INTERACTION_CREATE":
                burst.twice.append((sent.frame["d"]["id"], sent.frame["d"]["token"]))
        burst.settle()
        _assert_state(club, burst)
    found = _tracebacks(trap)
    assert not found, found[0]


def test_a_late_second_reaction_event_does_not_undo_a_click(club: Club) -> None:
    harness, fake = club.harness, club.harness.fake
    burst = Burst(harness, random.Random(3), club.targets, club.users)
    target = club.targets[0]
    with trapped() as trap:
        fake.react(target.message_id, "👍")
        burst.expected.react(target.post_id, fake.alice_id, "👍", True)
        added = last_frame(fake, "MESSAGE_REACTION_ADD", lambda d: d["user_id"] == fake.alice_id)
        burst.settle()
        click = fake.click(target.message_id, target.button(up=False))  # the latest action: 👎
        burst.expected.click(target.post_id, fake.alice_id, -1)
        burst.settle()
        fake.wait_callback(click.id)
        redeliver(fake, added)  # the reaction's event once more, after the click
        burst.settle()
        _assert_state(club, burst)
    found = _tracebacks(trap)
    assert not found, found[0]


def test_a_click_delivered_twice_is_answered_once_without_a_traceback(club: Club) -> None:
    harness, fake = club.harness, club.harness.fake
    burst = Burst(harness, random.Random(4), club.targets, club.users)
    with trapped() as trap:
        burst._click(club.targets[0], fake.alice_id)
        burst.settle()
        frame = burst.sent[-1].frame
        redeliver(fake, frame)
        burst.twice.append((frame["d"]["id"], frame["d"]["token"]))
        burst.settle()
        _assert_state(club, burst)  # counted once: this part holds
    assert not trap.tracebacks(), trap.tracebacks()[0]
