"""The store queries only the web archive needs; every one shows public channels alone."""

from __future__ import annotations

from datetime import date
from typing import Protocol

from bot.domain import Channel, Paper, WorkspaceKey
from bot.domain.archive import PostList, VoteMoment, WeekActivity


def one_person(*, workspace: WorkspaceKey) -> bool:
    """A platform with no workspaces, one person at a terminal (the console): its channel is
    private from nobody else, so its own web archive shows it (a console trial's archive would
    be empty otherwise)."""
    return workspace.platform != "" and workspace.id == ""


class ArchivePagesStore(Protocol):
    """Read-only, one workspace at a time; private channels' rows never leave these methods
    (but see one_person)."""

    def public_posts(
        self,
        *,
        workspace: WorkspaceKey,
        channel_id: int | None,
        since: date | None,
        by_votes: bool,
        limit: int,
        offset: int,
    ) -> PostList:
        """Delivered posts of the workspace's public channels (or one of them), newest first
        or (`by_votes`) most voted first, posted on `since` or later."""
        ...

    def public_paper(self, *, workspace: WorkspaceKey, paper_id: int) -> Paper | None:
        """A paper of the workspace, unless it waits in a private channel's own queue."""
        ...

    def public_posted_papers(
        self, *, workspace: WorkspaceKey, channel_id: int | None, since: date | None, limit: int
    ) -> list[Paper]:
        """Each paper delivered in the workspace's public channels (or one of them) on `since`
        or later, once, newest post first; none that public_paper would hide."""
        ...

    def public_channels(self, *, workspace: WorkspaceKey) -> list[Channel]:
        """The workspace's public followed channels."""
        ...

    def public_weeks(self, *, workspace: WorkspaceKey, since: date) -> list[WeekActivity]:
        """Posts, votes and comments per ISO week in public channels, oldest first."""
        ...

    def public_vote_moments(self, *, workspace: WorkspaceKey, paper_id: int) -> list[VoteMoment]:
        """When each vote on the paper's public posts was last set, oldest first."""
        ...

    def public_post_days(self, *, workspace: WorkspaceKey, since: date) -> list[date]:
        """The dates of delivered posts in public channels from `since` on (one per post)."""
        ...
