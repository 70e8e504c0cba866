"""The App Home's suggestions: today's tray of each of the viewer's channels, with the tray's
own buttons. A Home click comes from no channel, so on the Home each button's value names its
channel as well as the suggestion ("C0123:12"); the click is then decided as one in that
channel (Room.clicks.tray), and the edge checks first that the person is in it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.domain import Channel, ChannelKey
from bot.messages import Block, Button, Buttons, Divider, Message, message
from bot.ports import UnitOfWork
from bot.services import suggestions
from bot.services.schedule import local_now
from bot.wording import home as words
from bot.wording.suggestions import ADD, HIDE

# Home button actions -> the tray action each one stands for.
ACTIONS = {"home_suggestion_add": ADD, "home_suggestion_hide": HIDE}
_ON_HOME = {tray: home for home, tray in ACTIONS.items()}
SEPARATOR = ":"
NUMBER_MAX = 12  # digits of a suggestion's number, as suggestions.decide reads it


def button_value(*, channel: ChannelKey, number: str) -> str:
    """A Home tray button's value: the channel id, then the suggestion's number."""
    return f"{channel.channel}{SEPARATOR}{number}"


def read_value(*, value: object) -> tuple[str, str] | None:
    """(channel id, number) of a Home tray button's value; None for anything else."""
    if not isinstance(value, str):
        return None
    channel, sep, number = value.rpartition(SEPARATOR)
    if not sep or not channel or not number.isdigit() or len(number) > NUMBER_MAX:
        return None
    return channel, number


def _on_home(*, channel: ChannelKey, block: Block) -> Block:
    """A tray block as the Home shows it: its buttons carry their channel."""
    if not isinstance(block, Buttons):
        return block
    return Buttons(
        buttons=tuple(
            Button(
                label=b.label,
                action=_ON_HOME.get(b.action, b.action),
                value=button_value(channel=channel, number=b.value),
            )
            for b in block.buttons
        )
    )


def tray_sections(
    *, uow: UnitOfWork[suggestions.Needs], channels: Sequence[Channel], now: datetime
) -> list[Message]:
    """The "Suggestions" heading and each channel's tray of its local today, one section a
    channel (the Home leaves out whole sections past its block limit); none when no channel
    has a tray today."""
    shown: list[Message] = []
    for channel in channels:
        today = local_now(schedule=channel.schedule, now=now).date()
        with uow(write=False) as store:
            tray = store.tray_on(channel=channel.key, day=today)
            drawn = (
                suggestions.tray_message(store=store, channel=channel.key, ids=tray.suggestion_ids)
                if tray is not None
                else None
            )
        if drawn is not None:
            blocks = (_on_home(channel=channel.key, block=b) for b in drawn.blocks)
            shown.append(message(words.tray_heading(channel=channel.key), *blocks))
    if not shown:
        return []
    return [message(Divider(), words.SUGGESTIONS_HEADING), *shown]
