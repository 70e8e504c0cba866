"""The scenario's platforms: the real wiring with the console, Slack (Socket Mode, against
tests/fakeslack) or Discord (against tests/fakediscord) plug-in, each on a SQLite file and a
hand-moved clock, and a person typing /paperclub commands as that platform delivers them."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import time
from types import SimpleNamespace
from typing import Any

from rich.console import Console as RichConsole

from bot.config.settings import Settings
from bot.console.chat import KEY as CONSOLE_KEY
from bot.console.plugin import ConsolePlatform, open_console
from bot.console.repl import handle_line
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.runtime.wiring import Wiring
from bot.services.club import Club
from bot.wording.console import TYPED_COMMANDS
from bot.wording.suggestions import ADD, ADD_LABEL, HIDE, HIDE_LABEL
from tests.discord.conftest import DiscordHarness, running
from tests.fakediscord import FakeDiscord
from tests.fakeslack import (
    FakeSlack,
    block_actions_payload,
    slash_command_payload,
    socket_mode_app,
)
from tests.hostile.discord_view import payload_view, pings
from tests.hostile.slack_view import blocks_view, payload_pings, shows
from tests.slack.conftest import (
    ADMIN,
    CHANNEL,
    KEY,
    MEMBER,
    SECRET,
    FakeClock,
    free_port,
    shown_mrkdwn,
)
from tests.sources.scenario_support import BEFORE, at_morning, import_read_paper
from tests.wired import build_slack_bot

WAIT = 10.0
NINE, BERLIN, WEEKDAYS = time(9, 0), "Europe/Berlin", frozenset(range(1, 6))


def _closed() -> dict[str, Any]:
    """Metadata look-ups that fail fast on closed local ports: no test touches the internet."""
    return {
        "arxiv_api_url": f"http://127.0.0.1:{free_port()}/api/query",
        "crossref_api_url": f"http://127.0.0.1:{free_port()}",
        "lookup_timeout": 1,
    }


@dataclass
class ConsoleRoom:
    """The console: what the person types at the prompt, and the terminal's text."""

    wiring: Wiring
    clock: FakeClock
    database: Database
    platform: ConsolePlatform
    raw: io.StringIO
    key: ChannelKey = CONSOLE_KEY

    def command(self, text: str) -> str:
        """Type `/paperclub TEXT`; what the terminal printed for it."""
        start = len(self.raw.getvalue())
        handle_line(app=self.platform.app, line=f"/paperclub {text}")
        return self.raw.getvalue()[start:]

    def shown(self, *, message_id: str) -> str:
        """A terminal keeps no messages apart: everything it printed."""
        return self.raw.getvalue()

    def click(self, *, message_id: str, suggestion_id: int, label: str) -> str:
        """A button on the console is the command the tray prints for it: type that."""
        action = {ADD_LABEL: ADD, HIDE_LABEL: HIDE}[label]
        typed = f"{TYPED_COMMANDS[action][0]} {suggestion_id}"
        assert typed in self.raw.getvalue()  # the tray said what to type
        start = len(self.raw.getvalue())
        handle_line(app=self.platform.app, line=typed)
        return self.raw.getvalue()[start:]

    def offered(self, *, message_id: str) -> set[str] | None:
        """A terminal prints; it redraws nothing in place."""
        return None

    def harmful(self, *, message_id: str, titles: list[str]) -> list[str]:
        """The titles not printed whole, as typed, on one line (a terminal pings nobody)."""
        lines = self.raw.getvalue().splitlines()
        return [t for t in titles if not any(t in line for line in lines)]


