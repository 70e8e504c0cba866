"""SlackChat.find_notice against the fake Slack: a tray message of ours found again in
conversations.history by its buttons (action_id and value in its blocks), across pages; a
person's copy of its blocks, our other messages and anything older than `since` are not it;
history that cannot be read is a ChatError."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.messages import Button, Buttons, Message, line
from bot.ports import ChatError
from bot.slack.readback import stamp
from bot.wording.suggestions import ADD, ADD_LABEL, HIDE, HIDE_LABEL
from tests.fakeslack import FakeSlack
from tests.slack.test_readback import CHANNEL, KEY, _chat

HOSTILE = "<!channel> @everyone *bold* <@U0001> " + "🧪" * 2000


def _tray(*numbers: int) -> Message:
    """A tray as bot/wording/suggestions shows one: a hostile line, then each number's buttons."""
    rows = tuple(
        Buttons(
            buttons=(
                Button(label=ADD_LABEL, action=ADD, value=str(n)),
                Button(label=HIDE_LABEL, action=HIDE, value=str(n)),
            )
        )
        for n in numbers
    )
    return Message(blocks=(line(HOSTILE), *rows))


def _before(ts: str) -> datetime:
    """A moment before the message (Slack's `oldest` leaves out a message of that very ts)."""
    return stamp(ts) - timedelta(seconds=1)


def test_our_tray_is_found_by_its_buttons_past_chatter_and_a_persons_copy(
    fake: FakeSlack,
) -> None:
    chat = _chat(fake)
    ts = chat.send_notice(channel=KEY, message=_tray(12, 13))
    assert ts is not None
    ours = fake.message(CHANNEL, ts)
    chat.send_notice(channel=KEY, message=_tray(14))  # tomorrow's, say: other numbers
    fake.add_message(CHANNEL, HOSTILE, "U0001", blocks=ours["blocks"])  # a person's copy
    for n in range(250):  # more than a page (200 under the tiers)
        fake.add_message(CHANNEL, f"chatter {n} @everyone", "U0002")
    since = _before(ts)

    # One button in common is enough: a decided suggestion's buttons are gone.
    assert chat.find_notice(channel=KEY, message=_tray(13), since=since) == ts
    assert chat.find_notice(channel=KEY, message=_tray(99), since=since) is None
    assert len(fake.requests("conversations.history")) >= 2 * 2  # two pages each time


def test_a_person_posting_the_trays_blocks_is_not_our_tray(fake: FakeSlack) -> None:
    chat = _chat(fake)
    text, shown = chat.render(message=_tray(12))
    ts = fake.add_message(CHANNEL, text, "U0001", blocks=shown)

    assert chat.find_notice(channel=KEY, message=_tray(12), since=_before(ts)) is None


def test_a_message_older_than_since_is_not_looked_at(fake: FakeSlack) -> None:
    chat = _chat(fake)
    ts = chat.send_notice(channel=KEY, message=_tray(12))
    assert ts is not None

    later = stamp(ts) + timedelta(seconds=5)
    assert chat.find_notice(channel=KEY, message=_tray(12), since=later) is None
    assert chat.find_notice(channel=KEY, message=_tray(12), since=_before(ts)) == ts


def test_a_message_without_buttons_reads_no_history(fake: FakeSlack) -> None:
    chat = _chat(fake)
    chat.send_notice(channel=KEY, message=Message(blocks=(line(HOSTILE),)))
    before = len(fake.requests("conversations.history"))

    found = chat.find_notice(channel=KEY, message=Message(blocks=(line(HOSTILE),)), since=stamp(1))

    assert found is None
    assert len(fake.requests("conversations.history")) == before


def test_history_that_cannot_be_read_is_a_chat_error(fake: FakeSlack) -> None:
    chat = _chat(fake)
    ts = chat.send_notice(channel=KEY, message=_tray(12))
    assert ts is not None
    fake.fail_next("conversations.history", error="not_in_channel")

    with pytest.raises(ChatError) as raised:
        chat.find_notice(channel=KEY, message=_tray(12), since=_before(ts))

    assert raised.value.code == "not_in_channel"
    assert chat.find_notice(channel=KEY, message=_tray(12), since=_before(ts)) == ts
