"""Ranked choice by instant runoff, worked by hand: rounds, transfers, exhaustion, ties."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

from bot.meetings.ballots import Ballot, Nomination, Weights
from bot.meetings.polls import Count, Round, approval_tally
from bot.meetings.runoff import instant_runoff

T0 = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)
MEMPHIS, NASHVILLE, CHATTANOOGA, KNOXVILLE = 1, 2, 3, 4


def _nominations(*ids: int) -> tuple[Nomination, ...]:
    """Nominations nominated a minute apart, in the order given."""
    return tuple(
        Nomination(id=n, nominated_at=T0 + timedelta(minutes=i), nominated_by=f"U{n}")
        for i, n in enumerate(ids)
    )


def _many(prefix: str, count: int, *choices: int) -> list[Ballot]:
    return [Ballot(voter=f"{prefix}{i}", choices=choices) for i in range(count)]


def _round(result_round: Round) -> dict[int, int]:
    return {c.nomination: int(c.votes) for c in result_round.counts}


def test_the_plurality_leader_loses_the_runoff() -> None:
    """Wikipedia's Tennessee capital: Memphis leads on first choices, Knoxville wins."""
    ballots = [
        *_many("m", 42, MEMPHIS, NASHVILLE, CHATTANOOGA, KNOXVILLE),
        *_many("n", 26, NASHVILLE, CHATTANOOGA, KNOXVILLE, MEMPHIS),
        *_many("c", 15, CHATTANOOGA, KNOXVILLE, NASHVILLE, MEMPHIS),
        *_many("k", 17, KNOXVILLE, CHATTANOOGA, NASHVILLE, MEMPHIS),
    ]
    nominations = _nominations(MEMPHIS, NASHVILLE, CHATTANOOGA, KNOXVILLE)
    result = instant_runoff(nominations=nominations, ballots=ballots)
    assert result.winner == KNOXVILLE
    assert [_round(r) for r in result.rounds] == [
        {MEMPHIS: 42, NASHVILLE: 26, KNOXVILLE: 17, CHATTANOOGA: 15},
        {MEMPHIS: 42, KNOXVILLE: 32, NASHVILLE: 26},
        {KNOXVILLE: 58, MEMPHIS: 42},
    ]
    assert [r.eliminated for r in result.rounds] == [CHATTANOOGA, NASHVILLE, None]
    # Finishing order: the final round, then the eliminated, the last eliminated first, each
    # with its count in its last round.
    assert [(c.nomination, int(c.votes)) for c in result.counts] == [
        (KNOXVILLE, 58),
        (MEMPHIS, 42),
        (NASHVILLE, 26),
        (CHATTANOOGA, 15),
    ]
    plurality = approval_tally(
        nominations=nominations, ballots=[Ballot(b.voter, b.choices[:1]) for b in ballots]
    )
    assert plurality.winner == MEMPHIS


def test_a_first_round_majority_wins_at_once() -> None:
    ballots = [*_many("a", 3, 2, 1), *_many("b", 2, 1, 2)]
    result = instant_runoff(nominations=_nominations(1, 2, 3), ballots=ballots)
    assert result.winner == 2
    assert len(result.rounds) == 1 and result.rounds[0].eliminated is None
    assert result.rounds[0].counts[-1] == Count(nomination=3, votes=Fraction(0), voters=0)


def test_exhausted_ballots_drop_out_of_the_majority() -> None:
    # 1: 4 first choices; 2: 3; 3: 2 that rank nothing else. Eliminating 3 exhausts them, and
    # 1's 4 of the 7 still counting is a majority though not one of all 9 ballots.
    ballots = [*_many("a", 4, 1), *_many("b", 3, 2), *_many("c", 2, 3)]
    result = instant_runoff(nominations=_nominations(1, 2, 3), ballots=ballots)
    assert result.winner == 1
    assert [r.exhausted for r in result.rounds] == [0, 2]
    assert [r.eliminated for r in result.rounds] == [3, None]


def test_nominations_nobody_ranked_are_eliminated_one_a_round() -> None:
    ballots = [*_many("a", 2, 1), *_many("b", 2, 2)]
    result = instant_runoff(nominations=_nominations(1, 2, 3, 4), ballots=ballots)
    # 4 then 3 (both at nothing: the later nomination goes first), then 2 (a tie with 1 on
    # votes and heads; 1 was nominated first), and 1 is the last left.
    assert [r.eliminated for r in result.rounds] == [4, 3, 2, None]
    assert result.winner == 1
    assert [c.nomination for c in result.counts] == [1, 2, 3, 4]


def test_an_elimination_tie_is_broken_by_heads_before_seniority() -> None:
    # 2 and 3 tie at 1 vote each under weights; 3's is two voters at ½, so 2 goes.
    weights = Weights(by_voter={"a": 2.0, "b": 1.0, "c": 0.5, "d": 0.5})
    ballots = [
        Ballot("a", (1,)),
        Ballot("b", (2, 3)),
        Ballot("c", (3, 2)),
        Ballot("d", (3, 2)),
    ]
    result = instant_runoff(nominations=_nominations(1, 2, 3), ballots=ballots, weights=weights)
    assert result.rounds[0].eliminated == 2
    # Then 2 of 4 against 1's 2: no majority, and the tie goes by heads again; 3 is left.
    assert [(c.nomination, c.votes, c.voters) for c in result.rounds[1].counts] == [
        (3, 2, 3),
        (1, 2, 1),
    ]
    assert [r.eliminated for r in result.rounds] == [2, 1, None]
    assert result.winner == 3


def test_weights_change_the_winner() -> None:
    ballots = [*_many("going", 2, 1, 2), *_many("maybe", 3, 2, 1)]
    even = instant_runoff(nominations=_nominations(1, 2), ballots=ballots)
    assert even.winner == 2
    weights = Weights(by_voter={f"maybe{i}": 0.5 for i in range(3)})
    weighed = instant_runoff(nominations=_nominations(1, 2), ballots=ballots, weights=weights)
    assert weighed.winner == 1
    assert _round(weighed.rounds[0]) == {1: 2, 2: 1}  # 1½ shown whole: int() floors
    assert weighed.rounds[0].counts[1].votes == Fraction(3, 2)
