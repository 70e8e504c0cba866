"""The meetings scenario's rooms: each platform's room of the sources scenario (the real
wiring and plug-in against its fake, or a recorded terminal) with what a meeting adds: who is
admin and member, the reminders the platform holds, and their RSVP buttons."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bot.console.chat import USER as CONSOLE_USER
from bot.console.repl import handle_line
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.runtime.wiring import Wiring
from bot.services.commands.entry import find
from bot.services.commands.table import TABLE
from bot.wording.console import TYPED_ANSWERS
from tests.fakeslack import block_actions_payload, slash_command_payload
from tests.hostile.discord_view import payload_view, pings
from tests.hostile.slack_view import blocks_view, payload_pings, shows
from tests.slack.conftest import ADMIN, CHANNEL, MEMBER, FakeClock, shown_mrkdwn
from tests.sources.scenario_console import ConsoleRoom, console_room
from tests.sources.scenario_discord import DiscordRoom, discord_room, discord_text
from tests.sources.scenario_slack import SlackRoom, slack_room
from tests.sources.scenario_support import WAIT

# The line each reminder starts with (bot/wording/meetings.reminder).
REMINDER_MARK = "📅 Reading group in "
# Discord's string options hold at most 6,000 characters: a longer text cannot be typed.
DISCORD_OPTION_MAX = 6_000


@dataclass
class ConsoleMeeting:
    """The console: one person, who is the admin; a button is the command it says to type."""

    base: ConsoleRoom

    @property
    def wiring(self) -> Wiring:
        return self.base.wiring

    @property
    def clock(self) -> FakeClock:
        return self.base.clock

    @property
    def database(self) -> Database:
        return self.base.database

    @property
    def key(self) -> ChannelKey:
        return self.base.key

    admin = member = CONSOLE_USER

    def command(self, text: str, *, member: bool = False, as_user: str | None = None) -> str:
        """Type `/paperclub TEXT` (one person types everything)."""
        return self.base.command(text)

    def _printed(self) -> list[str]:
        """The terminal's text cut at each reminder: the reminders' own parts."""
        return self.base.raw.getvalue().split(REMINDER_MARK)[1:]

    def reminders(self) -> list[str]:
        """A terminal keeps no ids: each reminder is its place among the printed ones."""
        return [str(n) for n in range(len(self._printed()))]

    def shown(self, *, message_id: str) -> str:
        """The reminder's lines as printed (up to the next printed reminder)."""
        return REMINDER_MARK + self._printed()[int(message_id)]

    def rsvp(self, *, message_id: str, action: str) -> str:
        """Type the command the reminder prints for the button."""
        typed = TYPED_ANSWERS[action]
        assert typed in self.shown(message_id=message_id)  # the reminder said what to type
        start = len(self.base.raw.getvalue())
        handle_line(app=self.base.platform.app, line=typed)
        return self.base.raw.getvalue()[start:]

    def redraws(self) -> bool:
        """A terminal prints; it redraws nothing."""
        return False

    def harmful(self, *, message_id: str, typed: str) -> list[str]:
        """`typed` when no printed line of the reminder holds it whole (nothing pings here)."""
        lines = self.shown(message_id=message_id).splitlines()
        return [] if any(typed in line for line in lines) else [typed]