@contextmanager
def console_room(*, url: str) -> Iterator[ConsoleRoom]:
    """The console on the real wiring; its start posts the paper read before the fortnight."""
    database = Database(url=url)
    import_read_paper(database=database)
    raw = io.StringIO()
    terminal = RichConsole(file=raw, width=5000, highlight=False, emoji=False)

    def build(*, settings: Settings, club: Club, mode: str) -> ConsolePlatform:
        """The plug-in's own start-up, on the test's terminal."""
        return open_console(club=club, terminal=terminal)

    plugin = SimpleNamespace(
        NAME="console",
        configured=lambda *, settings: True,
        missing=lambda *, settings, mode: [],
        build=build,
    )
    clock = FakeClock(at_morning(day=BEFORE))
    settings = Settings(
        database_url=url, post_time=NINE, timezone=BERLIN, days=WEEKDAYS, **_closed()
    )
    wiring = Wiring(settings=settings, database=database, clock=clock, plugins=[plugin])
    platform = wiring.platforms["console"]
    assert isinstance(platform, ConsolePlatform)
    try:
        yield ConsoleRoom(wiring=wiring, clock=clock, database=database, platform=platform, raw=raw)
    finally:
        wiring.close()
        database.dispose()


@dataclass
class SlackRoom:
    """Slack over Socket Mode: slash commands pushed through the fake, answered by response_url."""

    wiring: Wiring
    clock: FakeClock
    database: Database
    fake: FakeSlack
    key: ChannelKey = KEY

    def command(self, text: str) -> str:
        """Send `/paperclub TEXT` as the workspace's admin; the reply's text."""
        url = self.fake.new_response_url()
        payload = slash_command_payload(text=text, user_id=ADMIN, response_url=url)
        self.fake.wait_ack(self.fake.push("slash_commands", dict(payload)))
        return shown_mrkdwn(self.fake.wait_response(url, timeout=WAIT))

    def shown(self, *, message_id: str) -> str:
        """The message's mrkdwn, as a member reads it."""
        return shown_mrkdwn(self.fake.message(CHANNEL, message_id))

    def click(self, *, message_id: str, suggestion_id: int, label: str) -> str:
        """A member clicks the button through Socket Mode; the ephemeral answer."""
        message = self.fake.message(CHANNEL, message_id)
        [button] = [
            e
            for b in message["blocks"]
            if b["type"] == "actions"
            for e in b["elements"]
            if e["text"]["text"] == label and e["value"] == str(suggestion_id)
        ]
        url = self.fake.new_response_url()
        payload = block_actions_payload(
            button["action_id"],
            button["value"],
            user_id=MEMBER,
            message_ts=message_id,
            channel_id=CHANNEL,
            response_url=url,
        )
        self.fake.wait_ack(self.fake.push("interactive", payload))
        return shown_mrkdwn(self.fake.wait_response(url, timeout=WAIT))

    def offered(self, *, message_id: str) -> set[str] | None:
        """The values of the message's buttons as it stands."""
        message = self.fake.message(CHANNEL, message_id)
        return {
            str(e["value"])
            for b in message["blocks"]
            if b["type"] == "actions"
            for e in b["elements"]
        }

    def harmful(self, *, message_id: str, titles: list[str]) -> list[str]:
        """What the message pings, and the titles a member cannot read as typed."""
        payload = self.fake.message(CHANNEL, message_id)
        seen = blocks_view(blocks=payload.get("blocks") or [], text=payload.get("text"))
        return payload_pings(payload=payload) + [
            t for t in titles if not shows(typed=t, visible=seen.text)
        ]


@contextmanager
def slack_room(*, url: str) -> Iterator[SlackRoom]:
    """The Slack bot in Socket Mode on a fresh fake workspace, the paper read before the
    fortnight posted by the sweep of that Friday."""
    ts_base = int(at_morning(day=BEFORE).timestamp()) - 86_400
    with FakeSlack(ts_base=ts_base) as fake:
        fake.add_channel(CHANNEL, "general")
        fake.add_user(ADMIN, "ana", is_admin=True)
        fake.add_user(MEMBER, "bo")
        database = Database(url=url)
        import_read_paper(database=database)
        settings = Settings(
            slack_bot_token=fake.bot_token,
            slack_app_token=fake.app_token,
            slack_signing_secret=SECRET,
            slack_api_url=fake.base_url,
            database_url=url,
            channel=CHANNEL,
            post_time=NINE,
            timezone=BERLIN,
            days=WEEKDAYS,
            http_port=0,
            **_closed(),
        )
        clock = FakeClock(at_morning(day=BEFORE))
        bot = build_slack_bot(settings=settings, database=database, clock=clock, mode="socket")
        try:
            with socket_mode_app(bot.app, fake):
                bot.wiring.sweep()
                yield SlackRoom(wiring=bot.wiring, clock=clock, database=database, fake=fake)
        finally:
            bot.close()
            database.dispose()


