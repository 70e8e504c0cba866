"""Plain data the core passes around: papers, channels, posts, votes, comments, hits."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date, datetime, time

# Re-exported: the keys live in their own module, everything else is defined here.
from bot.domain.keys import LOCAL as LOCAL
from bot.domain.keys import ChannelKey as ChannelKey
from bot.domain.keys import WorkspaceKey as WorkspaceKey
from bot.domain.semantic import PickOrder as PickOrder
from bot.domain.semantic import RelatedRead as RelatedRead
from bot.domain.votes import VoteCount as VoteCount


class PaperStatus(enum.StrEnum):
    """Where a paper stands in its queue."""

    QUEUED = "queued"
    POSTED = "posted"
    SKIPPED = "skipped"
    # Named by a reading list's header ("Related papers: X"): known, searchable, never posted.
    REFERENCE = "reference"


class PostState(enum.StrEnum):
    """A post's life: the intent is recorded before the platform is called."""

    PENDING = "pending"
    POSTED = "posted"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class PaperDraft:
    """A paper as a parser read it, before it has an id; `origin` is file:line."""

    title: str
    abstract: str = ""
    authors: tuple[str, ...] = ()
    url: str | None = None
    arxiv_id: str | None = None
    doi: str | None = None
    origin: str = ""
    title_derived: bool = False
    # The reading list's name, from its header line ("Related papers: …"); "" without one.
    list_name: str = ""
    # The paper the header names: a known reference, not one to post.
    reference: bool = False
    # When it was published, where a service says.
    published: date | None = None


@dataclass(frozen=True, slots=True)
class Rejection:
    """An entry a parser could not turn into a paper, and why."""

    origin: str
    reason: str


@dataclass(frozen=True, slots=True)
class Paper:
    """A stored paper."""

    id: int
    title: str
    abstract: str
    authors: tuple[str, ...]
    url: str | None
    arxiv_id: str | None
    doi: str | None
    source: str
    added_by: str | None
    added_at: datetime
    position: int
    status: PaperStatus
    # The row id of the channel whose own queue holds it; None is the shared list.
    queue_channel_id: int | None = None
    # The title was made from the abstract's first words (shown as such until enriched).
    title_derived: bool = False
    # The reading list it came from, if it had a name.
    list_id: int | None = None


@dataclass(frozen=True, slots=True)
class Schedule:
    """When a channel gets its paper: local time, IANA zone, ISO weekdays (1=Mon)."""

    post_time: time
    timezone: str
    weekdays: frozenset[int]


@dataclass(frozen=True, slots=True)
class WeeklyRecap:
    """When a channel gets its weekly recap: ISO weekday (1=Mon) and local time."""

    weekday: int
    at: time


@dataclass(frozen=True, slots=True)
class Channel:
    """A channel that follows the reading list."""

    id: int
    key: ChannelKey
    schedule: Schedule
    paused: bool = False
    private: bool = False
    empty_notice_sent: bool = False
    recap: WeeklyRecap | None = None
    pick_order: PickOrder = PickOrder.QUEUE


@dataclass(frozen=True, slots=True)
class Post:
    """One paper posted (or about to be posted) to one channel on one local date."""

    id: int
    paper_id: int
    channel: ChannelKey
    local_date: date
    state: PostState
    # The platform's id of the message, once it is delivered.
    message_id: str | None = None
    permalink: str | None = None
    claimed_by: str | None = None
    claimed_at: datetime | None = None
    # The channel's row id (a foreign key), so comment writes need no second look-up.
    channel_id: int = 0


@dataclass(frozen=True, slots=True)
class CommentView:
    """A comment as shown and exported."""

    user: str
    message_id: str
    text: str
    edited: bool


@dataclass(frozen=True, slots=True)
class PostView:
    """A post with what the group said about it."""

    channel: ChannelKey
    date: date
    message_id: str | None
    permalink: str | None
    votes: VoteCount
    comments: tuple[CommentView, ...] = ()
    private: bool = False


@dataclass(frozen=True, slots=True)
class PaperRecord:
    """A paper with every post of it: the unit of export."""

    paper: Paper
    posts: tuple[PostView, ...] = field(default_factory=tuple)
    list_name: str | None = None


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import did: counts, and each rejection with its origin."""

    added: int
    known: int
    rejected: tuple[Rejection, ...]
    known_origins: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NewPaper:
    """A deduplicated draft with everything the store needs to keep it."""

    draft: PaperDraft
    fingerprint: str
    source: str
    added_by: str | None
    added_at: datetime
    position: int
    # The workspaces row the paper belongs to (see Store.workspace_id).
    workspace_id: int
    queue_channel_id: int | None = None
    list_id: int | None = None
    # Fields a person typed (a title given to /paperclub add): enrichment never changes them.
    locked: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Recap:
    """One line about yesterday's paper, opening today's post."""

    title: str
    permalink: str | None
    votes: VoteCount
    comments: int


@dataclass(frozen=True, slots=True)
class PaperCard:
    """Everything a platform needs to show a daily post; the same for every platform."""

    paper: Paper
    post_id: int
    local_date: date
    votes: VoteCount
    remaining: int
    added_by_name: str | None = None
    recap: Recap | None = None
    # The name of the reading list the paper came from ("Related papers: …").
    list_name: str | None = None
    # Up to two papers the group already read that are closest in meaning (the semantic extra).
    related: tuple[RelatedRead, ...] = ()
    # Why the taste picker chose this paper, one line; None when it came in queue order.
    pick_reason: str | None = None


@dataclass(frozen=True, slots=True)
class PostedMessage:
    """Where a platform put a message."""

    message_id: str
    permalink: str | None = None


# Around each matched word in a snippet; renderers turn them into bold (and escape the rest).
HIGHLIGHT_OPEN = "\x02"
HIGHLIGHT_CLOSE = "\x03"


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One search result: the paper, where it was posted, and why it matched."""

    paper: Paper
    snippet: str
    from_comment: bool
    score: float
    comment_user: str | None = None
    channel: ChannelKey | None = None
    post_date: date | None = None
    permalink: str | None = None
    votes: VoteCount = field(default_factory=VoteCount)
    comments: int = 0


@dataclass(frozen=True, slots=True)
class SearchPage:
    """A page of hits, with how many there are in all."""

    hits: tuple[SearchHit, ...]
    total: int
    offset: int
    # True when no paper had every word and the hits have any of them instead.
    relaxed: bool = False


@dataclass(frozen=True, slots=True)
class VoteState:
    """A person's current vote (+1 or -1) and what set it (button, or a reaction's name)."""

    value: int
    source: str


@dataclass(frozen=True, slots=True)
class CommentState:
    """What is stored for a comment: its text, or that it was deleted."""

    text: str
    deleted: bool


@dataclass(frozen=True, slots=True)
class TopEntry:
    """A posted paper with its standing: for /paperclub top and the weekly recap."""

    title: str
    channel: ChannelKey
    date: date
    permalink: str | None
    votes: VoteCount
    comments: int
