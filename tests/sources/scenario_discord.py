"""The scenario on Discord: the real wiring with the Discord plug-in against tests/fakediscord;
slash commands and component clicks through the fake's gateway as Discord sends them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bot.config.settings import Settings
from bot.db.database import Database
from bot.discord import endpoints
from bot.domain import ChannelKey
from bot.runtime.wiring import Wiring
from tests.discord.conftest import DiscordHarness, running
from tests.fakediscord import FakeDiscord
from tests.hostile.discord_view import payload_view, pings
from tests.hostile.slack_view import shows
from tests.slack.conftest import (
    FakeClock,
    closed_lookups,
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


def discord_text(message: dict[str, Any]) -> str:
    """What a member reads in a Discord message: its content and its embeds' words."""
    parts = [str(message.get("content") or "")]
    for embed in message.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        for item in embed.get("fields") or []:
            parts += [str(item.get("name") or ""), str(item.get("value") or "")]
    return "\n".join(p for p in parts if p)


@dataclass
class DiscordRoom:
    """Discord: /paperclub <sub> what:<rest> run by the guild's owner through the fake."""

    wiring: Wiring
    clock: FakeClock
    database: Database
    harness: DiscordHarness
    key: ChannelKey

    def command(self, text: str) -> str:
        """Run `/paperclub SUB REST` as the owner (REST in the subcommand's one option)."""
        sub, _, rest = text.partition(" ")
        options = {"what": rest} if rest else None
        fake = self.harness.fake
        return discord_text(self.harness.command(sub, options, user=fake.bob_id))

    def shown(self, *, message_id: str) -> str:
        """The message's words."""
        return discord_text(self.harness.fake.message(message_id))

    def click(self, *, message_id: str, suggestion_id: int, label: str) -> str:
        """A member (alice) clicks the button through the gateway; the follow-up only the
        clicker reads."""
        fake = self.harness.fake
        [button] = [
            c
            for row in fake.message(message_id)["components"]
            for c in row["components"]
            if c["label"] == label and c["custom_id"].endswith(f":{suggestion_id}")
        ]
        record = fake.click(message_id, button["custom_id"], user=fake.alice_id)

        def answered() -> bool:
            live = fake.state.interactions.lookup(interaction_id=record.id)
            return bool(live.followup_ids)

        fake.wait_until(answered, timeout=WAIT)
        [followup] = fake.interaction(record.id).followup_ids
        return discord_text(fake.message(followup))

    def offered(self, *, message_id: str) -> set[str] | None:
        """The values the message's buttons carry as it stands (a custom id's last part)."""
        rows = self.harness.fake.message(message_id)["components"]
        return {str(c["custom_id"]).rsplit(":", 1)[-1] for row in rows for c in row["components"]}

    def harmful(self, *, message_id: str, titles: list[str]) -> list[str]:
        """What the message pings or draws as a mention (but the people who decided), and the
        titles a member cannot read as typed."""
        fake = self.harness.fake
        seen = payload_view(payload=fake.message(message_id))
        # A decided suggestion names who decided (alice's click, bob's command) as a mention.
        deciders = {fake.alice_id, fake.bob_id}
        return pings(view=seen, people=deciders) + [
            t for t in titles if not shows(typed=t, visible=seen.text)
        ]


@contextmanager
def discord_room(*, url: str) -> Iterator[DiscordRoom]:
    """The Discord bot connected to a fresh fake guild, the paper read before the fortnight
    posted by the sweep of that Friday."""
    urls = endpoints.current()
    with FakeDiscord() as fake:
        database = Database(url=url)
        import_read_paper(database=database)
        settings = Settings(
            discord_token=fake.token,
            discord_api_url=fake.api_url,
            discord_gateway_url=fake.gateway_url,
            discord_channel=fake.channel_id,
            database_url=url,
            post_time=NINE,
            timezone=BERLIN,
            days=WEEKDAYS,
            **closed_lookups(),
        )
        try:
            with contextmanager(running)(
                fake=fake, settings=settings, database=database
            ) as harness:
                harness.clock.at = at_morning(day=BEFORE)
                harness.wiring.sweep()
                yield DiscordRoom(
                    wiring=harness.wiring,
                    clock=harness.clock,
                    database=database,
                    harness=harness,
                    key=harness.key,
                )
        finally:
            database.dispose()
            # The bot pointed discord.py at the fake; later tests in this process expect
            # discord.py's own URLs (tests/discord's autouse fixture does this for its tests).
            endpoints.point_at(api_url=urls[0], gateway_url=urls[1])
