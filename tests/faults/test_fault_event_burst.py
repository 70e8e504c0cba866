"""A burst of vote and comment events (button clicks, reactions, thread replies, edits,
deletions, noise) with 30% redeliveries, through the real Bolt app: the stored votes and
comments equal the ones computed independently from the mix, none lost, none doubled.

The mix is dispatched as the Socket Mode adapter dispatches each envelope
(`app.dispatch(BoltRequest(body=..., mode="socket_mode"))`), and a few hundred go over the real
Socket Mode transport too. The expected state comes from issue 4's rules, not from the code.
"""

from __future__ import annotations

import copy
import random
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from slack_bolt import BoltRequest

from bot.db.database import Database
from bot.export_formats import record_dict
from bot.services import listing, posting, workspaces
from bot.slack import ids
from tests.fakeslack import (
    FakeSlack,
    block_actions_payload,
    event_envelope_payload,
    message_changed_event,
    message_deleted_event,
    message_event,
    reaction_event,
    socket_mode_app,
)
from tests.faults.support import (
    BERLIN_WEEKDAYS,
    MONDAY_9,
    FakeClock,
    daily_posts,
    fast_folder,
    prepare_database,
    scaled,
    seed_for,
    slack_settings,
    trap_logs,
    vote_value,
)
from tests.wired import SlackBot, build_slack_bot

CHANNELS = ("C0001", "C0002")
UP, DOWN = ("+1", "thumbsup"), ("-1", "thumbsdown")
TONES = ("", "::skin-tone-2", "::skin-tone-5")
REDELIVERED = 0.30


@dataclass(frozen=True)
class Target:
    """A daily post the mix votes on and replies under."""

    post_id: int
    channel: str
    ts: str
    value: str  # what its vote buttons carry


@dataclass
class Expected:
    """The state issue 4's rules give, applied in delivery order to first deliveries only."""

    votes: dict[tuple[int, str], tuple[int, str]] = field(default_factory=dict)
    # (channel, ts) -> [post id, user, text, deleted, edited]
    comments: dict[tuple[str, str], list[Any]] = field(default_factory=dict)

    def click(self, post: int, user: str, value: int) -> None:
        """The other button changes the vote, the same one again withdraws it."""
        current = self.votes.get((post, user))
        if current is not None and current[0] == value:
            del self.votes[(post, user)]
        else:
            self.votes[(post, user)] = (value, "button")

    def react(self, post: int, user: str, name: str, added: bool) -> None:
        """A voting reaction sets the vote; removing the one that set it withdraws it."""
        base = name.split("::", 1)[0]
        value = 1 if base in UP else -1 if base in DOWN else 0
        if not value:
            return
        source = f"reaction:{base}"
        if added:
            self.votes[(post, user)] = (value, source)
        elif self.votes.get((post, user), (0, ""))[1] == source:
            del self.votes[(post, user)]

    def reply(self, post: int, channel: str, ts: str, user: str, text: str) -> None:
        """A new comment; a ts already known (an overtaking edit or deletion) wins."""
        self.comments.setdefault((channel, ts), [post, user, text, False, False])

    def edit(self, post: int, channel: str, ts: str, user: str, text: str) -> None:
        """New text when it changed; an edit before its message stands for it."""
        current = self.comments.get((channel, ts))
        if current is None:
            self.comments[(channel, ts)] = [post, user, text, False, True]
        elif not current[3] and current[2] != text:
            current[2], current[4] = text, True

    def delete(self, post: int, channel: str, ts: str, user: str) -> None:
        """Gone from search and export; a deletion before its message keeps it out."""
        current = self.comments.get((channel, ts))
        if current is None:
            self.comments[(channel, ts)] = [post, user, "", True, False]
        else:
            current[2], current[3] = "", True

    def per_post(self, targets: list[Target]) -> dict[int, dict[str, Any]]:
        """What the export must show per post: votes and live comments in ts order."""
        result: dict[int, dict[str, Any]] = {}
        for target in targets:
            values = [v for (p, _u), (v, _s) in self.votes.items() if p == target.post_id]
            live = sorted(
                (ts, c)
                for (_ch, ts), c in self.comments.items()
                if c[0] == target.post_id and not c[3]
            )
            result[target.post_id] = {
                "votes": {"up": sum(v > 0 for v in values), "down": sum(v < 0 for v in values)},
                "comments": [
                    {"user": c[1], "message_id": ts, "text": c[2], "edited": c[4]} for ts, c in live
                ],
            }
        return result


