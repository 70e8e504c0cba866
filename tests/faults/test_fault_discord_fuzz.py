"""Generated input on Discord: /paperclub subcommands with option strings full of markdown,
mentions, emoji, control characters and 10,000-character runs, and button clicks with random
custom ids (some in our own shapes, 'paperclub:vote:up:<digits>', 'paperclub:search_more:…',
with garbage in them). Every input gets an answer or a clean ignore, never a traceback in the
log, and nothing the bot sends can ping anyone (allowed_mentions parse [] on every message).

Most command inputs go straight to bot.services.commands.handle with the real DiscordChat (as
the Slack fuzz test does), rendered as the Discord plug-in would; a few hundred slash commands
and every click go through the real discord.py client via the fake. Hypothesis runs with
derandomize=True (the same inputs on every default run; fresh ones under PAPERCLUB_SLOW=1)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from bot.discord import render
from bot.discord.listeners import search, votes
from bot.services import commands
from bot.wording.archive import SEARCH_MORE, more_value
from tests.discord.conftest import DiscordHarness
from tests.fakediscord import FakeDiscord
from tests.faults.discord_support import (
    Trap,
    discord_bot,
    discord_key,
    interactions_done,
    pings,
    post_ids,
    settle,
    trapped,
)
from tests.faults.support import SLOW, scaled

SUBCOMMANDS = (
    "search",
    "add",
    "top",
    "schedule",
    "recap",
    "help",
    "queue",
    "pause",
    "resume",
    "skip",
    "next",
)
# What Discord lets through to a string option: at most 6,000 characters.
OPTION_MAX = 6000
LONG = 10_000
MARKUP = (
    "**bold**",
    "__under__",
    "~~strike~~",
    "`code`",
    "```py\nx\n```",
    "||spoiler||",
    "> quote",
    "# heading",
    "-# small",
    "1. item",
    "[a link](https://evil.example/x)",
    "<https://x.example>",
    "[](javascript:alert(1))",
    "@everyone",
    "@here",
    "<@1100000000000000301>",
    "<@!1100000000000000302>",
    "<@&1100000000000000999>",
    "<#1100000000000000200>",
    "<:custom:123456789012345678>",
    "<a:anim:123456789012345678>",
    "<t:1700000000:R>",
    "</paperclub search:1>",
    "discord.gg/abcdef",
    "https://discord.com/invite/x",
    "👍🏽",
    "🧪",
    "\u200b",
    "\u202e",
    "\x00",
    "\x1b[31m",
    "\r\n",
    "\t",
    "\\",
    "*",
    "_",
    "~",
    "|",
    "'; DROP",
    '"phrase',
    "author:Vaswani",
    "after:2026-01-31",
    "-excluded",
    "09:00",
    "Europe/Berlin",
    "mon-fri",
    "fri 16:00",
    "off",
    "2104.04473",
    "10.1145/3292500.3330701",
    "NEAR(a b)",
)
CONTROL = st.characters(min_codepoint=0, max_codepoint=31) | st.sampled_from("\x7f\u0085\u2028")
piece = st.one_of(
    st.sampled_from(MARKUP),
    st.text(max_size=20),
    st.text(alphabet=CONTROL, min_size=1, max_size=5),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=8),
)
long_run = st.builds(
    lambda unit, n: (unit * n)[:LONG],
    st.sampled_from((*MARKUP, "x", "é", "🧪")),
    st.integers(1, LONG),
)


@st.composite
def option_text(draw: st.DrawFn, *, limit: int = LONG) -> str:
    """What someone might put in a string option."""
    if draw(st.integers(0, 9)) == 0:
        run: str = draw(long_run)
        return run[:limit]
    words = draw(st.lists(piece, max_size=8))
    return draw(st.sampled_from((" ", "", "\n", "  "))).join(words)[:limit]


@dataclass
class World:
    """The bot on the fake, today's posts out, shared by every example."""

    harness: DiscordHarness
    fake: FakeDiscord
    channels: dict[str, str]  # name -> id
    post_ids: list[int]
    trap: Trap


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One guild for all examples (hypothesis runs many inputs per test function)."""
    folder: Path = tmp_path_factory.mktemp("discord-fuzz")
    with FakeDiscord() as fake:
        club = fake.add_channel("club")
        refused = fake.add_channel("secret", refused=True)
        with discord_bot(fake, db=folder / "club.db", follow=[club]) as harness, trapped() as trap:
            # Monday's posts, then Tuesday: `next` and `skip` have a queue to work on.
            harness.sweep()
            harness.clock.at += timedelta(days=1)
            settle(harness)
            channels = {
                "general": fake.channel_id,
                "club": club,
                "secret": refused,
                "gone": "1100000000000099999",
            }
            yield World(
                harness=harness,
                fake=fake,
                channels=channels,
                post_ids=sorted(post_ids(harness).values()),
                trap=trap,
            )


def fuzz(examples: int) -> settings:
    """No deadline (a real database and a real client), no example database; the same
    examples on every default run, fresh ones under PAPERCLUB_SLOW=1."""
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=not SLOW,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )


def _clean(world: World) -> None:
    """No traceback logged so far, and nothing sent that could ping."""
    found = world.trap.tracebacks()
    assert not found, found[0]
    bad = pings(world.fake)
    assert not bad, bad[:3]


# -- commands, straight to the shared router -----------------------------------------------------


@pytest.mark.timeout(scaled(300, 3600))
@fuzz(scaled(2000, 20_000))
@given(
    sub=st.one_of(st.sampled_from(SUBCOMMANDS), st.sampled_from(("", "HELP", "Next", "bogus"))),
    option=option_text(),
    user=st.sampled_from(("alice", "bob", "stranger", "")),
    where=st.sampled_from(("general", "club", "secret", "gone")),
)
@example(sub="search", option="@everyone <@1100000000000000301>", user="alice", where="general")
@example(sub="schedule", option="25:00 Mars/Olympus", user="bob", where="general")
@example(sub="add", option="x" * LONG, user="alice", where="club")
@example(sub="next", option="", user="bob", where="gone")
def test_every_command_input_gets_a_reply(
    world: World, sub: str, option: str, user: str, where: str
) -> None:
    fake, deps = world.fake, world.harness.platform.client.deps
    users = {"alice": fake.alice_id, "bob": fake.bob_id, "stranger": "1100000000000000999", "": ""}
    call = deps.room.invocation(channel=discord_key(fake, world.channels[where]), user=users[user])
    world.trap.clear()
    # The listener's own words join: subcommand and option, the empty ones left out.
    text = " ".join(w.strip() for w in (sub, option) if w and w.strip())
    reply = commands.handle(call=call, text=text)
    event(f"command: {sub.lower() if sub.lower() in SUBCOMMANDS else 'other'}")
    assert isinstance(reply.text, str) and reply.text.strip(), repr(text[:200])
    # As the plug-in would send it: within Discord's limits.
    content = render.render(message=reply.message)
    assert 0 < len(content) <= render.CONTENT_MAX, repr(text[:200])
    rows = render.components(message=reply.message, key=deps.keys.key)
    for row in rows:
        for button in row["components"]:
            assert 0 < len(button["custom_id"]) <= render.CUSTOM_ID_MAX
    _clean(world)


# -- slash commands through discord.py -----------------------------------------------------------


@st.composite
def slash_options(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A registered subcommand with options as Discord would deliver them."""
    sub = draw(st.sampled_from(SUBCOMMANDS))
    text = option_text(limit=OPTION_MAX).filter(lambda t: t.strip() != "")
    if sub == "search":
        return sub, {"query": draw(text)}
    if sub == "add":
        return sub, {"paper": draw(text)}
    if sub == "top":  # choices: Discord delivers nothing else
        period = draw(st.sampled_from(("week", "month", "year", "all", None)))
        return sub, {} if period is None else {"period": period}
    if sub in ("schedule", "recap"):
        return sub, draw(st.one_of(st.just({}), st.builds(lambda w: {"when": w}, text)))
    return sub, {}


