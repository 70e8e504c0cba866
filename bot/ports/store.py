"""The Store port: persistence inside one unit of work, and the unit of work itself."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import date, datetime
from typing import Any, Protocol

from bot.domain import (
    Channel,
    ChannelKey,
    NewPaper,
    Paper,
    PaperRecord,
    PaperStatus,
    Post,
    PostView,
    Recap,
    Schedule,
    SearchPage,
    TopEntry,
    VoteCount,
    WeeklyRecap,
    WorkspaceKey,
)
from bot.ports.activity import ActivityStore
from bot.ports.archive_pages import ArchivePagesStore
from bot.ports.semantic import SemanticStore
from bot.search_query import SearchQuery


class Store(ActivityStore, ArchivePagesStore, SemanticStore, Protocol):
    """Persistence, inside one unit of work (one transaction); what members do is in
    ActivityStore."""

    def workspaces(self) -> list[WorkspaceKey]:
        """Every workspace, oldest first."""
        ...

    def workspace_id(self, *, workspace: WorkspaceKey, claim: bool = False) -> int:
        """The row id of a workspace, made when new (`claim`: a platform's own workspace,
        which takes over the unclaimed archive when that is the only one)."""
        ...

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

    def paper_by_title(self, *, workspace: WorkspaceKey, title: str) -> Paper | None:
        """The workspace's oldest paper whose title reads the same (case, accents and
        punctuation aside)."""
        ...

    def papers_to_enrich(self, *, ids: Sequence[int] | None, untried: bool = False) -> list[Paper]:
        """Queued papers and references known only in part, in queue order (`untried`: only
        those enrichment never decided about)."""
        ...

    def enrichment_state(self, *, paper_id: int) -> tuple[frozenset[str], date | None]:
        """The fields a person typed (never changed) and the stored publication date."""
        ...

    def id_taken(self, *, field: str, value: str, paper_id: int) -> bool:
        """Whether another paper of its workspace has this arXiv id ("arxiv_id") or DOI."""
        ...

    def apply_enrichment(
        self, *, paper_id: int, changes: dict[str, Any], verdict: str, now: datetime
    ) -> None:
        """Fill in found fields, keeping what the paper held before; record the verdict."""
        ...

    def keep_candidates(
        self, *, paper_id: int, records: Sequence[dict[str, Any]], reason: str, now: datetime
    ) -> None:
        """An unclear match: the records a person chooses from."""
        ...

    def candidates_of(self, *, paper_id: int) -> list[dict[str, Any]]:
        """The records kept for an unclear match, in the order found."""
        ...

    def cached_answer(self, *, key: str) -> tuple[int, str] | None:
        """A metadata service's answer kept under this key."""
        ...

    def keep_answer(self, *, key: str, url: str, status: int, body: str, now: datetime) -> None:
        """Keep a metadata service's answer."""
        ...

    def reading_list(self, *, name: str, origin: str, now: datetime) -> int:
        """The id of the reading list with this name from this origin, made if it is new."""
        ...

    def list_name(self, *, list_id: int) -> str | None:
        """A reading list's name; None for an id no list has."""
        ...

    def count_queued(self, *, workspace: WorkspaceKey, channel: Channel | None) -> int:
        """How many papers wait in a channel's queue."""
        ...

    def channels(self) -> list[Channel]:
        """Every channel that follows the list."""
        ...

    def paper_records(self, *, workspace: WorkspaceKey) -> Iterator[PaperRecord]:
        """Every paper of a workspace with its posts, votes and live comments, in id order."""
        ...

    def paper(self, *, paper_id: int) -> Paper | None:
        """One paper by id."""
        ...

    def paper_by_keys(self, *, workspace: WorkspaceKey, keys: Sequence[str]) -> Paper | None:
        """The workspace's paper sharing any of these dedupe keys (arxiv:, doi:, fp:)."""
        ...

    def queue_position(self, *, paper: Paper, channel: Channel | None) -> int:
        """1 for the next paper to be posted in the channel, 2 for the one after, ..."""
        ...

    def post_views(self, *, paper_id: int, viewer: ChannelKey | None) -> list[PostView]:
        """Where and when a paper was posted, with its votes and live comments; with a viewer,
        only the posts that channel may see (its own, and its workspace's public ones)."""
        ...

    def search(
        self,
        *,
        query: SearchQuery,
        limit: int,
        offset: int,
        viewer: ChannelKey | None,
        workspace: WorkspaceKey,
    ) -> SearchPage:
        """One page of a workspace's papers matching the query (by their text or comments),
        best first; with a viewer, posts and comments of channels it may not see are left out."""
        ...

    def top_posts(
        self,
        *,
        channel: Channel | None,
        since: date | None,
        until: date | None = None,
        limit: int = 5,
    ) -> list[TopEntry]:
        """Posts of a period with their votes and live comments, best voted first."""
        ...

    def set_paper_status(self, *, paper_id: int, status: PaperStatus) -> None:
        """Move a paper between queued, posted and skipped."""
        ...

    def channel(self, *, key: ChannelKey) -> Channel | None:
        """A followed channel, or None."""
        ...

    def save_channel(self, *, key: ChannelKey, schedule: Schedule, private: bool) -> Channel:
        """Follow a channel with this schedule (or change its schedule and privacy)."""
        ...

    def add_channel_if_missing(
        self, *, key: ChannelKey, schedule: Schedule, private: bool
    ) -> Channel:
        """Follow a channel unless it already is followed (its own schedule then stays)."""
        ...

    def set_channel_flags(
        self,
        *,
        channel: Channel,
        paused: bool | None = None,
        empty_notice_sent: bool | None = None,
        private: bool | None = None,
    ) -> None:
        """Pause/resume a channel, note that it was told its queue is empty, or its privacy."""
        ...

    def set_recap(self, *, channel: Channel, recap: WeeklyRecap | None) -> None:
        """Turn the weekly recap on at a weekday and time, or off."""
        ...

    def claim_recap(self, *, channel: Channel, local_date: date, now: datetime) -> int | None:
        """Record the intent to send a recap; None when that date already has one."""
        ...

    def settle_recap(self, *, recap_id: int, message_id: str | None) -> None:
        """The recap went out (keep its message id) or was refused outright (forget it)."""
        ...

    def post_on(self, *, channel: Channel, local_date: date) -> Post | None:
        """The channel's post of that local date, in any state."""
        ...

    def claim_post(
        self, *, channel: Channel, local_date: date, paper_id: int, owner: str, now: datetime
    ) -> Post | None:
        """Record the intent to post; None when the channel already has a post that day."""
        ...

    def take_over(self, *, post: Post, owner: str, now: datetime) -> bool:
        """Move a pending post's claim to `owner`, if nobody took it over meanwhile."""
        ...

    def mark_posted(self, *, post_id: int, message_id: str, permalink: str | None) -> None:
        """The post is in the channel: keep its message id and permalink."""
        ...

    def release_post(self, *, post: Post) -> None:
        """The platform refused the post outright: forget the intent; the paper is queued again."""
        ...

    def pending_posts(self) -> list[tuple[Post, Channel]]:
        """Posts whose intent is recorded but whose message id is not."""
        ...

    def vote_count(self, *, post_id: int) -> VoteCount:
        """Thumbs up and down on a post."""
        ...

    def recap_before(self, *, channel: Channel, local_date: date) -> Recap | None:
        """The channel's latest posted paper before that date, with its votes and comments."""
        ...


class UnitOfWork(Protocol):
    """Opens a transaction and hands out the Store bound to it; commits on success."""

    def __call__(self, *, write: bool = True) -> AbstractContextManager[Store]:
        """Begin a unit of work; read-only ones don't take the write lock."""
        ...
