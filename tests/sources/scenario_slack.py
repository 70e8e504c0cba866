"""The scenario on Slack: the real wiring with the Slack plug-in over Socket Mode against
tests/fakeslack; slash commands and block actions pushed through the fake as Slack sends them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from bot.config.settings import Settings
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.runtime.wiring import Wiring
from tests.fakeslack import (
    FakeSlack,
    block_actions_payload,
    slash_command_payload,
    socket_mode_app,
)
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
from tests.sources.scenario_support import (
    BEFORE,
    BERLIN,
    NINE,
    WAIT,
    WEEKDAYS,
    at_morning,
    import_read_paper,
)
from tests.wired import build_slack_bot


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
            **closed_lookups(),
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
