"""The club scenario's rooms: each platform's meeting room (tests/sessions/rooms) with three
people in it, what they click on a poll and on a swap, the channel's polls and results, and
the direct messages each person received."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from bot.console.chat import KEY as CONSOLE_KEY
from bot.console.chat import USER as CONSOLE_USER
from bot.console.repl import handle_line
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.runtime.wiring import Wiring
from bot.wording import console as console_words
from bot.wording.polls import RESULTS, VOTE
from bot.wording.presenters import ACCEPT
from tests.fakeslack import block_actions_payload
from tests.hostile.discord_view import payload_view, pings
from tests.hostile.slack_view import blocks_view, payload_pings, shows
from tests.sessions.rooms import (
    ConsoleMeeting,
    DiscordMeeting,
    SlackMeeting,
    console_meeting,
    discord_meeting,
    slack_meeting,
)
from tests.slack.conftest import CHANNEL, FakeClock, shown_mrkdwn
from tests.sources.scenario_discord import discord_text
from tests.sources.scenario_support import WAIT

# The lines a poll and its result start with (bot/wording/polls), and a swap's ask.
POLL_MARK = "🗳️ Choose the paper"
RESULT_MARKS = ("🏆 The group chose", "🗳️ Nobody voted")
SLACK_THIRD = "U0THIRD"


def _console_parts(*, text: str, marks: tuple[str, ...]) -> list[tuple[int, str]]:
    """The terminal's text from each line starting with one of `marks` up to the next line
    that starts a message of the scenario's (a part is one message and what followed it)."""
    every = (POLL_MARK, *RESULT_MARKS, "🔁 ", console_words.DIRECT_FOR_YOU)
    parts: list[tuple[int, list[str]]] = []
    at = 0
    for line in text.splitlines(keepends=True):
        if line.startswith(every):
            parts.append((at, []))
        if parts:
            parts[-1][1].append(line)
        at += len(line)
    return [(start, "".join(lines)) for start, lines in parts if lines[0].startswith(marks)]


class _Room:
    """What every platform's club hands on from its meeting room."""

    room: ConsoleMeeting | SlackMeeting | DiscordMeeting

    @property
    def wiring(self) -> Wiring:
        return self.room.wiring

    @property
    def clock(self) -> FakeClock:
        return self.room.clock

    @property
    def database(self) -> Database:
        return self.room.database

    @property
    def key(self) -> ChannelKey:
        return self.room.key

    def redraws(self) -> bool:
        """Whether a click redraws the poll in place (a terminal prints, and redraws nothing)."""
        return self.room.redraws()


