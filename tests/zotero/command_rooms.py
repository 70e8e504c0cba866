"""`/paperclub watch zotero ...` typed on each platform: the real wiring with the console, Slack
(Bolt over Socket Mode against tests/fakeslack) or Discord (discord.py against
tests/fakediscord), its settings pointed at a running fake Zotero with PAPERCLUB_SECRET_KEY set;
what a person reads of each answer, and what in it would ping or hide what was typed."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from rich.console import Console as RichConsole

from bot.config.settings import Settings
from bot.config.sources import SourcesSettings
from bot.console.chat import KEY as CONSOLE_KEY
from bot.console.repl import handle_line
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.ports.zotero import ZoteroLink
from bot.sealing import new_key
from bot.services.commands.entry import find
from bot.services.commands.table import TABLE
from tests.console.on_wiring import console_on_wiring
from tests.discord.conftest import running
from tests.fakediscord import FakeDiscord
from tests.fakeslack import FakeSlack, slash_command_payload, socket_mode_app
from tests.fakezotero import FakeZotero
from tests.hostile.discord_view import payload_view, pings
from tests.hostile.slack_view import blocks_view, payload_pings, shows
from tests.slack.conftest import (
    ADMIN,
    CHANNEL,
    KEY,
    MEMBER,
    SECRET,
    FakeClock,
    closed_lookups,
    shown_mrkdwn,
)
from tests.sources.scenario_discord import discord_text
from tests.wired import build_slack_bot

WAIT = 10.0
MONDAY = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
PLATFORMS = ("console", "slack", "discord")
EPHEMERAL = 1 << 6  # Discord's message flag: only the person who asked sees it


@dataclass(frozen=True)
class Said:
    """An answer: the words a person reads, the payload as the platform got it, and whether
    only the person who typed the command sees it (a terminal is one person's)."""

    text: str
    payload: dict[str, Any]
    platform: str
    private: bool = True

    def harmful(self, *, typed: str) -> list[str]:
        """What pings in it, and `typed` when it cannot be read there as typed."""
        if self.platform == "console":
            lines = self.text.splitlines()
            return [] if any(typed in line for line in lines) else [typed]
        if self.platform == "slack":
            blocks = self.payload.get("blocks") or []
            seen = blocks_view(blocks=blocks, text=self.payload.get("text")).text
            found = payload_pings(payload=self.payload)
        else:
            shown = payload_view(payload=self.payload)
            seen, found = shown.text, pings(view=shown)
        return found + ([] if shows(typed=typed, visible=seen) else [typed])


@dataclass
class Room:
    """One platform's bot on its own archive; `say` types a command as the admin or a member."""

    platform: str
    database: Database
    key: ChannelKey
    say_as: Callable[[str, bool], Said]

    def say(self, text: str, *, member: bool = False) -> Said:
        """`/paperclub TEXT` typed (by a member who is no admin, when asked)."""
        return self.say_as(text, member)

    def link(self) -> ZoteroLink | None:
        """The channel's link as the archive holds it."""
        with self.database(write=False) as store:
            return store.zotero_link(channel=self.key)

    def save(self, link: ZoteroLink) -> None:
        """Keep a link as given (what the sync would have written)."""
        with self.database() as store:
            store.save_zotero_link(link=link)


def zotero_settings(*, settings: Settings, zotero_url: str, secret: str | None) -> Settings:
    """`settings` with Zotero's API at the fake (a loopback address, allowed) and the secret."""
    return replace(
        settings,
        secret_keys=(secret,) if secret else (),
        zotero_api=zotero_url,
        sources=SourcesSettings(allow_private=True),
    )


@contextmanager
def console_room(*, url: str, zotero_url: str, secret: str | None) -> Iterator[Room]:
    """The console (its one person is the admin)."""
    raw = io.StringIO()
    terminal = RichConsole(file=raw, width=5000, highlight=False, emoji=False)
    base = Settings(database_url=url, **closed_lookups())
    settings = zotero_settings(settings=base, zotero_url=zotero_url, secret=secret)
    database = Database(url=url)
    with console_on_wiring(
        database=database, terminal=terminal, clock=FakeClock(MONDAY), settings=settings
    ) as (_wiring, platform):

        def say(text: str, member: bool) -> Said:
            assert not member, "the console has one person, its admin"
            start = len(raw.getvalue())
            handle_line(app=platform.app, line=f"/paperclub {text}")
            return Said(text=raw.getvalue()[start:], payload={}, platform="console")

        yield Room(platform="console", database=database, key=CONSOLE_KEY, say_as=say)


@contextmanager
def slack_room(*, url: str, zotero_url: str, secret: str | None) -> Iterator[Room]:
    """Slack over Socket Mode: an admin of the workspace, and a member."""
    with FakeSlack(ts_base=int(MONDAY.timestamp()) - 86_400) as fake:
        fake.add_channel(CHANNEL, "general")
        fake.add_user(ADMIN, "ana", is_admin=True)
        fake.add_user(MEMBER, "bo")
        base = Settings(
            slack_bot_token=fake.bot_token,
            slack_app_token=fake.app_token,
            slack_signing_secret=SECRET,
            slack_api_url=fake.base_url,
            database_url=url,
            channel=CHANNEL,
            http_port=0,
            **closed_lookups(),
        )
        settings = zotero_settings(settings=base, zotero_url=zotero_url, secret=secret)
        database = Database(url=url)
        bot = build_slack_bot(
            settings=settings, database=database, clock=FakeClock(MONDAY), mode="socket"
        )

        def say(text: str, member: bool) -> Said:
            response = fake.new_response_url()
            # Slack sends typed & < > as entities (bot/slack/text.typed undoes them).
            sent = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            payload = slash_command_payload(
                text=sent, user_id=MEMBER if member else ADMIN, response_url=response
            )
            fake.wait_ack(fake.push("slash_commands", dict(payload)))
            answer = fake.wait_response(response, timeout=WAIT)
            private = answer.get("response_type") == "ephemeral"
            return Said(
                text=shown_mrkdwn(answer), payload=answer, platform="slack", private=private
            )

        try:
            with socket_mode_app(bot.app, fake):
                yield Room(platform="slack", database=database, key=KEY, say_as=say)
        finally:
            bot.close()
            database.dispose()


@contextmanager
def discord_room(*, url: str, zotero_url: str, secret: str | None) -> Iterator[Room]:
    """Discord: the guild's owner (bob) is the admin, alice a member."""
    with FakeDiscord() as fake:
        base = Settings(
            discord_token=fake.token,
            discord_api_url=fake.api_url,
            discord_gateway_url=fake.gateway_url,
            discord_channel=fake.channel_id,
            database_url=url,
            **closed_lookups(),
        )
        settings = zotero_settings(settings=base, zotero_url=zotero_url, secret=secret)
        database = Database(url=url)
        try:
            with contextmanager(running)(
                fake=fake, settings=settings, database=database
            ) as harness:

                def say(text: str, member: bool) -> Said:
                    sub, _, rest = text.partition(" ")
                    entry = find(table=TABLE, name=sub)
                    assert entry is not None, sub
                    options = {entry.arguments[0].name: rest} if rest else None
                    user = fake.alice_id if member else fake.bob_id
                    record = fake.slash("paperclub", sub, options, user=user)
                    flags = int(fake.wait_callback(record.id)["data"].get("flags") or 0)
                    message = harness.answer(record.id)
                    return Said(
                        text=discord_text(message),
                        payload=message,
                        platform="discord",
                        private=bool(flags & EPHEMERAL),
                    )

                yield Room(platform="discord", database=database, key=harness.key, say_as=say)
        finally:
            database.dispose()


ROOMS = {"console": console_room, "slack": slack_room, "discord": discord_room}


# The fake Zotero's keys and libraries: a group with a reading list and a collection whose name
# is written to hurt a chat; a key that may write it, one that may only read, and a user's own.
GOOD = "P9NiFoyLeZu2bZNvvuQPDWsd"
READ_ONLY = "R3adOnlyKeyR3adOnlyKey00"
OWN = "0wnKey0wnKey0wnKey0wnKey"
USER, GROUP, OTHER_GROUP = 123456, 4242, 5151
READING, HOSTILE = "ABCD2345", "WXYZ6789"
HOSTILE_NAME = "<!channel> @everyone <@U0ADMIN> **bold** [x](https://evil.example) 🚀"


@contextmanager
def fake_zotero() -> Iterator[FakeZotero]:
    """The fake Zotero with the keys and collections above."""
    with FakeZotero() as zotero:
        zotero.add_key(key=GOOD, user_id=USER, groups={GROUP: True, OTHER_GROUP: True})
        zotero.add_key(key=READ_ONLY, user_id=USER, write=False, groups={GROUP: False})
        zotero.add_key(key=OWN, user_id=777, groups={})
        collections = [
            {"key": READING, "name": "Reading List"},
            {"key": HOSTILE, "name": HOSTILE_NAME},
        ]
        zotero.seed(kind="groups", id=GROUP, objects="collections", data=collections)
        yield zotero


SEALING_KEY = new_key()  # PAPERCLUB_SECRET_KEY of the rooms the command tests open