@pytest.mark.timeout(scaled(300, 3600))
@fuzz(scaled(200, 3000))
@given(
    command=slash_options(),
    user=st.sampled_from(("alice", "bob")),
    where=st.sampled_from(("general", "club")),
)
@example(command=("search", {"query": "@everyone " + "🧪" * 3000}), user="alice", where="general")
def test_slash_commands_through_discord_py_are_answered(
    world: World, command: tuple[str, dict[str, Any]], user: str, where: str
) -> None:
    fake = world.fake
    world.trap.clear()
    sub, options = command
    who = fake.alice_id if user == "alice" else fake.bob_id
    answer = world.harness.command(sub, options, user=who, channel=world.channels[where])
    assert isinstance(answer.get("content"), str) and answer["content"].strip(), (sub, options)
    interactions_done(world.harness)
    _clean(world)


# -- button clicks through discord.py ------------------------------------------------------------

VOTE = re.compile(votes.TEMPLATE)
MORE = re.compile(search.TEMPLATE)
SENTINEL = f"paperclub:{SEARCH_MORE}:~sentinel"  # a stale key: always answered, changes nothing
digits = st.from_regex(r"[0-9]{1,25}", fullmatch=True)
NEAR_MISSES = (
    "paperclub",
    "paperclub:",
    "paperclub:vote",
    "paperclub::",
    "paperclub:vote:up:",
    "paperclub:Vote:up:1",
    "x:vote:up:1",
    "paperclub:search_more:",
    " paperclub:vote:up:1",
    "paperclub:vote:up:1\n",
)


