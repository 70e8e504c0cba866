"""Ranked choice by instant runoff, with the tie rule of bot/meetings/polls.py.

Each round counts every ballot for its first choice still in the race. A nomination holding
more than half of the votes still counting wins, as does the last one left; otherwise the one
standing lowest by the tie rule (fewest votes, then fewest voters, then the latest nominated,
then the higher id) is eliminated and its ballots pass on. Nominations nobody ranked first
are eliminated one a round, like any other, so every elimination is a round of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from bot.meetings.ballots import EVEN, Ballot, Nomination, Weights
from bot.meetings.polls import (
    Count,
    PollResult,
    Round,
    by_standing,
    check_ids,
    weighted_choices,
)


def instant_runoff(
    *, nominations: Sequence[Nomination], ballots: Iterable[Ballot], weights: Weights = EVEN
) -> PollResult:
    """Instant-runoff voting over `ballots`' rankings; see the module's rule."""
    check_ids(nominations=nominations)
    counted = weighted_choices(nominations=nominations, ballots=ballots, weights=weights)
    if not counted:
        zero = (Count(nomination=n.id, votes=Fraction(0), voters=0) for n in nominations)
        return PollResult(winner=None, counts=by_standing(counts=zero, nominations=nominations))
    in_race = {nomination.id for nomination in nominations}
    rounds: list[Round] = []
    out: list[Count] = []  # each eliminated nomination's last count, in order of elimination
    while True:
        votes = dict.fromkeys(in_race, Fraction(0))
        voters = dict.fromkeys(in_race, 0)
        exhausted = Fraction(0)
        for weight, choices in counted:
            first = next((choice for choice in choices if choice in in_race), None)
            if first is None:
                exhausted += weight
            else:
                votes[first] += weight
                voters[first] += 1
        counts = by_standing(
            counts=(Count(nomination=n, votes=votes[n], voters=voters[n]) for n in in_race),
            nominations=nominations,
        )
        leader, lowest = counts[0], counts[-1]
        if len(counts) == 1 or leader.votes * 2 > sum(votes.values()):
            rounds.append(Round(counts=counts, eliminated=None, exhausted=exhausted))
            finish = (*counts, *reversed(out))
            return PollResult(winner=leader.nomination, counts=finish, rounds=tuple(rounds))
        rounds.append(Round(counts=counts, eliminated=lowest.nomination, exhausted=exhausted))
        out.append(lowest)
        in_race.remove(lowest.nomination)
