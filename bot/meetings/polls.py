"""The poll that chooses a session's paper: its tallies, pure (issue 33).

Ballots (bot/meetings/ballots.py) name nominations by id, in the voter's order of preference;
a voter's last ballot stands. Each counts its voter's weight: 1, or by RSVP (going 1, maybe ½,
no and unknown as the channel says). Counts are exact fractions, so a tie is a tie whatever
order the ballots came in.

The tie rule, everywhere. Of two nominations, the one with more votes stands higher; at equal
votes, the one more voters chose (heads, whatever their weights, weight 0 not counted); then
the one nominated earlier; then the lower id. A poll's winner is the nomination standing
highest; instant runoff eliminates the one standing lowest.

Approval voting (the default): each voter approves any of the nominations, and each approval
counts the voter's weight. The winner is the nomination with the most, by the tie rule; no
votes, no winner.

Ranked choice (instant runoff, bot/meetings/runoff.py): each ballot counts for its first
choice still in the race. A nomination holding more than half the votes of the ballots still
counting wins; otherwise the one standing lowest is eliminated and its ballots pass to their
next choice still in the race. A ballot with none left is exhausted and counts no more, so
the majority is of the ballots still counting. Ties are broken by the tie rule on the round's
counts only, never by earlier rounds. No votes, no winner and no rounds.

Losing nominations keep their votes: after the poll, every ballot minus the winner carries
over to the next poll (carried_over), where a voter's new ballot replaces their carried one.

Hidden results: until the poll closes, a voter sees their own ballot only; once it closes,
everyone sees the whole result (visible_results).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from bot.meetings.ballots import EVEN, Ballot, Nomination, Weights, standing_ballots, valid_choices


@dataclass(frozen=True, slots=True)
class Count:
    """A nomination's votes (the weights of its voters, summed) and how many voters those are
    (of weight above 0)."""

    nomination: int
    votes: Fraction
    voters: int


@dataclass(frozen=True, slots=True)
class Round:
    """One round of an instant runoff: the counts of the nominations still in it, highest
    first by the tie rule; the one it eliminated (None in the deciding round); the votes of
    ballots exhausted so far."""

    counts: tuple[Count, ...]
    eliminated: int | None
    exhausted: Fraction


@dataclass(frozen=True, slots=True)
class PollResult:
    """A tally. `counts` holds every nomination once, in finishing order (the winner first);
    under ranked choice each carries its count in the last round it stood in, and those
    eliminated follow the final round's, the last eliminated first. `rounds` is empty for
    approval voting and for a poll without votes."""

    winner: int | None
    counts: tuple[Count, ...]
    rounds: tuple[Round, ...] = ()


@dataclass(frozen=True, slots=True)
class PollView:
    """What one voter may see of a poll: their own standing ballot (None when they have not
    voted), its choices those of the poll; and the result, None while it is hidden."""

    own: Ballot | None
    result: PollResult | None


def standing_key(
    *, count: Count, nominations: dict[int, Nomination]
) -> tuple[Fraction, int, datetime, int]:
    """The tie rule as a sort key: ascending sorts put the nomination standing highest first
    (most votes, most voters, earliest nominated, lowest id)."""
    nomination = nominations[count.nomination]
    return (-count.votes, -count.voters, nomination.nominated_at, nomination.id)


def by_standing(*, counts: Iterable[Count], nominations: Sequence[Nomination]) -> tuple[Count, ...]:
    """The counts, the nomination standing highest first."""
    by_id = {nomination.id: nomination for nomination in nominations}
    return tuple(sorted(counts, key=lambda count: standing_key(count=count, nominations=by_id)))


def weighted_choices(
    *, nominations: Sequence[Nomination], ballots: Iterable[Ballot], weights: Weights
) -> tuple[tuple[Fraction, tuple[int, ...]], ...]:
    """Each standing ballot that counts for something: its weight, above 0, and its valid
    choices in order, at least one."""
    ids = [nomination.id for nomination in nominations]
    found = []
    for ballot in standing_ballots(ballots=ballots):
        weight = weights.of(voter=ballot.voter)
        choices = valid_choices(ballot=ballot, ids=ids)
        if weight > 0 and choices:
            found.append((weight, choices))
    return tuple(found)


def approval_tally(
    *, nominations: Sequence[Nomination], ballots: Iterable[Ballot], weights: Weights = EVEN
) -> PollResult:
    """Approval voting: each nomination counts the weights of the voters approving it; the
    highest by the tie rule wins, if it has any votes."""
    check_ids(nominations=nominations)
    votes = {nomination.id: Fraction(0) for nomination in nominations}
    voters = dict.fromkeys(votes, 0)
    for weight, choices in weighted_choices(
        nominations=nominations, ballots=ballots, weights=weights
    ):
        for choice in choices:
            votes[choice] += weight
            voters[choice] += 1
    counts = by_standing(
        counts=(Count(nomination=n, votes=votes[n], voters=voters[n]) for n in votes),
        nominations=nominations,
    )
    winner = counts[0].nomination if counts and counts[0].votes > 0 else None
    return PollResult(winner=winner, counts=counts)


def carried_over(*, ballots: Iterable[Ballot], result: PollResult) -> tuple[Ballot, ...]:
    """The votes the losing nominations keep for the next poll: each standing ballot with the
    winner taken out (a ranking keeps its order), and with it any id of no nomination in this
    poll; ballots left empty are dropped. Cast before the next poll's own ballots, these are
    replaced by a voter's new one (standing_ballots); weights are the next poll's."""
    ids = [count.nomination for count in result.counts if count.nomination != result.winner]
    carried = []
    for ballot in standing_ballots(ballots=ballots):
        choices = valid_choices(ballot=ballot, ids=ids)
        if choices:
            carried.append(Ballot(voter=ballot.voter, choices=choices))
    return tuple(carried)


def visible_results(
    *, result: PollResult, ballots: Iterable[Ballot], viewer: str, hidden: bool, closed: bool
) -> PollView:
    """What `viewer` may see: their own standing ballot always; the result once the poll has
    closed, or all along when results are not hidden."""
    ids = [count.nomination for count in result.counts]
    own = None
    for ballot in standing_ballots(ballots=ballots):
        if ballot.voter == viewer:
            own = Ballot(voter=viewer, choices=valid_choices(ballot=ballot, ids=ids))
    return PollView(own=own, result=result if closed or not hidden else None)


def check_ids(*, nominations: Sequence[Nomination]) -> None:
    """Refuses two nominations under one id: a ballot could not say which it meant."""
    if len({nomination.id for nomination in nominations}) != len(nominations):
        raise ValueError("nomination ids repeat")