@st.composite
def custom_ids(draw: st.DrawFn, post_ids: list[int], key: render.Key) -> str:
    """A button's custom id: ours, ours with garbage, or anything (1-100 characters)."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        way = draw(st.sampled_from(("up", "down", "UP", "sideways", "", "up:1")))
        number = draw(
            st.one_of(
                digits,
                st.sampled_from([str(p) for p in post_ids]),
                st.text(max_size=20),
                st.just("0"),
                st.just("9" * 19),
            )
        )
        made = f"paperclub:vote:{way}:{number}"
    elif kind == 1:
        rest = draw(
            st.one_of(
                st.text(min_size=1, max_size=80),
                st.just("~" + "0" * 40),
                st.just("~"),
                st.builds(
                    lambda q, o: more_value(text=q, offset=o),
                    st.text(max_size=30),
                    st.integers(-5, 10_000),
                ),
            )
        )
        made = f"paperclub:{SEARCH_MORE}:{rest}"
    elif kind == 2:  # a real 'More results' button as the bot makes them (its key is known)
        value = more_value(text=draw(option_text(limit=300)), offset=draw(st.integers(0, 50)))
        made = render.custom_id(action=SEARCH_MORE, value=value, key=key)
    elif kind == 3:
        made = draw(st.sampled_from(NEAR_MISSES))
    else:
        made = draw(st.text(min_size=1, max_size=100))
    return made[:100] or "x"


def _post_button(fake: FakeDiscord, *, channel_id: str, custom_id: str) -> str:
    """A message of the bot's holding one button with this custom id (as an older version of
    the bot, or a tampered client, might have left; one a message, since a 'More results'
    click replaces the message it is on): its id."""
    button = {"type": 2, "style": 2, "label": "button", "custom_id": custom_id}
    body = {
        "content": "a button",
        "components": [{"type": 1, "components": [button]}],
        "nonce": "fuzz",
        "allowed_mentions": {"parse": []},
    }
    request = urllib.request.Request(
        f"{fake.api_url}/channels/{channel_id}/messages",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bot {fake.token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return str(json.loads(answer.read())["id"])


@pytest.mark.timeout(scaled(300, 3600))
@fuzz(scaled(200, 2000))
@given(data=st.data())
def test_clicks_on_any_button_are_answered_or_ignored_cleanly(
    world: World, data: st.DataObject
) -> None:
    fake, deps = world.fake, world.harness.platform.client.deps
    ids = data.draw(
        st.lists(
            custom_ids(world.post_ids, deps.keys.key), min_size=1, max_size=4, unique=True
        ).filter(lambda xs: SENTINEL not in xs)
    )
    world.trap.clear()
    messages = [_post_button(fake, channel_id=fake.channel_id, custom_id=c) for c in ids]
    last = _post_button(fake, channel_id=fake.channel_id, custom_id=SENTINEL)
    clicked = []
    for custom_id, message_id in zip(ids, messages, strict=True):
        user = data.draw(st.sampled_from((fake.alice_id, fake.bob_id)))
        clicked.append((custom_id, fake.click(message_id, custom_id, user=user).id))
    # Interactions are read in order: once the last one is answered, every earlier one was
    # read, and each task that took one is then awaited.
    sentinel = fake.click(last, SENTINEL)
    fake.wait_callback(sentinel.id, timeout=20)
    interactions_done(world.harness)
    for custom_id, interaction_id in clicked:
        ours = bool(VOTE.fullmatch(custom_id) or MORE.fullmatch(custom_id))
        answered = fake.interaction(interaction_id).callbacks
        event(f"click: {'ours' if ours else 'not ours'}")
        # Ours get an answer (a deferred update); anything else is left alone, as Discord
        # expects of an app that sent no such button.
        assert bool(answered) == ours, (custom_id, answered)
    _clean(world)
