"""Direct messages on Slack: the real SlackChat (slack_sdk's WebClient) against the fake opens
the bot's DM with the member (conversations.open) and posts there, rendered as a notice and as
inert; Slack's refusals come back as ChatErrors; the distributed bot sends each in the
channel's own workspace."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.domain import ChannelKey
from bot.messages import Message, PersonRef, Strong, line, message
from bot.ports import ChatError
from bot.services.telemetry import Telemetry
from bot.slack.chat import SlackChat
from bot.slack.client import make_client
from tests.fakeslack import FakeSlack
from tests.fakeslack.web_directs import im_id
from tests.hostile.slack_view import blocks_view, disguised, payload_pings, shows
from tests.slack.conftest import ADMIN, CHANNEL, KEY, MEMBER
from tests.slack.distribution import TEAMS, Deployment, deployed

HOSTILE = "<!channel> <@U0ADMIN> *bold* _it_ `c` <https://evil.test|click me> &amp; >quote 🎉"


def _chat(fake: FakeSlack) -> SlackChat:
    """SlackChat as single.py wires it: a retrying client, and one that never blindly
    re-posts."""
    telemetry = Telemetry()
    client = make_client(token=fake.bot_token, base_url=fake.base_url, telemetry=telemetry)
    post_client = make_client(
        token=fake.bot_token, base_url=fake.base_url, telemetry=telemetry, idempotent_only=True
    )
    return SlackChat(client=client, post_client=post_client)


def _said() -> Message:
    """A message whose data would ping, link and format if it were not made inert."""
    return message(line("You present ", Strong(HOSTILE), " on Thursday, ", PersonRef(ADMIN)))


def test_a_direct_message_lands_in_the_members_dm_and_nowhere_else(fake: FakeSlack) -> None:
    chat = _chat(fake)
    ts = chat.send_direct(channel=KEY, user=MEMBER, message=message("You present on Thursday."))

    [opened] = fake.calls("conversations.open")
    assert opened["users"] == MEMBER
    [posted] = fake.directs(MEMBER)
    assert posted["ts"] == ts and posted["channel"] == im_id(MEMBER)
    assert posted["user"] == fake.bot_user_id and "You present on Thursday." in posted["text"]
    assert fake.messages(CHANNEL) == []  # the channel hears nothing of it
    info = fake.client().conversations_info(channel=im_id(MEMBER))["channel"]
    assert info["is_im"] and info["user"] == MEMBER
    assert chat.is_private(
        channel=ChannelKey(platform="slack", workspace="T0001", channel=info["id"])
    )

    again = chat.send_direct(channel=KEY, user=MEMBER, message=message("A reminder."))
    assert [m["ts"] for m in fake.directs(MEMBER)] == [ts, again]  # the same DM, reopened


def test_a_direct_message_is_rendered_as_a_notice_and_inert(fake: FakeSlack) -> None:
    chat = _chat(fake)
    said = _said()
    chat.send_direct(channel=KEY, user=MEMBER, message=said)
    chat.send_notice(channel=KEY, message=said)
    direct, notice = fake.calls("chat.postMessage")
    assert direct["channel"] == im_id(MEMBER) and notice["channel"] == CHANNEL
    for key in ("text", "blocks", "unfurl_links", "unfurl_media"):
        assert direct[key] == notice[key], key

    assert payload_pings(payload=direct) == []
    seen = blocks_view(blocks=fake.directs(MEMBER)[0]["blocks"], text=direct["text"])
    assert seen.pings == () and disguised(view=seen) == []
    assert seen.formatted == (("bold", HOSTILE),)  # the Strong run, and nothing typed in it
    assert shows(typed=HOSTILE, visible=seen.text), seen.text
    assert "ana" in seen.text  # the person by name, never a mention


@pytest.mark.parametrize(
    ("user", "code"),
    [("U0NOBODY", "user_not_found"), ("U0GONE", "user_disabled"), ("U0OTHERBOT", "cannot_dm_bot")],
)
def test_slack_refusing_the_dm_is_a_chat_error_that_posted_nothing(
    fake: FakeSlack, user: str, code: str
) -> None:
    fake.add_user("U0GONE", "gone", deleted=True)
    fake.add_user("U0OTHERBOT", "otherbot", is_bot=True)
    with pytest.raises(ChatError) as refused:
        _chat(fake).send_direct(channel=KEY, user=user, message=message("Hello"))
    assert refused.value.code == code and refused.value.posted_nothing
    assert fake.calls("chat.postMessage") == []


def test_a_failed_open_posted_nothing_and_a_failed_post_says_so(fake: FakeSlack) -> None:
    chat = _chat(fake)
    fake.fail_next("conversations.open", error="missing_scope")
    with pytest.raises(ChatError) as refused:
        chat.send_direct(channel=KEY, user=MEMBER, message=message("Hello"))
    assert refused.value.code == "missing_scope" and refused.value.posted_nothing
    assert "im:write" in refused.value.hint

    # A 5xx on conversations.open still posted nothing: no message was sent yet.
    fake.fail_next("conversations.open", status=503, times=3)  # and slack_sdk's 2 retries
    with pytest.raises(ChatError) as failed:
        chat.send_direct(channel=KEY, user=MEMBER, message=message("Hello"))
    assert failed.value.posted_nothing

    # A 5xx on the post itself may have landed: never "nothing posted", never retried blindly.
    fake.fail_next("chat.postMessage", status=500, after_effect=True)
    with pytest.raises(ChatError) as unknown:
        chat.send_direct(channel=KEY, user=MEMBER, message=message("Hello"))
    assert not unknown.value.posted_nothing
    assert len(fake.calls("chat.postMessage")) == 1 and len(fake.directs(MEMBER)) == 1


@pytest.fixture
def deployment(sqlite_url: str) -> Iterator[Deployment]:
    """The distributed bot and the fake, until the test ends."""
    yield from deployed(url=sqlite_url)


def test_the_distributed_bot_sends_a_dm_in_the_channels_workspace(deployment: Deployment) -> None:
    d = deployment
    d.install("T0100")
    chat = d.wiring.posters["slack"].chat
    channel, _admin, member, *_ = TEAMS["T0100"]
    alpha = ChannelKey(platform="slack", workspace="T0100", channel=channel)
    ts = chat.send_direct(channel=alpha, user=member, message=message("You present."))
    [posted] = d.fake.workspace("T0100").messages(im_id(member))
    assert posted["ts"] == ts and "You present." in posted["text"]

    beta = ChannelKey(platform="slack", workspace="T0200", channel=TEAMS["T0200"][0])
    with pytest.raises(ChatError) as refused:  # never installed there
        chat.send_direct(channel=beta, user=TEAMS["T0200"][2], message=message("You present."))
    assert refused.value.code == "not_installed" and refused.value.posted_nothing
