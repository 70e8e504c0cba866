"""Votes on a post, counted: shared by the domain's modules."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.ratings import NOT_RATED, RatingCount, rated_liking


@dataclass(frozen=True, slots=True)
class VoteCount:
    """Thumbs up and down on a post."""

    up: int = 0
    down: int = 0


COMMENT_WEIGHT = 0.5  # a comment shows interest, half as much as a 👍
DISCUSSION_CAP = 6  # beyond a few comments, a thread is lively, not more liked


def liking_of(*, votes: VoteCount, comments: int, rated: RatingCount = NOT_RATED) -> float:
    """How much a group liked a paper it read: 👍 minus 👎, and COMMENT_WEIGHT a comment up to
    DISCUSSION_CAP comments (the taste picker's measure, and the suggestions ranking's); and
    what members said of its sessions after them (ratings.rated_liking)."""
    talk = COMMENT_WEIGHT * min(comments, DISCUSSION_CAP)
    return votes.up - votes.down + talk + rated_liking(rated=rated, cap=DISCUSSION_CAP)