@dataclass
class SlackMeeting:
    """Slack over Socket Mode: the workspace's admin and a member."""

    base: SlackRoom
    admin: str = ADMIN
    member: str = MEMBER

    @property
    def wiring(self) -> Wiring:
        return self.base.wiring

    @property
    def clock(self) -> FakeClock:
        return self.base.clock

    @property
    def database(self) -> Database:
        return self.base.database

    @property
    def key(self) -> ChannelKey:
        return self.base.key

    def command(self, text: str, *, member: bool = False, as_user: str | None = None) -> str:
        """A signed slash command pushed through Socket Mode (by the admin, the member, or
        `as_user`); the response_url's text."""
        fake = self.base.fake
        url = fake.new_response_url()
        user = as_user or (self.member if member else self.admin)
        # Slack sends typed & < > as entities (bot/slack/text.typed undoes them).
        sent = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        payload = slash_command_payload(text=sent, user_id=user, response_url=url)
        fake.wait_ack(fake.push("slash_commands", dict(payload)))
        return shown_mrkdwn(fake.wait_response(url, timeout=WAIT))

    def _buttons(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """A message's buttons."""
        blocks = message.get("blocks") or []
        return [e for b in blocks if b["type"] == "actions" for e in b["elements"]]

    def reminders(self) -> list[str]:
        """The ts of each message with RSVP buttons."""
        return [
            str(m["ts"])
            for m in self.base.fake.messages(CHANNEL)
            if any(str(e["action_id"]).endswith("rsvp_going") for e in self._buttons(m))
        ]

    def shown(self, *, message_id: str) -> str:
        """The message's mrkdwn as it stands."""
        return self.base.shown(message_id=message_id)

    def rsvp(self, *, message_id: str, action: str) -> str:
        """The member's block_actions for the button, through Socket Mode; the ephemeral
        answer (sent after the redraw: chat.update is done by then)."""
        fake = self.base.fake
        message = fake.message(CHANNEL, message_id)
        [button] = [b for b in self._buttons(message) if str(b["action_id"]).endswith(action)]
        url = fake.new_response_url()
        payload = block_actions_payload(
            button["action_id"],
            button["value"],
            user_id=self.member,
            message_ts=message_id,
            channel_id=CHANNEL,
            response_url=url,
        )
        fake.wait_ack(fake.push("interactive", payload))
        return shown_mrkdwn(fake.wait_response(url, timeout=WAIT))

    def redraws(self) -> bool:
        """chat.update redraws it for everyone."""
        return True

    def harmful(self, *, message_id: str, typed: str) -> list[str]:
        """Pings, and `typed` when not readable as typed."""
        payload = self.base.fake.message(CHANNEL, message_id)
        seen = blocks_view(blocks=payload.get("blocks") or [], text=payload.get("text"))
        return payload_pings(payload=payload) + (
            [] if shows(typed=typed, visible=seen.text) else [typed]
        )


@dataclass
class DiscordMeeting:
    """Discord: the guild's owner (bob) is the admin, alice the member."""

    base: DiscordRoom

    @property
    def wiring(self) -> Wiring:
        return self.base.wiring

    @property
    def clock(self) -> FakeClock:
        return self.base.clock

    @property
    def database(self) -> Database:
        return self.base.database

    @property
    def key(self) -> ChannelKey:
        return self.base.key

    @property
    def admin(self) -> str:
        return self.base.harness.fake.bob_id

    @property
    def member(self) -> str:
        return self.base.harness.fake.alice_id

    def command(self, text: str, *, member: bool = False, as_user: str | None = None) -> str:
        """The /paperclub app command (by the admin, the member, or `as_user`), the rest of
        the line in the subcommand's option."""
        sub, _, rest = text.partition(" ")
        entry = find(table=TABLE, name=sub)
        assert entry is not None, sub
        options = {entry.arguments[0].name: rest[:DISCORD_OPTION_MAX]} if rest else None
        user = as_user or (self.member if member else self.admin)
        return discord_text(self.base.harness.command(sub, options, user=user))

    def reminders(self) -> list[str]:
        """The ids of the bot's messages with RSVP buttons."""
        fake = self.base.harness.fake
        return [
            str(m["id"])
            for m in fake.messages(fake.channel_id)
            if any(
                ":rsvp_going:" in str(c.get("custom_id"))
                for row in m.get("components") or []
                for c in row["components"]
            )
        ]

    def shown(self, *, message_id: str) -> str:
        """The message's words as they stand."""
        return self.base.shown(message_id=message_id)

    def rsvp(self, *, message_id: str, action: str) -> str:
        """The member's component interaction through the gateway; the follow-up (sent after
        the message was edited)."""
        fake = self.base.harness.fake
        [button] = [
            c
            for row in fake.message(message_id)["components"]
            for c in row["components"]
            if f":{action}:" in str(c["custom_id"])
        ]
        record = fake.click(message_id, button["custom_id"], user=self.member)

        def answered() -> bool:
            live = fake.state.interactions.lookup(interaction_id=record.id)
            return bool(live.followup_ids)

        fake.wait_until(answered, timeout=WAIT)
        [followup] = fake.interaction(record.id).followup_ids
        return discord_text(fake.message(followup))

    def redraws(self) -> bool:
        """The interaction edits the message for everyone."""
        return True

    def harmful(self, *, message_id: str, typed: str) -> list[str]:
        """Pings (nobody is let through), and `typed` when not readable as typed."""
        seen = payload_view(payload=self.base.harness.fake.message(message_id))
        return pings(view=seen) + ([] if shows(typed=typed, visible=seen.text) else [typed])


@contextmanager
def console_meeting(*, url: str) -> Iterator[ConsoleMeeting]:
    """The console's room."""
    with console_room(url=url) as base:
        yield ConsoleMeeting(base=base)


@contextmanager
def slack_meeting(*, url: str) -> Iterator[SlackMeeting]:
    """Slack's room."""
    with slack_room(url=url) as base:
        yield SlackMeeting(base=base)


@contextmanager
def discord_meeting(*, url: str) -> Iterator[DiscordMeeting]:
    """Discord's room."""
    with discord_room(url=url) as base:
        yield DiscordMeeting(base=base)
