"""Event ingestion on Discord: votes (buttons, reactions) and thread comments through the real
plug-in (discord.py's gateway and REST, our listeners, the core, SQLite), beside a bare
discord.py client built alike whose listeners only count (and defer each click).

    python -m bench.discord_events [EVENTS [REPEATS]]

A run connects the bot (the plug-in on the shared wiring, a copy of a migrated SQLite file) to
a local fake Discord, posts today's paper and plays a fixed mix in rounds. For each, the fake
drops the link and holds the RESUME while the round is made (clicks on the post's buttons,
reactions on it and elsewhere, replies, edits, deletes in its thread), then lets it go and
replays the round as one burst, as Discord does after a lost link. A round is timed from there
until the client counted (`client.handled`) every event sent and every click has its callback;
the first warms up. The bare client gets the same mix from a fresh fake holding a copy of the
post. The archive is then compared with what the mix leaves by issue 4's rules.

What the ratio measures: our listeners, core and database on top of discord.py's own work
(reading the gateway, parsing, dispatching, answering clicks) in one process draining a backlog.
The fake shares the process and its GIL (on its own loop thread): its part, framing and sending
the burst and taking the callbacks, is the same in both runs but for our redraws (coalesced,
about one a second), which are ours to pay; making the events is outside the clock. What it
does not measure: a network, Discord's rate limits, redeliveries, slash commands, or one
person's votes in quick succession: in a round each person votes at most once and each comment
changes at most once, since the bot handles events concurrently and the latest action wins.
"""

from __future__ import annotations

import asyncio
import gc
import shutil
import sys
import tempfile
import threading
import time
from collections import deque
from datetime import time as clock_time
from pathlib import Path
from typing import Any

import discord
from sqlalchemy import text

from bench.discord_mix import GLYPHS, ROUND, USERS, emoji, make_mix
from bench.event_mix import Action, Expected
from bench.events import FixedClock, table, template
from bench.stats import figure
from bot.config.settings import Settings
from bot.db.database import Database
from bot.discord import endpoints, plugin
from bot.discord.bridge import Bridge
from bot.discord.client import Handled, intents
from bot.discord.plugin import DiscordPlatform
from bot.ports import Platform
from bot.runtime.wiring import Wiring
from bot.services.club import Club
from tests.fakediscord import FakeDiscord

# The gateway events each client counts once (`handled`): every kind but the clicks.
COUNTED = {
    "MESSAGE_CREATE",
    "MESSAGE_UPDATE",
    "MESSAGE_DELETE",
    "MESSAGE_DELETE_BULK",
    "MESSAGE_REACTION_ADD",
    "MESSAGE_REACTION_REMOVE",
}
RESUME, WAIT = 6, 60.0  # the gateway's RESUME opcode; seconds before giving up


class QuickPlugin:
    """The Discord plug-in, ready 50 ms after the guild arrives instead of discord.py's 2 s."""

    NAME = plugin.NAME
    configured, missing = staticmethod(plugin.configured), staticmethod(plugin.missing)

    def build(self, *, settings: Settings, club: Club, mode: str) -> Platform:
        """The plug-in's own build, with the short ready wait."""
        return plugin.build_platform(settings=settings, club=club, guild_ready_timeout=0.05)


