"""Direct messages on Discord: the real DiscordChat (discord.py on its loop) against the fake
opens the bot's DM channel with the member (POST /users/@me/channels, once) and sends there as
a notice, nobody pinged; a member whose DMs are closed, a user in no guild of ours, an unknown
id: ChatErrors that posted nothing."""

from __future__ import annotations

import pytest

from bot.domain import ChannelKey
from bot.messages import Message, PersonRef, Strong, line, message
from bot.ports import ChatError
from tests.discord.conftest import DiscordHarness
from tests.hostile.discord_view import disguised, locked, payload_view, pings

HOSTILE = "@everyone @here <@1100000000000000302> <@&1> **bold** [click](https://evil.test) 🎉"
DMS = "/users/@me/channels"
SEND = "/channels/{id}/messages"


def _said(harness: DiscordHarness) -> Message:
    """A message whose data would ping, link and format if it were not made inert."""
    return message(line("You present ", Strong(HOSTILE), " with ", PersonRef(harness.fake.bob_id)))


def test_a_direct_message_goes_to_the_members_dm_channel(harness: DiscordHarness) -> None:
    fake, chat = harness.fake, harness.platform.chat
    first = chat.send_direct(channel=harness.key, user=fake.alice_id, message=message("Hello"))
    second = chat.send_direct(channel=harness.key, user=fake.alice_id, message=message("Again"))

    [opened] = fake.requests("POST", DMS)  # discord.py keeps the DM channel after the first
    assert opened.json == {"recipient_id": int(fake.alice_id)} and opened.status == 200
    dm = fake.state.directs.channel_of(user_id=fake.alice_id)
    assert dm is not None and opened.response["id"] == dm and opened.response["type"] == 1
    assert [r["id"] for r in opened.response["recipients"]] == [fake.alice_id]
    shown = fake.messages(dm)
    assert [m["id"] for m in shown] == [first, second]
    assert [m["content"] for m in shown] == ["Hello", "Again"]
    assert shown[0]["author"]["id"] == fake.bot_id
    assert [m for m in fake.messages() if m["content"] in ("Hello", "Again")] == []
    assert chat.is_private(channel=ChannelKey(platform="discord", workspace="", channel=dm))


def test_a_direct_message_is_sent_as_a_notice_and_pings_nobody(harness: DiscordHarness) -> None:
    fake, chat = harness.fake, harness.platform.chat
    said = _said(harness)
    chat.send_direct(channel=harness.key, user=fake.alice_id, message=said)
    chat.send_notice(channel=harness.key, message=said)
    direct, notice = [r for r in fake.requests("POST", SEND)][-2:]
    assert direct.path != notice.path and direct.json == notice.json
    assert locked(payload=direct.json)
    seen = payload_view(payload=direct.json)
    # Only the person referred to is drawn as a mention (no one is notified: locked above);
    # the typed mentions stay text.
    assert pings(view=seen, people=[fake.bob_id]) == []
    assert disguised(view=seen) == []
    assert seen.formatted == (("bold", HOSTILE),)  # the Strong run, and nothing typed in it


def test_closed_dms_are_a_chat_error_that_posted_nothing(harness: DiscordHarness) -> None:
    fake, chat = harness.fake, harness.platform.chat
    fake.state.directs.close(user_id=fake.bob_id)
    with pytest.raises(ChatError) as refused:
        chat.send_direct(channel=harness.key, user=fake.bob_id, message=message("Hello"))
    assert refused.value.code == "403/50007" and refused.value.posted_nothing
    assert "direct messages" in refused.value.hint
    dm = fake.state.directs.channel_of(user_id=fake.bob_id)
    assert dm is not None and fake.messages(dm) == []
    [sent] = fake.requests("POST", SEND)
    assert sent.status == 403 and sent.response == {
        "message": "Cannot send messages to this user",
        "code": 50007,
    }


@pytest.mark.parametrize("who", ["stranger", "unknown", "not-an-id"])
def test_no_dm_for_whoever_discord_will_not_let_the_bot_reach(
    harness: DiscordHarness, who: str
) -> None:
    fake, chat = harness.fake, harness.platform.chat
    user = {
        "stranger": fake.add_user("carol"),  # shares no guild with the bot
        "unknown": "999999999999999999",
        "not-an-id": "U0SLACK",
    }[who]
    with pytest.raises(ChatError) as refused:
        chat.send_direct(channel=harness.key, user=user, message=message("Hello"))
    assert refused.value.posted_nothing
    code = {"stranger": "403/50007", "unknown": "404/10013", "not-an-id": "unknown_user"}[who]
    assert refused.value.code == code
    assert [r for r in fake.requests("POST", SEND) if r.status == 200] == []


def test_a_failure_opening_the_dm_posted_nothing(harness: DiscordHarness) -> None:
    fake, chat = harness.fake, harness.platform.chat
    fake.fail_next("POST", DMS, status=503)  # discord.py retries no 503
    with pytest.raises(ChatError) as failed:
        chat.send_direct(channel=harness.key, user=fake.alice_id, message=message("Hello"))
    assert failed.value.posted_nothing  # a 5xx before anything was sent
    assert fake.requests("POST", SEND) == []