@dataclass(frozen=True)
class Delivery:
    """One request as Slack would send it: an Events API callback or an interaction."""

    envelope: str  # events_api | interactive
    body: dict[str, Any]
    retry: int = 0  # > 0: a redelivery of the same event id


class Mix:
    """Generates deliveries and, for each first delivery, applies its effect to `expected`."""

    def __init__(self, rng: random.Random, targets: list[Target], users: int = 300) -> None:
        """A mix over these daily posts."""
        self.rng, self.targets = rng, targets
        self.users = [f"U{n:05d}" for n in range(users)]
        self.expected = Expected()
        self.kinds: Counter[str] = Counter()
        self._n = 0
        self._sent: list[Delivery] = []
        self._deferred: list[tuple[int, Delivery, Any, str]] = []
        self._reactions: dict[tuple[int, str], set[str]] = {}
        self._live: dict[tuple[str, str], tuple[Target, dict[str, Any]]] = {}
        self._tone = {user: rng.choice(TONES) for user in self.users}

    def _ts(self) -> str:
        self._n += 1
        return f"{1_767_700_000 + self._n // 1000}.{self._n % 1000:06d}"

    def _event(self, event: dict[str, Any]) -> Delivery:
        return Delivery("events_api", event_envelope_payload(event, event_id=f"Ev{self._n:011d}"))

    def deliveries(self, total: int) -> Iterator[Delivery]:
        """`total` deliveries, about 30% of them redeliveries of earlier ones."""
        produced = 0
        while produced < total:
            due = [d for d in self._deferred if d[0] <= len(self._sent)]
            if due:
                self._deferred.remove(due[0])
                _, delivery, apply, kind = due[0]
                apply()
                produced += 1
                yield self._send(delivery, kind)
            elif self._sent and self.rng.random() < REDELIVERED:
                # Mostly a recent one (Slack's retries come within minutes), sometimes older.
                window = self._sent[-50:] if self.rng.random() < 0.8 else self._sent
                old = self.rng.choice(window)
                retry = self.rng.randint(1, 3) if old.envelope == "events_api" else 0
                self.kinds["redelivery"] += 1
                produced += 1
                yield Delivery(old.envelope, copy.deepcopy(old.body), retry)
            else:
                delivery = self._fresh()
                if delivery is not None:
                    produced += 1
                    yield delivery

    def _send(self, delivery: Delivery, kind: str) -> Delivery:
        self.kinds[kind] += 1
        self._sent.append(delivery)
        return delivery

    def _fresh(self) -> Delivery | None:
        roll = self.rng.random()
        target = self.rng.choice(self.targets)
        user = self.rng.choice(self.users)
        if roll < 0.40:
            return self._click(target, user)
        if roll < 0.62:
            return self._reaction(target, user)
        if roll < 0.84 or not self._live:
            return self._reply(target, user)
        if roll < 0.97:
            return self._change()
        return self._noise(target, user)

    def _click(self, target: Target, user: str) -> Delivery:
        up = self.rng.random() < 0.6
        self._n += 1
        body = block_actions_payload(
            ids.VOTE_UP if up else ids.VOTE_DOWN,
            target.value,
            user_id=user,
            channel_id=target.channel,
            message_ts=target.ts,
            block_id=ids.VOTE_BLOCK,
        )
        body["actions"][0]["action_ts"] = self._ts()  # unique per click, the same on redelivery
        self.expected.click(target.post_id, user, 1 if up else -1)
        return self._send(Delivery("interactive", body), "click")

    def _reaction(self, target: Target, user: str) -> Delivery | None:
        have = self._reactions.setdefault((target.post_id, user), set())
        if have and self.rng.random() < 0.4:
            name = self.rng.choice(sorted(have))
            have.discard(name)
            added = False
        else:
            base = self.rng.choice((*UP, *DOWN, "tada", "eyes"))
            name = base + (self._tone[user] if base in ("+1", "-1") else "")
            if name in have:
                return None  # Slack sends no second reaction_added for the same emoji
            have.add(name)
            added = True
        self._n += 1
        event = reaction_event(
            user=user, reaction=name, channel=target.channel, item_ts=target.ts, removed=not added
        )
        event["event_ts"] = self._ts()
        self.expected.react(target.post_id, user, name, added)
        return self._send(self._event(event), "reaction added" if added else "reaction removed")

    def _reply(self, target: Target, user: str) -> Delivery:
        ts = self._ts()
        text = f"comment {self._n} on {target.channel}"
        message = message_event(
            channel=target.channel, user=user, text=text, ts=ts, thread_ts=target.ts
        )
        if self.rng.random() < 0.1:
            message["subtype"] = "thread_broadcast"
        delivery = self._event(message)
        self._live[(target.channel, ts)] = (target, message)

        def apply() -> None:
            self.expected.reply(target.post_id, target.channel, ts, user, text)

        later = len(self._sent) + self.rng.randint(3, 40)
        if self.rng.random() < 0.04:  # its edit or deletion will overtake it
            self._deferred.append((later, delivery, apply, "reply (late)"))
            return self._change(key=(target.channel, ts))
        apply()
        if self.rng.random() < 0.02:  # the same message again later, under a new event id
            self._n += 1
            again = self._event(copy.deepcopy(message))
            self._deferred.append((later, again, lambda: None, "reply (new event id)"))
        return self._send(delivery, "reply")

    def _change(self, key: tuple[str, str] | None = None) -> Delivery:
        key = key or self.rng.choice(sorted(self._live))
        target, message = self._live[key]
        channel, ts = key
        self._n += 1
        if self.rng.random() < 0.65:
            unfurl = self.rng.random() < 0.2  # Slack also sends message_changed for unfurls
            text = message["text"] if unfurl else f"{message['text']} (edit {self._n})"
            event = message_changed_event(channel=channel, previous=message, new_text=text)
            self._live[key] = (target, dict(message, text=text))
            self.expected.edit(target.post_id, channel, ts, message["user"], text)
            return self._send(self._event(event), "unfurl" if unfurl else "edit")
        event = message_deleted_event(channel=channel, previous=message)
        del self._live[key]
        self.expected.delete(target.post_id, channel, ts, message["user"])
        return self._send(self._event(event), "delete")

    def _noise(self, target: Target, user: str) -> Delivery:
        """Things that must be acked and change nothing."""
        self._n += 1
        other = f"{1_767_600_000 + self._n}.000200"
        choices = [
            reaction_event(user=user, reaction="+1", channel=target.channel, item_ts=other),
            message_event(
                channel=target.channel, user=user, text="elsewhere", ts=self._ts(), thread_ts=other
            ),
            message_event(channel=target.channel, user=user, text="top level", ts=self._ts()),
            {
                "type": "message",
                "subtype": "bot_message",
                "bot_id": "B0OTHER",
                "text": "beep",
                "channel": target.channel,
                "ts": self._ts(),
                "thread_ts": target.ts,
            },
            {
                "type": "message",
                "subtype": "channel_join",
                "user": user,
                "text": "joined",
                "channel": target.channel,
                "ts": self._ts(),
            },
            {"type": "app_home_opened", "user": user, "channel": "D0001", "tab": "home"},
        ]
        return self._send(self._event(self.rng.choice(choices)), "noise")


