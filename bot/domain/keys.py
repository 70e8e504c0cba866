"""Who a row belongs to: a workspace (a Slack team, a Discord guild) and a channel in it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class WorkspaceKey:
    """A workspace: its platform and its id there (a Slack team, a Discord guild). Papers,
    queues and search belong to one; what is in one is never shown in another."""

    platform: str
    id: str

    def __str__(self) -> str:
        """'slack:T1' or 'console', as `--workspace` takes it; the unclaimed archive is 'local'."""
        if not self.platform:
            return "local"
        return f"{self.platform}:{self.id}" if self.id else self.platform


# The archive before any platform has claimed it: what `paperclub import` fills on a new
# install, taken over by the first workspace that starts (see services/workspaces.py).
LOCAL = WorkspaceKey(platform="", id="")


@dataclass(frozen=True, slots=True)
class ChannelKey:
    """A channel as the world knows it: platform, workspace (team or guild), the platform's id.

    The same channel id on two platforms, or in two workspaces, is two channels.
    """

    platform: str
    workspace: str
    channel: str

    def __str__(self) -> str:
        """'slack:T1:C1': for log lines and scheduler job ids."""
        return f"{self.platform}:{self.workspace}:{self.channel}"

    @property
    def workspace_key(self) -> WorkspaceKey:
        """The workspace the channel is in."""
        return WorkspaceKey(platform=self.platform, id=self.workspace)
