"""The event mix of the ingestion benchmark: deliveries shaped like Slack's, and the final
state they must leave, computed from issue 4's rules rather than from the bot's code."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.slack import ids
from tests import fakeslack as slack  # payloads shaped like Slack's

CHANNEL = "C0001"
MONDAY_9 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)  # 09:00 in Berlin: the daily post is due
EPOCH = int(MONDAY_9.timestamp())  # message ts and action_ts of the mix count up from here
USERS = tuple(f"U{n:04d}" for n in range(200))
TONES = ("", "::skin-tone-2", "::skin-tone-3", "::skin-tone-4", "::skin-tone-5", "::skin-tone-6")
REACTIONS = ("+1", "thumbsup", "-1", "thumbsdown", "tada", "eyes")  # the last two are no votes
KINDS, WEIGHTS = ("click", "react", "reply", "change"), (50, 20, 25, 5)
OTHER_TS = f"{EPOCH - 600}.000100"  # a message in the channel that is no daily post
REDELIVERED = 0.10  # share of deliveries that repeat an earlier one (retries, duplicates)
Headers = dict[str, str | Sequence[str]]  # what BoltRequest takes
Request = tuple[dict[str, Any], Headers | None]  # body, headers


@dataclass(frozen=True, slots=True)
class Action:
    """One delivery of the mix, independent of any payload shape."""

    kind: str  # click | react | unreact | reply | edit | delete | again
    n: int  # sequence number: makes event ids, action_ts and message ts unique
    user: str = ""
    value: int = 0  # click: +1 or -1
    name: str = ""  # reaction name
    ts: str = ""  # reply/edit/delete: the comment; reactions: the item ("" = the daily post)
    text: str = ""
    old_text: str = ""
    ref: int = -1  # again: the index of the delivery repeated


@dataclass
class Expected:
    """The final state the mix must leave, from the rules of issue 4, not from the bot's code."""

    votes: dict[str, tuple[int, str]] = field(default_factory=dict)  # user -> (value, source)
    comments: dict[str, tuple[str, bool]] = field(default_factory=dict)  # ts -> (text, deleted)

    def apply(self, *, action: Action) -> None:
        """One delivery; a redelivery (`again`) changes nothing."""
        vote, base = self.votes.get(action.user), action.name.split("::", 1)[0]
        value = 1 if base in ("+1", "thumbsup") else -1 if base in ("-1", "thumbsdown") else 0
        if action.kind == "click" and vote is not None and vote[0] == action.value:
            del self.votes[action.user]  # the same button again withdraws the vote
        elif action.kind == "click":
            self.votes[action.user] = (action.value, "button")
        elif action.kind == "react" and value and not action.ts:
            self.votes[action.user] = (value, f"reaction:{base}")  # the latest action wins
        elif action.kind == "unreact" and not action.ts and vote and vote[1] == f"reaction:{base}":
            del self.votes[action.user]  # only the reaction that set the vote withdraws it
        elif action.kind == "reply":
            self.comments.setdefault(action.ts, (action.text, False))  # a late original loses
        elif action.kind == "edit" and not self.comments.get(action.ts, ("", False))[1]:
            self.comments[action.ts] = (action.text, False)
        elif action.kind == "delete":
            self.comments[action.ts] = ("", True)