class BareClient(discord.Client):
    """discord.py as ours is built (intents, no message cache, ready 50 ms after the guild),
    the same events heard, each only counted; a click is deferred, as Discord needs."""

    def __init__(self) -> None:
        """Counted like ours: `handled`, `ready`."""
        super().__init__(
            intents=intents(),
            max_messages=None,
            guild_ready_timeout=0.05,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.handled, self.ready = Handled(), threading.Event()

    async def _count(self, *_args: Any) -> None:
        """One event finished."""
        await self.handled.after(_idle())

    on_message = on_raw_message_edit = on_raw_message_delete = _count
    on_raw_bulk_message_delete = on_raw_reaction_add = on_raw_reaction_remove = _count

    async def on_ready(self) -> None:
        """Connected."""
        self.ready.set()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """The least a click needs."""
        await interaction.response.defer()


async def _idle() -> None:
    """A bare listener's work: none."""


class Player:
    """Makes the mix's events in one fake, round by round, and times a client draining them."""

    def __init__(
        self, *, fake: FakeDiscord, handled: Handled, post: dict[str, Any], users: dict[str, str]
    ) -> None:
        """The fake, its client's counter, the post, the members (person of the mix -> id)."""
        self.fake, self.handled, self.post, self.users = fake, handled, post, users
        up, down = (button["custom_id"] for button in post["components"][0]["components"])
        self.buttons = {1: up, -1: down}  # as a member sees them on the post
        self.other = fake.user_says(text="an ordinary message", user=users[USERS[0]])["id"]
        self.comments: dict[str, str] = {}  # comment of the mix -> its message id

    def make(self, *, action: Action) -> str | None:
        """One event of the mix made in the fake; a click's interaction id."""
        fake, user, post = self.fake, self.users[action.user], self.post["id"]
        if action.kind == "click":
            return fake.click(post, self.buttons[action.value], user=user).id
        if action.kind in ("react", "unreact"):
            react = fake.react if action.kind == "react" else fake.unreact
            react(self.other if action.ts else post, emoji(name=action.name), user=user)
        elif action.kind == "reply":
            made = fake.user_says(text=action.text, user=user, thread=post)
            self.comments[action.ts] = made["id"]
        elif action.kind == "edit":
            fake.user_edits(self.comments[action.ts], action.text)
        else:
            fake.user_deletes(self.comments[action.ts])
        return None

    def sent(self) -> int:
        """Gateway events sent so far that the client counts: not the echo of our own redraws
        (a MESSAGE_UPDATE of the bot's message), which the client ignores uncounted."""
        bot_id = self.fake.bot_id
        with self.fake.state.lock:
            session = self.fake.gateway.current
            frames = session.sent if session else []
            return sum(
                frame["t"] in COUNTED
                and not (
                    frame["t"] == "MESSAGE_UPDATE"
                    and (frame["d"].get("author") or {}).get("id") == bot_id
                )
                for frame in frames
            )

    def drained(self, *, clicks: deque[str]) -> None:
        """Wait until the client counted every event sent (the count rises while the burst is
        sent) and the fake has a callback for every click."""
        handled = self.handled
        while not handled.wait(count=(target := self.sent()), timeout=WAIT) or self.sent() > target:
            if handled.count < target:
                raise RuntimeError(f"{target - handled.count} events not handled in time")
        interactions = self.fake.state.interactions

        def answered() -> bool:
            """Every click has its callback (checked oldest first, each once)."""
            while clicks and interactions.lookup(interaction_id=clicks[0]).callbacks:
                clicks.popleft()
            return not clicks

        self.fake.wait_until(answered, timeout=WAIT)

    def play(self, *, actions: list[Action]) -> float:
        """One round, replayed as a burst on RESUME; seconds from its release until done."""
        resumes = len(self.fake.gateway_frames(op=RESUME))
        with self.fake.disconnected():
            clicks = deque(c for c in (self.make(action=a) for a in actions) if c is not None)
            self.fake.wait_until(
                lambda: len(self.fake.gateway_frames(op=RESUME)) > resumes, timeout=WAIT
            )
            gc.collect()  # garbage left by making the round is not the clients' to collect
            start = time.perf_counter()
        self.drained(clicks=clicks)
        return time.perf_counter() - start

    def rate(self, *, mix: list[list[Action]]) -> float:
        """Events per second over every round but the first, which warms up."""
        seconds = [self.play(actions=actions) for actions in mix]
        return sum(len(actions) for actions in mix[1:]) / sum(seconds[1:])


def ours(*, mix: list[list[Action]], database: Database) -> tuple[float, str, Player]:
    """Our rate, what the check of the archive found right after the last round, the player
    (discord.py is pointed back where it was: the plug-in points it at the fake)."""
    urls = endpoints.current()
    try:
        return _ours(mix=mix, database=database)
    finally:
        endpoints.point_at(api_url=urls[0], gateway_url=urls[1])


def _ours(*, mix: list[list[Action]], database: Database) -> tuple[float, str, Player]:
    """ours(), inside the restore."""
    with FakeDiscord() as fake:
        users = {user: fake.add_member(user) for user in USERS}
        settings = Settings(
            discord_token=fake.token,
            discord_api_url=fake.api_url,
            discord_channel=fake.channel_id,
            discord_gateway_url=fake.gateway_url,
            database_url=database.url,
            post_time=clock_time(9, 0),
            timezone="Europe/Berlin",
            days=frozenset(range(1, 6)),
            arxiv_api_url="http://127.0.0.1:9/api/query",
            crossref_api_url="http://127.0.0.1:9",
        )
        wiring = Wiring(
            settings=settings, database=database, clock=FixedClock(), plugins=[QuickPlugin()]
        )
        try:
            platform = wiring.platforms[plugin.NAME]
            assert isinstance(platform, DiscordPlatform)
            platform.connect()
            if not platform.client.ready.wait(WAIT):
                raise RuntimeError("the bot never got ready")
            wiring.sweep()  # today's post, at the fixed clock's 09:00
            post = next(m for m in fake.messages() if m["author"]["id"] == fake.bot_id)
            player = Player(fake=fake, handled=platform.client.handled, post=post, users=users)
            rate = player.rate(mix=mix)
            return rate, compare(mix=mix, player=player, database=database), player
        finally:
            wiring.close()  # sends the last coalesced redraws while the fake still listens


def bare(*, mix: list[list[Action]], like: Player) -> float:
    """The bare client's rate over the same mix, from a fresh fake holding a copy of the post
    (discord.py is pointed back where it was afterwards)."""
    urls = endpoints.current()
    try:
        return _bare(mix=mix, like=like)
    finally:
        endpoints.point_at(api_url=urls[0], gateway_url=urls[1])


def _bare(*, mix: list[list[Action]], like: Player) -> float:
    """bare(), inside the restore."""
    with FakeDiscord() as fake:
        users = {user: fake.add_member(user) for user in USERS}
        endpoints.point_at(api_url=fake.api_url, gateway_url=fake.gateway_url)
        bridge = Bridge(name="bare")
        client = BareClient()
        connection = None
        try:
            bridge.call(client.login(fake.token))
            connection = asyncio.run_coroutine_threadsafe(client.connect(), bridge.loop)
            if not client.ready.wait(WAIT):
                raise RuntimeError("the bare client never got ready")
            body = {key: like.post[key] for key in ("content", "embeds", "components")}
            copy, _ = fake.state.store.create(
                channel_id=fake.channel_id, author=fake.state.bot_user(), body=body
            )
            fake.user_creates_thread(name="discussion", from_message=copy["id"])
            player = Player(fake=fake, handled=client.handled, post=copy, users=users)
            return player.rate(mix=mix)
        finally:
            bridge.call(client.close())
            if connection is not None:
                connection.exception(timeout=WAIT)
            bridge.close()


def compare(*, mix: list[list[Action]], player: Player, database: Database) -> str:
    """OK, or how the archive's votes (value, source) and comments (text, deleted), all on the
    one post, differ from what the mix leaves by the rules."""
    want = Expected()
    for action in (action for actions in mix for action in actions):
        want.apply(action=action)
    with database.engine.connect() as conn:
        sql = text("SELECT user_id, value, source FROM votes")
        got: dict[str, object] = {f"vote of {u}": (v, s) for u, v, s in conn.execute(sql)}
        sql = text("SELECT message_id, text, deleted FROM comments")
        got |= {f"comment {m}": (t, bool(d)) for m, t, d in conn.execute(sql)}
    wanted: dict[str, object] = {
        f"vote of {player.users[user]}": (value, source.replace(base, GLYPHS.get(base, base)))
        for user, (value, source) in want.votes.items()
        for base in [source.partition(":")[2]]  # reaction:+1 is reaction:👍 on Discord
    }
    wanted |= {f"comment {player.comments[ts]}": c for ts, c in want.comments.items()}
    differ = [
        (key, wanted.get(key), got.get(key))
        for key in sorted(wanted.keys() | got.keys())
        if wanted.get(key) != got.get(key)
    ]
    if not differ:
        return "OK"
    key, wanted_one, got_one = differ[0]
    return f"MISMATCH: {len(differ)} differ; {key}: want {wanted_one!r}, got {got_one!r}"


def run(*, events: int = 1000, repeats: int = 5) -> list[dict[str, Any]]:
    """`repeats` runs of `events` timed events (rounds of up to ROUND) after a warm-up round,
    ours then the bare client's; one result row."""
    size = min(ROUND, events)
    mix = make_mix(rounds=1 + -(-events // size), size=size)
    rates: list[tuple[float, float, str]] = []  # ours, bare, the check of our archive
    urls = endpoints.current()  # both clients point discord.py at their fake: put it back
    with tempfile.TemporaryDirectory(prefix="paperclub-discord-") as folder:
        source = template(folder=Path(folder))
        for repeat in range(repeats):
            path = shutil.copyfile(source, source.with_name(f"run-{repeat}.db"))
            database = Database(url=f"sqlite:///{path}")
            try:
                rate, check, player = ours(mix=mix, database=database)
                rates.append((rate, bare(mix=mix, like=player), check))
            finally:
                database.dispose()
                endpoints.point_at(api_url=urls[0], gateway_url=urls[1])
    check = next((c for *_, c in rates if c != "OK"), "OK")
    row = figure(
        name="event ingestion (discord)",
        unit="events/s",
        ours=[r[0] for r in rates],
        baseline="bare discord.py",
        theirs=[r[1] for r in rates],
    )
    return [
        {
            **row,
            "events": size * (len(mix) - 1),
            "repeats": repeats,
            "counts_match": check == "OK",
            "check": check,
        }
    ]


if __name__ == "__main__":
    numbers = [int(arg) for arg in sys.argv[1:3]]  # events a run, runs
    rows = run(**dict(zip(("events", "repeats"), numbers, strict=False)))
    print(table(rows=rows))
    raise SystemExit(0 if rows[0]["counts_match"] else 1)
