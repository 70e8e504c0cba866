"""SlackChat.names_of against the fake Slack: conversations.info names the channel, users.info
the people (display name first); whoever Slack does not know is left out."""

from __future__ import annotations

from bot.domain import ChannelKey
from bot.slack.chat import SlackChat
from tests.fakeslack import FakeSlack

HOSTILE = "<!channel> <b>Bo</b> 🎉"


def test_slack_names_a_channel_and_its_people() -> None:
    with FakeSlack() as fake:
        fake.add_channel("C0001", "general")
        fake.add_user("U0001", "bo", display_name=HOSTILE, real_name="Bo Jones")
        fake.add_user("U0002", "cy", real_name="Cy Twombly")
        chat = SlackChat(client=fake.client(), post_client=fake.client())
        key = ChannelKey(platform="slack", workspace=fake.team_id, channel="C0001")
        names = chat.names_of(channel=key, people=["U0001", "U0002", "U0GONE", "console"])
        assert names.channel == "general"
        assert dict(names.people) == {"U0001": HOSTILE, "U0002": "Cy Twombly"}
        unknown = ChannelKey(platform="slack", workspace=fake.team_id, channel="C0NOPE")
        assert chat.names_of(channel=unknown, people=[]).channel is None