# -- the bot -----------------------------------------------------------------------------------


@dataclass
class Bot:
    """The real bot wiring on a FakeClock, with two channels and two days of posts."""

    fake: FakeSlack
    slack: SlackBot
    database: Database
    targets: list[Target]


@pytest.fixture
def bot(fake: FakeSlack, tmp_path: Path) -> Iterator[Bot]:
    """Daily posts on Monday and Tuesday in two channels: four targets."""
    fake.add_channel("C0002", "club-two")
    folder = fast_folder(tmp_path)
    url = prepare_database(folder / "club.db", channels=CHANNELS, schedule=BERLIN_WEEKDAYS)
    database = Database(url=url)
    clock = FakeClock(MONDAY_9)
    slack = build_slack_bot(
        settings=slack_settings(fake, url), database=database, clock=clock, mode="socket"
    )
    try:
        for day in range(2):
            clock.at = MONDAY_9 + timedelta(days=day)
            outcomes = posting.post_due(poster=slack.poster, now=clock.at)
            assert {o.outcome for o in outcomes.values()} == {posting.Outcome.POSTED}
        targets = []
        for channel in CHANNELS:
            for message in daily_posts(fake, channel):
                post_id = int(message["metadata"]["event_payload"]["post_id"])
                targets.append(Target(post_id, channel, str(message["ts"]), vote_value(message)))
        yield Bot(fake=fake, slack=slack, database=database, targets=targets)
    finally:
        slack.close()
        database.dispose()
        if folder != tmp_path:
            shutil.rmtree(folder, ignore_errors=True)


