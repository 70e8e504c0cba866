"""The Discord bench's mix of deliveries: deterministic rounds of clicks, reactions (any skin
tone, some on other messages), replies, edits and deletes, as Discord could send them (a person
never adds one emoji twice, votes at most once a round, and a comment changes once a round)."""

from __future__ import annotations

import random

from bench.event_mix import Action

USERS = tuple(f"m{n:03d}" for n in range(250))
ROUND = 200  # events a round: at most 70% vote, each voter once, so fewer than len(USERS)
KINDS, WEIGHTS = ("click", "react", "reply", "change"), (50, 20, 25, 5)  # as Slack's mix
TONES = ("", "::skin-tone-2", "::skin-tone-3", "::skin-tone-4", "::skin-tone-5", "::skin-tone-6")
GLYPHS = {"+1": "👍", "-1": "👎", "tada": "🎉", "eyes": "👀"}  # the last two are no votes
OTHER = "other"  # a reaction's `ts` for an ordinary message in the channel, not the post


def make_mix(*, rounds: int, size: int, seed: int = 5) -> list[list[Action]]:
    """A deterministic mix in rounds: 50% clicks, 20% reactions (a tenth elsewhere), 25%
    replies, 5% edits (a quarter keeping the text: an unfurl) and deletes."""
    rng = random.Random(seed)
    tone = {user: rng.choice(TONES) for user in USERS}
    held: dict[tuple[str, str], set[str]] = {}  # (user, "" or OTHER) -> their reactions there
    live: dict[str, tuple[str, str]] = {}  # comment -> (author, text), while not deleted
    mix, n = list[list[Action]](), 0
    for _ in range(rounds):
        voters, changed, actions = rng.sample(USERS, k=len(USERS)), set[str](), list[Action]()
        while len(actions) < size:
            n += 1
            kind, action = rng.choices(KINDS, WEIGHTS)[0], None
            if kind == "click":
                action = Action("click", n, voters.pop(), value=rng.choice((1, 1, -1)))
            elif kind == "react":
                user, where = voters.pop(), OTHER if rng.random() < 0.1 else ""
                mine = held.setdefault((user, where), set())
                base = rng.choice(sorted(GLYPHS))
                name = base + tone[user] if base in ("+1", "-1") else base
                if mine and rng.random() < 0.4:
                    name = rng.choice(sorted(mine))
                    mine.discard(name)
                    action = Action("unreact", n, user, name=name, ts=where)
                elif name not in mine:  # Discord sends no second add of one emoji
                    mine.add(name)
                    action = Action("react", n, user, name=name, ts=where)
            elif kind == "reply" or not (free := sorted(live.keys() - changed)):
                action = Action("reply", n, rng.choice(USERS), ts=f"c{n}", text=f"Note {n}")
                live[action.ts] = (action.user, action.text)
            else:
                ts = rng.choice(free)
                author, old = live.pop(ts)
                if rng.random() < 0.6:
                    new = old if rng.random() < 0.25 else f"{old} (edited {n})"
                    live[ts] = (author, new)
                    action = Action("edit", n, author, ts=ts, text=new, old_text=old)
                else:
                    action = Action("delete", n, author, ts=ts, old_text=old)
            if action is not None:
                changed.add(action.ts)
                actions.append(action)
        mix.append(actions)
    return mix


def emoji(*, name: str) -> str:
    """The reaction as Discord sends it: '+1::skin-tone-3' is 👍🏼 (tones 2-6: U+1F3FB-FF)."""
    base, _, tone = name.partition("::")
    return GLYPHS[base] + (chr(0x1F3F9 + int(tone[-1])) if tone else "")