def _discord_text(message: dict[str, Any]) -> str:
    """What a member reads in a Discord message: its content and its embeds' words."""
    parts = [str(message.get("content") or "")]
    for embed in message.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        for item in embed.get("fields") or []:
            parts += [str(item.get("name") or ""), str(item.get("value") or "")]
    return "\n".join(p for p in parts if p)


@dataclass
class DiscordRoom:
    """Discord: /paperclub <sub> what:<rest> run by the guild's owner through the fake."""

    wiring: Wiring
    clock: FakeClock
    database: Database
    harness: DiscordHarness
    key: ChannelKey

    def command(self, text: str) -> str:
        """Run `/paperclub SUB REST` as the owner (REST in the subcommand's one option)."""
        sub, _, rest = text.partition(" ")
        options = {"what": rest} if rest else None
        fake = self.harness.fake
        return _discord_text(self.harness.command(sub, options, user=fake.bob_id))

    def shown(self, *, message_id: str) -> str:
        """The message's words."""
        return _discord_text(self.harness.fake.message(message_id))

    def click(self, *, message_id: str, suggestion_id: int, label: str) -> str:
        """A member (alice) clicks the button through the gateway; the follow-up only the
        clicker reads."""
        fake = self.harness.fake
        [button] = [
            c
            for row in fake.message(message_id)["components"]
            for c in row["components"]
            if c["label"] == label and c["custom_id"].endswith(f":{suggestion_id}")
        ]
        record = fake.click(message_id, button["custom_id"], user=fake.alice_id)

        def answered() -> bool:
            live = fake.state.interactions.lookup(interaction_id=record.id)
            return bool(live.followup_ids)

        fake.wait_until(answered, timeout=WAIT)
        [followup] = fake.interaction(record.id).followup_ids
        return _discord_text(fake.message(followup))

    def offered(self, *, message_id: str) -> set[str] | None:
        """The values the message's buttons carry as it stands (a custom id's last part)."""
        rows = self.harness.fake.message(message_id)["components"]
        return {str(c["custom_id"]).rsplit(":", 1)[-1] for row in rows for c in row["components"]}

    def harmful(self, *, message_id: str, titles: list[str]) -> list[str]:
        """What the message pings or draws as a mention (but the people who decided), and the
        titles a member cannot read as typed."""
        fake = self.harness.fake
        seen = payload_view(payload=fake.message(message_id))
        # A decided suggestion names who decided (alice's click, bob's command) as a mention.
        deciders = {fake.alice_id, fake.bob_id}
        return pings(view=seen, people=deciders) + [
            t for t in titles if not shows(typed=t, visible=seen.text)
        ]


@contextmanager
def discord_room(*, url: str) -> Iterator[DiscordRoom]:
    """The Discord bot connected to a fresh fake guild, the paper read before the fortnight
    posted by the sweep of that Friday."""
    with FakeDiscord() as fake:
        database = Database(url=url)
        import_read_paper(database=database)
        settings = Settings(
            discord_token=fake.token,
            discord_api_url=fake.api_url,
            discord_gateway_url=fake.gateway_url,
            discord_channel=fake.channel_id,
            database_url=url,
            post_time=NINE,
            timezone=BERLIN,
            days=WEEKDAYS,
            **_closed(),
        )
        try:
            with contextmanager(running)(
                fake=fake, settings=settings, database=database
            ) as harness:
                harness.clock.at = at_morning(day=BEFORE)
                harness.wiring.sweep()
                yield DiscordRoom(
                    wiring=harness.wiring,
                    clock=harness.clock,
                    database=database,
                    harness=harness,
                    key=harness.key,
                )
        finally:
            database.dispose()
