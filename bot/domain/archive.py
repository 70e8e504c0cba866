"""What the web archive shows: posts of public channels, with their standing and activity."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from bot.domain import ChannelKey, VoteCount


@dataclass(frozen=True, slots=True)
class ArchivePost:
    """One delivered post of a public channel, with its paper's title and standing."""

    paper_id: int
    title: str
    authors: tuple[str, ...]
    channel: ChannelKey
    date: date
    permalink: str | None
    votes: VoteCount
    comments: int
    abstract: str = ""
    # What a reference manager finds the paper by (the list pages' COinS carry them).
    url: str | None = None
    arxiv_id: str | None = None
    doi: str | None = None


@dataclass(frozen=True, slots=True)
class PostList:
    """A page of posts, newest (or best) first, with how many there are in all."""

    posts: tuple[ArchivePost, ...]
    total: int
    offset: int


@dataclass(frozen=True, slots=True)
class WeekActivity:
    """Posts, votes and comments of one ISO week (its Monday), in public channels."""

    monday: date
    posts: int
    votes: int
    comments: int


@dataclass(frozen=True, slots=True)
class VoteMoment:
    """When one vote on a paper was last set, and which way."""

    at: datetime
    value: int
