"""What the Slack listeners need: this workspace's Room of the club and its Chat, and who we
are (events from another team or app are acknowledged and ignored)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain import ChannelKey
from bot.services.posting import Poster
from bot.services.room import Room
from bot.slack.chat import SlackChat

PLATFORM = "slack"


@dataclass(frozen=True, slots=True)
class SlackDeps:
    """The listeners' inputs: `room` is the club on `chat`, this workspace's Chat."""

    room: Room
    chat: SlackChat
    team_id: str
    app_id: str | None

    @property
    def poster(self) -> Poster:
        """This workspace's poster."""
        return self.room.poster

    def channel(self, *, channel_id: object) -> ChannelKey:
        """The key of a channel of this workspace."""
        return ChannelKey(platform=PLATFORM, workspace=self.team_id, channel=str(channel_id or ""))
