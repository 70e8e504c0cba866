"""Meaning: neighbours by vector, papers the group already read, and how a channel picks."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date

from bot.domain.keys import ChannelKey
from bot.domain.votes import VoteCount


class PickOrder(enum.StrEnum):
    """How a channel's next paper is chosen: list order, or what the group is predicted to like."""

    QUEUE = "queue"
    TASTE = "taste"


@dataclass(frozen=True, slots=True)
class Neighbour:
    """A paper close in meaning, and how close (cosine similarity, 1 is the same text)."""

    paper_id: int
    similarity: float


@dataclass(frozen=True, slots=True)
class ReadPaper:
    """A paper the group already read: its latest post's date, place, votes and comments."""

    paper_id: int
    title: str
    channel: ChannelKey
    date: date
    permalink: str | None
    votes: VoteCount
    comments: int


@dataclass(frozen=True, slots=True)
class RelatedRead:
    """A paper read before, named on a post: its title, when it was posted, its votes."""

    title: str
    date: date
    permalink: str | None
    votes: VoteCount


@dataclass(frozen=True, slots=True)
class Ranked:
    """A search candidate: its keyword score, its best comment's score and that comment, and
    whether it matched every word (False: a related paper, matching some of them)."""

    paper_id: int
    text_score: float
    comment_score: float = 0.0
    comment_id: int | None = None
    every_word: bool = True


@dataclass(frozen=True, slots=True)
class Fused:
    """A candidate's place in each list (1-based; None when absent) and its fused score."""

    ranked: Ranked
    score: float
    keyword_rank: int | None = None
    vector_rank: int | None = None
    similarity: float | None = None