@dataclass
class ConsoleClub(_Room):
    """The console: its one person is the admin; the two others' commands go through the
    console's Room as themselves (a terminal has one typist, the club three members)."""

    room: ConsoleMeeting
    others: tuple[str, str] = ("ada", "cy")
    # Where the terminal printed the answers to commands: a poll shown by /paperclub poll is
    # not one the sweep posted.
    answers: list[tuple[int, int]] = field(default_factory=list)

    @property
    def people(self) -> tuple[str, str, str]:
        return (CONSOLE_USER, *self.others)

    def say(self, text: str, *, user: str) -> str:
        """`/paperclub TEXT` typed (the console's person), else run as that person."""
        start = len(self._text())
        if user == CONSOLE_USER:
            self.room.command(text)
        else:
            app = self.room.base.platform.app
            reply = app.room.command(channel=CONSOLE_KEY, user=user, text=text)
            app.chat.say(message=reply.message)
        self.answers.append((start, len(self._text())))
        return self._text()[start:]

    def _text(self) -> str:
        return self.room.base.raw.getvalue()

    def _sent(self, *, marks: tuple[str, ...]) -> list[str]:
        """The printed messages starting with `marks` that no command's answer holds."""
        return [
            part
            for at, part in _console_parts(text=self._text(), marks=marks)
            if not any(start <= at < end for start, end in self.answers)
        ]

    def polls(self) -> list[str]:
        """A terminal keeps no ids: each poll is its place among the printed ones."""
        return [str(n) for n in range(len(self._sent(marks=(POLL_MARK,))))]

    def results(self) -> list[str]:
        return [str(n) for n in range(len(self._sent(marks=RESULT_MARKS)))]

    def shown(self, *, message_id: str, result: bool = False) -> str:
        return self._sent(marks=RESULT_MARKS if result else (POLL_MARK,))[int(message_id)]

    def vote(self, *, message_id: str, numbers: tuple[int, ...], user: str) -> str:
        """The buttons stand for `/paperclub poll 1 2`, typed (as the poll says)."""
        assert "/paperclub poll " in self.shown(message_id=message_id)
        return self.say("poll " + " ".join(map(str, numbers)), user=user)

    def see_votes(self, *, message_id: str, user: str) -> str:
        """The result's "See the votes" is typed /paperclub poll."""
        assert console_words.TYPED_ANSWERS[RESULTS] in self.shown(message_id=message_id, result=True)
        return self.say("poll", user=user)

    def accept_swap(self, *, user: str) -> str:
        """Type the command the last swap's ask printed."""
        assert user == CONSOLE_USER
        [typed] = re.findall(r"/paperclub swap accept \d+", self._text())[-1:]
        start = len(self._text())
        handle_line(app=self.room.base.platform.app, line=typed)
        self.answers.append((start, len(self._text())))
        return self._text()[start:]

    def directs(self, *, user: str) -> list[str] | None:
        """A terminal's direct messages are all its one person's: not told apart."""
        return None

    def all_directs(self) -> list[str]:
        return [p for _, p in _console_parts(text=self._text(), marks=(console_words.DIRECT_FOR_YOU,))]

    def harmful(self, *, message_id: str, typed: str, result: bool = False) -> list[str]:
        """`typed` when no printed line of the message holds it whole (nothing pings here)."""
        lines = self.shown(message_id=message_id, result=result).splitlines()
        return [] if any(typed in line for line in lines) else [typed]


def _slack_buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    blocks = message.get("blocks") or []
    return [e for b in blocks if b["type"] == "actions" for e in b["elements"]]


@dataclass
class SlackClub(_Room):
    """Slack: the admin, the member and a third person of the workspace."""

    room: SlackMeeting

    @property
    def people(self) -> tuple[str, str, str]:
        return (self.room.admin, self.room.member, SLACK_THIRD)

    def say(self, text: str, *, user: str) -> str:
        return self.room.command(text, as_user=user)

    def _with(self, action: str) -> list[str]:
        return [
            str(m["ts"])
            for m in self.room.base.fake.messages(CHANNEL)
            if any(str(e["action_id"]).endswith(action) for e in _slack_buttons(m))
        ]

    def polls(self) -> list[str]:
        return self._with(VOTE)

    def results(self) -> list[str]:
        return self._with(RESULTS)

    def shown(self, *, message_id: str, result: bool = False) -> str:
        return self.room.shown(message_id=message_id)

    def _click(self, *, message_id: str, action: str, label: str | None, user: str) -> str:
        fake = self.room.base.fake
        [button] = [
            b
            for b in _slack_buttons(fake.message(CHANNEL, message_id))
            if str(b["action_id"]).endswith(action) and label in (None, b["text"]["text"])
        ]
        url = fake.new_response_url()
        payload = block_actions_payload(
            button["action_id"],
            button["value"],
            user_id=user,
            message_ts=message_id,
            channel_id=CHANNEL,
            response_url=url,
        )
        fake.wait_ack(fake.push("interactive", payload))
        return shown_mrkdwn(fake.wait_response(url, timeout=WAIT))

    def vote(self, *, message_id: str, numbers: tuple[int, ...], user: str) -> str:
        """A click on each paper's button, in order; the last click's answer."""
        said = ""
        for number in numbers:
            said = self._click(message_id=message_id, action=VOTE, label=str(number), user=user)
        return said

    def see_votes(self, *, message_id: str, user: str) -> str:
        return self._click(message_id=message_id, action=RESULTS, label=None, user=user)

    def accept_swap(self, *, user: str) -> str:
        [asked] = self._with(ACCEPT)[-1:]
        return self._click(message_id=asked, action=ACCEPT, label=None, user=user)

    def directs(self, *, user: str) -> list[str] | None:
        return [shown_mrkdwn(m) for m in self.room.base.fake.directs(user)]

    def all_directs(self) -> list[str]:
        return [d for user in self.people for d in self.directs(user=user) or []]

    def harmful(self, *, message_id: str, typed: str, result: bool = False) -> list[str]:
        payload = self.room.base.fake.message(CHANNEL, message_id)
        seen = blocks_view(blocks=payload.get("blocks") or [], text=payload.get("text"))
        return payload_pings(payload=payload) + (
            [] if shows(typed=typed, visible=seen.text) else [typed]
        )


