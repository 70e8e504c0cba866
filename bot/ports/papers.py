"""The store's part for papers: adding them (dedupe keys, queue positions), the queue, one
paper and where it was posted, reading lists."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Protocol

from bot.domain import (
    Channel,
    ChannelKey,
    NewPaper,
    Paper,
    PaperRecord,
    PaperStatus,
    PostView,
    WorkspaceKey,
)


class PapersStore(Protocol):
    """Papers and their queue, inside one unit of work."""

    def known_keys(self, *, workspace: WorkspaceKey) -> set[str]:
        """Every dedupe key a workspace already holds (arxiv:, doi:, fp: prefixed)."""
        ...

    def max_position(self, *, workspace: WorkspaceKey) -> int:
        """The highest queue position a workspace used so far (0 when empty)."""
        ...

    def insert_papers(self, *, papers: Sequence[NewPaper]) -> int:
        """Insert papers, skipping any whose key another writer stored meanwhile; the count kept."""
        ...

    def queued(
        self, *, workspace: WorkspaceKey, channel: Channel | None, limit: int
    ) -> list[Paper]:
        """The next queued papers for a channel (its own, then the shared list) in order:
        those with an abstract first, so no post is empty while any paper has one."""
        ...

    def count_queued(self, *, workspace: WorkspaceKey, channel: Channel | None) -> int:
        """How many papers wait in a channel's queue."""
        ...

    def paper(self, *, paper_id: int) -> Paper | None:
        """One paper by id."""
        ...

    def paper_by_keys(self, *, workspace: WorkspaceKey, keys: Sequence[str]) -> Paper | None:
        """The workspace's paper sharing any of these dedupe keys (arxiv:, doi:, fp:)."""
        ...

    def paper_by_title(self, *, workspace: WorkspaceKey, title: str) -> Paper | None:
        """The workspace's oldest paper whose title reads the same (case, accents and
        punctuation aside)."""
        ...

    def queue_position(self, *, paper: Paper, channel: Channel | None) -> int:
        """1 for the next paper to be posted in the channel, 2 for the one after, ..."""
        ...

    def set_paper_status(self, *, paper_id: int, status: PaperStatus) -> None:
        """Move a paper between queued, posted and skipped."""
        ...

    def post_views(self, *, paper_id: int, viewer: ChannelKey | None) -> list[PostView]:
        """Where and when a paper was posted, with its votes and live comments; with a viewer,
        only the posts that channel may see (its own, and its workspace's public ones)."""
        ...

    def paper_records(self, *, workspace: WorkspaceKey) -> Iterator[PaperRecord]:
        """Every paper of a workspace with its posts, votes and live comments, in id order."""
        ...


class ListsStore(Protocol):
    """Reading lists (the lists papers were imported from), inside one unit of work."""

    def reading_list(self, *, name: str, origin: str, now: datetime) -> int:
        """The id of the reading list with this name from this origin, made if it is new."""
        ...

    def list_name(self, *, list_id: int) -> str | None:
        """A reading list's name; None for an id no list has."""
        ...
