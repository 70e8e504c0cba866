"""The club scenario's rooms: each platform's meeting room (tests/sessions/rooms) with three
people in it, what they click on a poll and on a swap, the channel's polls and results, and
the direct messages each person received."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bot.slack import ids
from bot.wording.polls import RESULTS, VOTE
from bot.wording.presenters import ACCEPT
from tests.fakeslack import block_actions_payload
from tests.hostile.slack_view import blocks_view, payload_pings, shows
from tests.sessions.club_console import ConsoleClub
from tests.sessions.club_support import HandedOn
from tests.sessions.rooms import (
    DiscordMeeting,
    SlackMeeting,
    console_meeting,
    discord_meeting,
    slack_meeting,
)
from tests.slack.conftest import CHANNEL, shown_mrkdwn
from tests.sources.scenario_discord import discord_text
from tests.sources.scenario_support import WAIT

SLACK_THIRD = "U0THIRD"


def _slack_buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    blocks = message.get("blocks") or []
    return [e for b in blocks if b["type"] == "actions" for e in b["elements"]]


class ButtonClub(HandedOn):
    """What Slack's and Discord's clubs do alike, over buttons each finds (`_with`) and clicks
    (`_click`) its own way; each says who is there (`people`) and what they were sent
    (`directs`)."""

    room: SlackMeeting | DiscordMeeting

    @property
    def people(self) -> tuple[str, str, str]:
        raise NotImplementedError

    def _with(self, action: str) -> list[str]:
        """The channel's messages carrying an `action` button, oldest first."""
        raise NotImplementedError

    def _click(self, *, message_id: str, action: str, label: str | None, user: str) -> str:
        """`user` clicks the `action` button (labelled `label`) of a message; the answer."""
        raise NotImplementedError

    def directs(self, *, user: str) -> list[str] | None:
        raise NotImplementedError

    def say(self, text: str, *, user: str) -> str:
        return self.room.command(text, as_user=user)

    def polls(self) -> list[str]:
        return self._with(VOTE)

    def results(self) -> list[str]:
        return self._with(RESULTS)

    def shown(self, *, message_id: str, result: bool = False) -> str:
        return self.room.shown(message_id=message_id)

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

    def all_directs(self) -> list[str]:
        return [d for user in self.people for d in self.directs(user=user) or []]


@dataclass
class SlackClub(ButtonClub):
    """Slack: the admin, the member and a third person of the workspace."""

    room: SlackMeeting

    @property
    def people(self) -> tuple[str, str, str]:
        return (self.room.admin, self.room.member, SLACK_THIRD)

    def _with(self, action: str) -> list[str]:
        return [
            str(m["ts"])
            for m in self.room.base.fake.messages(CHANNEL)
            if any(
                ids.action_of(action_id_seen=str(e["action_id"])) == action
                for e in _slack_buttons(m)
            )
        ]

    def _click(self, *, message_id: str, action: str, label: str | None, user: str) -> str:
        fake = self.room.base.fake
        [button] = [
            b
            for b in _slack_buttons(fake.message(CHANNEL, message_id))
            if ids.action_of(action_id_seen=str(b["action_id"])) == action
            and label in (None, b["text"]["text"])
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

    def directs(self, *, user: str) -> list[str] | None:
        return [shown_mrkdwn(m) for m in self.room.base.fake.directs(user)]

    def harmful(self, *, message_id: str, typed: str, result: bool = False) -> list[str]:
        payload = self.room.base.fake.message(CHANNEL, message_id)
        seen = blocks_view(blocks=payload.get("blocks") or [], text=payload.get("text"))
        return payload_pings(payload=payload) + (
            [] if shows(typed=typed, visible=seen.text) else [typed]
        )


@dataclass
class DiscordClub(ButtonClub):
    """Discord: bob (the owner, admin), alice and cy, a member added for the scenario."""

    room: DiscordMeeting
    third: str

    @property
    def people(self) -> tuple[str, str, str]:
        return (self.room.admin, self.room.member, self.third)

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

    def directs(self, *, user: str) -> list[str] | None:
        fake = self.room.base.harness.fake
        channel = fake.state.directs.channel_of(user_id=user)
        return [] if channel is None else [discord_text(m) for m in fake.messages(channel)]

    def harmful(self, *, message_id: str, typed: str, result: bool = False) -> list[str]:
        return self.room.harmful(message_id=message_id, typed=typed)


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