def make_mix(*, total: int, seed: int = 4) -> list[Action]:
    """A deterministic mix: 50% clicks, 20% reactions, 25% replies, 5% edits/deletes (some
    overtaking their reply), and about 10% redeliveries of earlier deliveries."""
    rng = random.Random(seed)
    tone = {user: rng.choice(TONES) for user in USERS}
    reactions: dict[str, set[str]] = {user: set() for user in USERS}
    live: dict[str, tuple[str, str]] = {}  # ts -> (user, text) of replies not deleted
    deferred: list[tuple[int, Action]] = []  # replies held back so that their change comes first
    out: list[Action] = []
    fresh: list[int] = []  # indices of first deliveries, which a redelivery may repeat
    while len(out) < total:
        n = len(out) + len(deferred)  # every action made so far, so unique
        if due := [item for item in deferred if item[0] <= len(out)]:
            deferred.remove(due[0])
            fresh.append(len(out))
            out.append(due[0][1])
            continue
        if fresh and rng.random() < REDELIVERED:
            out.append(Action("again", n, ref=rng.choice(fresh)))
            continue
        kind, user = rng.choices(KINDS, WEIGHTS)[0], rng.choice(USERS)
        action: Action | None = None
        if kind == "click":
            action = Action("click", n, user, value=rng.choice((1, 1, -1)))
        elif kind == "react" and rng.random() < 0.1:  # reactions on other messages are ignored
            action = Action("react", n, user, name=rng.choice(REACTIONS), ts=OTHER_TS)
        elif kind == "react" and reactions[user] and rng.random() < 0.4:
            name = rng.choice(sorted(reactions[user]))
            reactions[user].discard(name)
            action = Action("unreact", n, user, name=name)
        elif kind == "react":
            base = rng.choice(REACTIONS)
            name = base + (tone[user] if base in ("+1", "-1") else "")
            if name not in reactions[user]:  # Slack sends no second reaction_added for one emoji
                reactions[user].add(name)
                action = Action("react", n, user, name=name)
        elif kind == "reply" or not live:
            action = Action("reply", n, user, ts=f"{EPOCH + n}.000200", text=f"Note {n}")
            live[action.ts] = (user, action.text)
        else:
            if rng.random() < 0.15 and len(out) + 30 < total:  # the change overtakes its reply
                ts = f"{EPOCH + n + 1}.000200"
                late = Action("reply", n + 1, user, ts=ts, text=f"Note {n + 1}")
                deferred.append((len(out) + rng.randint(5, 25), late))
                author, old = user, late.text
            else:
                ts = rng.choice(sorted(live))
                author, old = live.pop(ts)
            if rng.random() < 0.6:
                new = old if rng.random() < 0.25 else f"{old} (edited {n})"  # an unfurl: same text
                live[ts] = (author, new)
                action = Action("edit", n, author, ts=ts, text=new, old_text=old)
            else:
                action = Action("delete", n, author, ts=ts, old_text=old)
        if action is not None:
            fresh.append(len(out))
            out.append(action)
    return out


def requests(*, mix: list[Action], post_id: int, post_ts: str) -> list[Request]:
    """Fresh request bodies (and retry headers) for every delivery of the mix."""
    built: list[Request] = []
    retry: Headers = {"x-slack-retry-num": "1", "x-slack-retry-reason": "timeout"}
    for action in mix:
        if action.kind == "again":
            # A redelivery is the same JSON parsed again; only events carry a retry number.
            body = copy.deepcopy(built[action.ref][0])
            built.append((body, retry if body["type"] == "event_callback" else None))
        else:
            built.append((payload(action=action, post_id=post_id, post_ts=post_ts), None))
    return built


def payload(*, action: Action, post_id: int, post_ts: str) -> dict[str, Any]:
    """What Slack sends for one first delivery, its ids fixed by the sequence number."""
    stamp = f"{EPOCH + action.n // 1000}.{action.n % 1000:06d}"
    if action.kind == "click":
        button = ids.VOTE_UP if action.value > 0 else ids.VOTE_DOWN
        value = ids.encode_post_id(post_id=post_id)
        body = slack.block_actions_payload(
            button, value, user_id=action.user, message_ts=post_ts, block_id=ids.VOTE_BLOCK
        )
        body["actions"][0]["action_ts"] = stamp
        return body
    if action.kind in ("react", "unreact"):
        event = slack.reaction_event(
            user=action.user,
            reaction=action.name,
            channel=CHANNEL,
            item_ts=action.ts or post_ts,
            removed=action.kind == "unreact",
        )
        event["event_ts"] = stamp
    else:
        event = slack.message_event(
            channel=CHANNEL,
            user=action.user,
            ts=action.ts,
            text=action.old_text or action.text,
            thread_ts=post_ts,
        )
        if action.kind == "edit":
            event = slack.message_changed_event(
                channel=CHANNEL, previous=event, new_text=action.text
            )
        elif action.kind == "delete":
            event = slack.message_deleted_event(channel=CHANNEL, previous=event)
    return slack.event_envelope_payload(event, event_id=f"Ev{action.n:010d}", event_time=EPOCH)
