"""What holds for every poll (hypothesis): order-free tallies, conserved votes, one rule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.meetings.ballots import Ballot, Nomination, Weights, standing_ballots
from bot.meetings.polls import PollResult, approval_tally, carried_over
from bot.meetings.runoff import instant_runoff

T0 = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)
VOTERS = ("ana", "ben", "cy", "<!channel>", "@everyone", "🧪")
TALLIES = (approval_tally, instant_runoff)

nominations_st = st.lists(
    st.tuples(st.integers(1, 6), st.integers(0, 3)),
    min_size=1,
    max_size=6,
    unique_by=lambda t: t[0],
).map(
    lambda pairs: tuple(
        Nomination(id=n, nominated_at=T0 + timedelta(minutes=m), nominated_by="U") for n, m in pairs
    )
)
# Ids 0 and 7-8 name no nomination; repeats and empty ballots are allowed.
ballots_st = st.lists(
    st.builds(
        Ballot,
        voter=st.sampled_from(VOTERS),
        choices=st.lists(st.integers(0, 8), max_size=6).map(tuple),
    ),
    max_size=12,
)
weights_st = st.builds(
    Weights,
    by_voter=st.dictionaries(st.sampled_from(VOTERS), st.sampled_from((0.0, 0.25, 0.5, 1.0, 2.0))),
    otherwise=st.sampled_from((0.0, 0.5, 1.0)),
)


def _ids(result: PollResult) -> list[int]:
    return [count.nomination for count in result.counts]


@settings(max_examples=300, deadline=None)
@given(nominations=nominations_st, ballots=ballots_st, weights=weights_st, data=st.data())
def test_the_order_ballots_came_in_changes_nothing(
    nominations: tuple[Nomination, ...],
    ballots: list[Ballot],
    weights: Weights,
    data: st.DataObject,
) -> None:
    standing = list(standing_ballots(ballots=ballots))
    shuffled = data.draw(st.permutations(standing))
    for tally in TALLIES:
        assert tally(nominations=nominations, ballots=standing, weights=weights) == tally(
            nominations=nominations, ballots=shuffled, weights=weights
        )


@settings(max_examples=300, deadline=None)
@given(nominations=nominations_st, ballots=ballots_st, weights=weights_st)
def test_every_nomination_is_counted_once_and_the_winner_stands_first(
    nominations: tuple[Nomination, ...], ballots: list[Ballot], weights: Weights
) -> None:
    for tally in TALLIES:
        result = tally(nominations=nominations, ballots=ballots, weights=weights)
        assert sorted(_ids(result)) == sorted(n.id for n in nominations)
        if result.winner is None:
            assert all(count.votes == 0 for count in result.counts)
        else:
            assert result.counts[0].nomination == result.winner
            assert result.counts[0].votes > 0


@settings(max_examples=300, deadline=None)
@given(nominations=nominations_st, ballots=ballots_st, weights=weights_st)
def test_approval_counts_are_the_approvers_weights(
    nominations: tuple[Nomination, ...], ballots: list[Ballot], weights: Weights
) -> None:
    result = approval_tally(nominations=nominations, ballots=ballots, weights=weights)
    standing = standing_ballots(ballots=ballots)
    for count in result.counts:
        approvers = [b.voter for b in standing if count.nomination in b.choices]
        assert count.votes == sum((weights.of(voter=v) for v in approvers), Fraction(0))
        assert count.voters == sum(1 for v in approvers if weights.of(voter=v) > 0)
    assert all(result.counts[0].votes >= count.votes for count in result.counts)


@settings(max_examples=300, deadline=None)
@given(nominations=nominations_st, ballots=ballots_st, weights=weights_st)
def test_runoff_rounds_conserve_votes_and_eliminate_one_at_a_time(
    nominations: tuple[Nomination, ...], ballots: list[Ballot], weights: Weights
) -> None:
    result = instant_runoff(nominations=nominations, ballots=ballots, weights=weights)
    if result.winner is None:
        assert result.rounds == ()
        return
    ids = {n.id for n in nominations}
    total = sum(
        (
            weights.of(voter=b.voter)
            for b in standing_ballots(ballots=ballots)
            if ids.intersection(b.choices)
        ),
        Fraction(0),
    )
    eliminated = [r.eliminated for r in result.rounds[:-1]]
    assert result.rounds[-1].eliminated is None and None not in eliminated
    assert result.winner not in eliminated
    for number, round_ in enumerate(result.rounds):
        assert sum((c.votes for c in round_.counts), round_.exhausted) == total
        assert len(round_.counts) == len(nominations) - number
        assert {c.nomination for c in round_.counts} == ids - set(eliminated[:number])
    final = result.rounds[-1]
    assert len(final.counts) == 1 or final.counts[0].votes * 2 > total - final.exhausted
    exhausted = [r.exhausted for r in result.rounds]
    assert exhausted == sorted(exhausted)


@settings(max_examples=200, deadline=None)
@given(nominations=nominations_st, ballots=ballots_st, scale=st.sampled_from((0.5, 3.0)))
def test_scaling_every_weight_alike_changes_no_winner(
    nominations: tuple[Nomination, ...], ballots: list[Ballot], scale: float
) -> None:
    for tally in TALLIES:
        even = tally(nominations=nominations, ballots=ballots)
        scaled = tally(nominations=nominations, ballots=ballots, weights=Weights(otherwise=scale))
        assert scaled.winner == even.winner
        assert _ids(scaled) == _ids(even)


@settings(max_examples=300, deadline=None)
@given(nominations=nominations_st, ballots=ballots_st)
def test_carried_votes_are_the_losers_in_the_voters_order(
    nominations: tuple[Nomination, ...], ballots: list[Ballot]
) -> None:
    for tally in TALLIES:
        result = tally(nominations=nominations, ballots=ballots)
        carried = carried_over(ballots=ballots, result=result)
        before = {b.voter: b.choices for b in standing_ballots(ballots=ballots)}
        losers = {n.id for n in nominations} - {result.winner}
        for ballot in carried:
            assert ballot.choices and set(ballot.choices) <= losers
            kept = [c for c in dict.fromkeys(before[ballot.voter]) if c in losers]
            assert list(ballot.choices) == kept
        assert {b.voter for b in carried} == {v for v, c in before.items() if losers & set(c)}