def _dispatch(bot: Bot, delivery: Delivery) -> int:
    """What the Socket Mode adapter does per envelope, minus the WebSocket: the ack status."""
    headers = None
    if delivery.retry:
        headers = {"x-slack-retry-num": str(delivery.retry), "x-slack-retry-reason": "timeout"}
    request = BoltRequest(body=delivery.body, mode="socket_mode", headers=headers)
    return int(bot.slack.app.dispatch(request).status)


def _stored(bot: Bot) -> tuple[dict[int, dict[str, Any]], dict[tuple[int, str], int]]:
    """Per post: the export's votes and comments; and every (post, user) vote value."""
    exported: dict[int, dict[str, Any]] = {}
    by_key = {(t.channel, t.ts): t.post_id for t in bot.targets}
    only = workspaces.resolve(uow=bot.database, named=None)  # one workspace: the fake team's
    for record in listing.records(uow=bot.database, workspace=only):
        for post in record_dict(record=record)["posts"]:
            post_id = by_key[(post["channel"].rsplit(":", 1)[1], post["message_id"])]
            exported[post_id] = {"votes": post["votes"], "comments": post["comments"]}
    with bot.database.engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT post_id, user_id, value FROM votes").all()
    return exported, {(int(p), str(u)): int(v) for p, u, v in rows}


def _check(bot: Bot, mix: Mix) -> None:
    """The database holds exactly what the rules give: counts, each vote, each comment."""
    exported, votes = _stored(bot)
    want_votes = {key: value for key, (value, _source) in mix.expected.votes.items()}
    wrong = sorted(k for k in want_votes.keys() | votes.keys() if want_votes.get(k) != votes.get(k))
    assert not wrong, f"{len(wrong)} votes differ, e.g. {wrong[:3]}: " + ", ".join(
        f"want {want_votes.get(k)} got {votes.get(k)}" for k in wrong[:3]
    )
    want = mix.expected.per_post(bot.targets)
    for target in bot.targets:
        got, expected = exported[target.post_id], want[target.post_id]
        assert got["votes"] == expected["votes"], (target, got["votes"], expected["votes"])
        assert len(got["comments"]) == len(expected["comments"]), target
        assert got["comments"] == expected["comments"], target


@pytest.mark.timeout(scaled(600, 3600))
def test_burst_of_events_with_redeliveries_is_applied_exactly_once(bot: Bot) -> None:
    rng = random.Random(seed_for("event burst"))
    mix = Mix(rng, bot.targets)
    total = scaled(3_000, 50_000)
    statuses: Counter[int] = Counter()
    with trap_logs() as trap:
        for delivery in mix.deliveries(total):
            statuses[_dispatch(bot, delivery)] += 1
        assert bot.slack.coalescer.drain(timeout=30)
    print(f"{total} deliveries: {dict(mix.kinds)}; acks {dict(statuses)}")
    assert statuses == {200: total}, "every delivery is acked (200), none a 404 or an error"
    assert mix.kinds["redelivery"] >= 0.25 * total
    _check(bot, mix)
    assert not trap.tracebacks(), trap.tracebacks()[:3]
    # The vote buttons show the final counts once the coalesced redraws are done.
    want = mix.expected.per_post(bot.targets)
    for target in bot.targets:
        message = bot.fake.message(target.channel, target.ts)
        actions = next(b for b in message["blocks"] if b["type"] == "actions")
        shown = [e["text"]["text"] for e in actions["elements"]]
        votes = want[target.post_id]["votes"]
        assert shown == [f"👍 {votes['up']}", f"👎 {votes['down']}"], target


@pytest.mark.timeout(scaled(300, 1800))
def test_events_over_the_real_socket_mode_transport(bot: Bot) -> None:
    rng = random.Random(seed_for("event burst over Socket Mode"))
    mix = Mix(rng, bot.targets, users=40)
    total = scaled(400, 3000)
    envelopes: list[str] = []
    with trap_logs() as trap, socket_mode_app(bot.slack.app, bot.fake):
        for delivery in mix.deliveries(total):
            envelope = bot.fake.push(
                delivery.envelope,
                delivery.body,
                retry_attempt=delivery.retry,
                retry_reason="timeout" if delivery.retry else "",
            )
            # One at a time: the expected state depends on the order of the clicks.
            bot.fake.wait_ack(envelope, timeout=10)
            envelopes.append(envelope)
        assert bot.slack.coalescer.drain(timeout=30)
    acked = {a["envelope_id"] for a in bot.fake.socket_mode.acks()}
    assert set(envelopes) <= acked
    print(f"{total} envelopes over Socket Mode: {dict(mix.kinds)}")
    _check(bot, mix)
    assert not trap.tracebacks(), trap.tracebacks()[:3]
