"""What members said of a session after it (issue 33): was it worth it, was the discussion good;
counted per paper for the group's taste (the taste order and the suggestions ranking)."""

from __future__ import annotations

from dataclasses import dataclass

# A member's "👍 Worth it" on a session counts for its paper as a 👍 on a post does, and "👎 Not
# really" as a 👎: both say whether reading the paper was worth the group's hour.
WORTH_WEIGHT = 1.0
# "💬 Good discussion" counts as a comment does (votes.COMMENT_WEIGHT: interest, half a 👍).
# "🤐 Quiet" counts nothing: a quiet hour says as much about who came as about the paper.
LIVELY_WEIGHT = 0.5


@dataclass(frozen=True, slots=True)
class RatingCount:
    """How members rated a paper's sessions: worth it or not, a good discussion or quiet."""

    worth: int = 0
    not_worth: int = 0
    lively: int = 0
    quiet: int = 0

    def __add__(self, other: RatingCount) -> RatingCount:
        """Two sessions' counts of one paper, together."""
        return RatingCount(
            worth=self.worth + other.worth,
            not_worth=self.not_worth + other.not_worth,
            lively=self.lively + other.lively,
            quiet=self.quiet + other.quiet,
        )


NOT_RATED = RatingCount()


def rated_liking(*, rated: RatingCount, cap: int) -> float:
    """What the ratings add to how much the group liked a paper: WORTH_WEIGHT a "worth it"
    minus one a "not really", and LIVELY_WEIGHT a "good discussion" up to `cap` of them (as
    comments are capped: votes.DISCUSSION_CAP)."""
    return WORTH_WEIGHT * (rated.worth - rated.not_worth) + LIVELY_WEIGHT * min(rated.lively, cap)
