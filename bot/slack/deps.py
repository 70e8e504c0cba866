"""What the Slack listeners need: the shared services, this workspace's Chat and poster, and
who we are (events from another team or app are acknowledged and ignored)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain import ChannelKey
from bot.services.posting import Poster
from bot.services.shared import Shared
from bot.slack.chat import SlackChat

PLATFORM = "slack"


@dataclass(frozen=True, slots=True)
class SlackDeps:
    """The listeners' inputs."""

    shared: Shared
    chat: SlackChat
    poster: Poster
    team_id: str
    app_id: str | None

    def channel(self, *, channel_id: object) -> ChannelKey:
        """The key of a channel of this workspace."""
        return ChannelKey(platform=PLATFORM, workspace=self.team_id, channel=str(channel_id or ""))