@dataclass
class DiscordClub(_Room):
    """Discord: bob (the owner, admin), alice and cy, a member added for the scenario."""

    room: DiscordMeeting
    third: str

    @property
    def people(self) -> tuple[str, str, str]:
        return (self.room.admin, self.room.member, self.third)

    def say(self, text: str, *, user: str) -> str:
        return self.room.command(text, as_user=user)

    def _with(self, action: str) -> list[str]:
        fake = self.room.base.harness.fake
        return [
            str(m["id"])
            for m in fake.messages(fake.channel_id)
            if any(
                f":{action}:" in str(c.get("custom_id"))
                for row in m.get("components") or []
                for c in row["components"]
            )
        ]

    def polls(self) -> list[str]:
        return self._with(VOTE)

    def results(self) -> list[str]:
        return self._with(RESULTS)

    def shown(self, *, message_id: str, result: bool = False) -> str:
        return self.room.shown(message_id=message_id)

    def _click(self, *, message_id: str, action: str, label: str | None, user: str) -> str:
        fake = self.room.base.harness.fake
        [button] = [
            c
            for row in fake.message(message_id)["components"]
            for c in row["components"]
            if f":{action}:" in str(c["custom_id"]) and label in (None, c.get("label"))
        ]
        record = fake.click(message_id, button["custom_id"], user=user)

        def answered() -> bool:
            live = fake.state.interactions.lookup(interaction_id=record.id)
            return bool(live.followup_ids)

        fake.wait_until(answered, timeout=WAIT)
        [followup] = fake.interaction(record.id).followup_ids
        return discord_text(fake.message(followup))

    def vote(self, *, message_id: str, numbers: tuple[int, ...], user: str) -> str:
        said = ""
        for number in numbers:
            said = self._click(message_id=message_id, action=VOTE, label=str(number), user=user)
        return said

    def see_votes(self, *, message_id: str, user: str) -> str:
        return self._click(message_id=message_id, action=RESULTS, label=None, user=user)

    def accept_swap(self, *, user: str) -> str:
        [asked] = self._with(ACCEPT)[-1:]
        return self._click(message_id=asked, action=ACCEPT, label=None, user=user)

    def directs(self, *, user: str) -> list[str] | None:
        fake = self.room.base.harness.fake
        channel = fake.state.directs.channel_of(user_id=user)
        return [] if channel is None else [discord_text(m) for m in fake.messages(channel)]

    def all_directs(self) -> list[str]:
        return [d for user in self.people for d in self.directs(user=user) or []]

    def harmful(self, *, message_id: str, typed: str, result: bool = False) -> list[str]:
        seen = payload_view(payload=self.room.base.harness.fake.message(message_id))
        return pings(view=seen) + ([] if shows(typed=typed, visible=seen.text) else [typed])


@contextmanager
def console_club(*, url: str) -> Iterator[ConsoleClub]:
    with console_meeting(url=url) as room:
        yield ConsoleClub(room=room)


@contextmanager
def slack_club(*, url: str) -> Iterator[SlackClub]:
    with slack_meeting(url=url) as room:
        room.base.fake.add_user(SLACK_THIRD, "cy")
        yield SlackClub(room=room)


@contextmanager
def discord_club(*, url: str) -> Iterator[DiscordClub]:
    with discord_meeting(url=url) as room:
        third = room.base.harness.fake.add_member("cy", global_name="Cy C")
        yield DiscordClub(room=room, third=third)
