"""Approval voting, the tie rule, weights, carried votes and hidden results, worked by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from bot.meetings.ballots import (
    Ballot,
    Nomination,
    Rsvp,
    Weights,
    rsvp_weights,
    standing_ballots,
)
from bot.meetings.polls import (
    Count,
    PollResult,
    PollView,
    approval_tally,
    carried_over,
    visible_results,
)
from bot.meetings.runoff import instant_runoff

T0 = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)
HOSTILE = ("<!channel>", "@everyone", "<@U0123>", "*bold* 🧪", "x" * 10_000, "[bold]", "")


def _nominations(*ids: int) -> tuple[Nomination, ...]:
    """Nominations nominated a minute apart, in the order given."""
    return tuple(
        Nomination(id=n, nominated_at=T0 + timedelta(minutes=i), nominated_by=f"U{n}")
        for i, n in enumerate(ids)
    )


def _ballot(voter: str, *choices: int) -> Ballot:
    return Ballot(voter=voter, choices=choices)


def _votes(result: PollResult) -> dict[int, Fraction]:
    return {count.nomination: count.votes for count in result.counts}


def test_approval_counts_every_approval_and_the_most_wins() -> None:
    ballots = [_ballot("ana", 1, 2), _ballot("ben", 2), _ballot("cy", 2, 3), _ballot("di", 1)]
    result = approval_tally(nominations=_nominations(1, 2, 3), ballots=ballots)
    assert result.winner == 2
    assert result.counts == (
        Count(nomination=2, votes=Fraction(3), voters=3),
        Count(nomination=1, votes=Fraction(2), voters=2),
        Count(nomination=3, votes=Fraction(1), voters=1),
    )
    assert result.rounds == ()


def test_no_votes_no_winner() -> None:
    nominations = _nominations(7, 3)
    for tally in (approval_tally, instant_runoff):
        for ballots in ([], [_ballot("ana")], [_ballot("ana", 99)]):
            result = tally(nominations=nominations, ballots=ballots)
            assert result.winner is None
            assert [c.nomination for c in result.counts] == [7, 3]  # earlier nomination first
            assert {c.votes for c in result.counts} == {0}
            assert result.rounds == ()
    assert approval_tally(nominations=(), ballots=[_ballot("ana", 1)]) == PollResult(
        winner=None, counts=()
    )


def test_ties_go_to_more_voters_then_the_earlier_nomination_then_the_lower_id() -> None:
    # 5 nominated before 4 and 6; 4 and 6 at the same moment.
    nominations = (
        Nomination(id=5, nominated_at=T0, nominated_by="ana"),
        Nomination(id=6, nominated_at=T0 + timedelta(hours=1), nominated_by="ben"),
        Nomination(id=4, nominated_at=T0 + timedelta(hours=1), nominated_by="ben"),
    )
    level = [_ballot("ana", 4, 5, 6)]
    assert approval_tally(nominations=nominations, ballots=level).winner == 5
    assert [
        c.nomination for c in approval_tally(nominations=nominations, ballots=level).counts
    ] == [
        5,
        4,
        6,
    ]
    # Equal weighted votes: two voters at ½ beat one at 1.
    weights = Weights(by_voter={"ana": 1.0, "ben": 0.5, "cy": 0.5})
    heads = [_ballot("ana", 5), _ballot("ben", 6), _ballot("cy", 6)]
    result = approval_tally(nominations=nominations, ballots=heads, weights=weights)
    assert result.winner == 6
    assert _votes(result) == {5: 1, 6: 1, 4: 0}


def test_rsvp_weights_count_going_maybe_and_the_callers_no_and_unknown() -> None:
    rsvps = {"ana": Rsvp.GOING, "ben": Rsvp.MAYBE, "cy": Rsvp.MAYBE, "di": Rsvp.NO}
    weights = rsvp_weights(rsvps=rsvps, no=0.0, unknown=0.25)
    ballots = [
        _ballot("ana", 1),
        _ballot("ben", 2),
        _ballot("cy", 2),
        _ballot("di", 2, 1),
        _ballot("eve", 3),  # never answered
    ]
    result = approval_tally(nominations=_nominations(1, 2, 3), ballots=ballots, weights=weights)
    assert _votes(result) == {1: 1, 2: 1, 3: Fraction(1, 4)}
    # 1 ties 2 on votes; 2 has more voters behind it. di's "no" weighs 0, so is no head for 1.
    assert [(c.nomination, c.voters) for c in result.counts] == [(2, 2), (1, 1), (3, 1)]
    assert result.winner == 2
    unweighted = approval_tally(nominations=_nominations(1, 2, 3), ballots=ballots)
    assert _votes(unweighted) == {1: 2, 2: 3, 3: 1}


def test_weights_are_exact_decimals_so_ties_do_not_depend_on_order() -> None:
    weights = Weights(by_voter={"a": 0.1, "b": 0.2, "c": 0.3})
    ballots = [_ballot("a", 2), _ballot("b", 2), _ballot("c", 1)]
    for order in (ballots, ballots[::-1]):
        result = approval_tally(nominations=_nominations(1, 2), ballots=order, weights=weights)
        assert _votes(result) == {1: Fraction(3, 10), 2: Fraction(3, 10)}
        assert result.winner == 2  # a tie on votes, broken by heads


@pytest.mark.parametrize("bad", [-0.5, float("nan"), float("inf")])
def test_weights_are_finite_and_not_negative(bad: float) -> None:
    with pytest.raises(ValueError, match="finite and not negative"):
        Weights(by_voter={"ana": bad})
    with pytest.raises(ValueError, match="finite and not negative"):
        rsvp_weights(rsvps={}, no=0.0, unknown=bad)


def test_a_voters_last_ballot_stands_and_repeats_and_strangers_are_skipped() -> None:
    ballots = [_ballot("ana", 1), _ballot("ben", 2, 2, 2, 42), _ballot("ana", 2)]
    assert standing_ballots(ballots=ballots) == (_ballot("ben", 2, 2, 2, 42), _ballot("ana", 2))
    result = approval_tally(nominations=_nominations(1, 2), ballots=ballots)
    assert _votes(result) == {1: 0, 2: 2}
    with pytest.raises(ValueError, match="repeat"):
        approval_tally(nominations=_nominations(1, 1), ballots=ballots)


def test_hostile_voters_and_nominators_are_only_keys() -> None:
    nominations = tuple(
        Nomination(id=i, nominated_at=T0, nominated_by=text) for i, text in enumerate(HOSTILE)
    )
    ballots = [_ballot(text, i, 0) for i, text in enumerate(HOSTILE)]
    result = approval_tally(nominations=nominations, ballots=ballots)
    assert result.winner == 0
    assert _votes(result) == {0: len(HOSTILE), **{i: 1 for i in range(1, len(HOSTILE))}}
    rankings = [_ballot(text, 0, i) for i, text in enumerate(HOSTILE)]
    ranked = instant_runoff(nominations=nominations, ballots=rankings)
    assert ranked.winner == 0 and len(ranked.rounds) == 1
    view = visible_results(
        result=result, ballots=ballots, viewer="@everyone", hidden=True, closed=False
    )
    assert view == PollView(own=_ballot("@everyone", 1, 0), result=None)


def test_losing_nominations_keep_their_votes_for_the_next_poll() -> None:
    ballots = [_ballot("ana", 1, 2), _ballot("ben", 1), _ballot("cy", 3, 1, 9), _ballot("di", 2)]
    first = approval_tally(nominations=_nominations(1, 2, 3), ballots=ballots)
    assert first.winner == 1
    carried = carried_over(ballots=ballots, result=first)
    # ben approved only the winner: nothing carries; 9 was never nominated.
    assert carried == (_ballot("ana", 2), _ballot("cy", 3), _ballot("di", 2))
    # The next poll: 1 is gone, 4 is new; cy votes again and so replaces what carried over.
    cast = [_ballot("cy", 4), _ballot("eve", 4)]
    second = approval_tally(nominations=_nominations(2, 3, 4), ballots=[*carried, *cast])
    assert _votes(second) == {2: 2, 3: 0, 4: 2}
    assert second.winner == 2  # a tie at 2 votes and 2 voters: 2 was nominated first


def test_a_ranking_carries_over_in_order_without_the_winner() -> None:
    ballots = [_ballot("ana", 3, 1, 2), _ballot("ben", 1, 3)]
    result = instant_runoff(nominations=_nominations(1, 2, 3), ballots=ballots)
    assert result.winner == 1
    assert carried_over(ballots=ballots, result=result) == (
        _ballot("ana", 3, 2),
        _ballot("ben", 3),
    )


def test_nothing_won_carries_everything_over() -> None:
    result = approval_tally(nominations=_nominations(1), ballots=[])
    assert carried_over(ballots=[_ballot("ana", 1)], result=result) == (_ballot("ana", 1),)


def test_hidden_results_show_a_voter_their_own_ballot_only_until_close() -> None:
    ballots = [_ballot("ana", 2, 1, 77), _ballot("ben", 1)]
    result = approval_tally(nominations=_nominations(1, 2), ballots=ballots)
    hidden = visible_results(
        result=result, ballots=ballots, viewer="ana", hidden=True, closed=False
    )
    assert hidden == PollView(own=_ballot("ana", 2, 1), result=None)
    closed = visible_results(result=result, ballots=ballots, viewer="ana", hidden=True, closed=True)
    assert closed == PollView(own=_ballot("ana", 2, 1), result=result)
    shown = visible_results(result=result, ballots=ballots, viewer="cy", hidden=False, closed=False)
    assert shown == PollView(own=None, result=result)
    withdrawn = [*ballots, _ballot("ana")]
    view = visible_results(
        result=result, ballots=withdrawn, viewer="ana", hidden=True, closed=False
    )
    assert view == PollView(own=_ballot("ana"), result=None)
