"""A poll's inputs, as values: its nominations, the voters' ballots and what each ballot weighs.

A ballot names nominations by id only; no nomination text ever reaches a tally, so nothing a
member wrote in a title can act on a count. Voters and nominators are the platforms' user ids,
kept as given and compared as strings.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Nomination:
    """A paper put forward for a session's poll. `nominated_at` is timezone-aware (the tie rule
    compares it across nominations); `id` is stable for the nomination's life, carried votes
    included."""

    id: int
    nominated_at: datetime
    nominated_by: str


@dataclass(frozen=True, slots=True)
class Ballot:
    """One voter's choices, nomination ids in their order of preference (approval voting reads
    them as a set). Ids of no nomination in the poll and repeats are skipped when counted, so
    no ballot is ever refused; an empty ballot withdraws the voter's earlier one."""

    voter: str
    choices: tuple[int, ...]


class Rsvp(enum.StrEnum):
    """A member's answer to a session's invitation."""

    GOING = "going"
    MAYBE = "maybe"
    NO = "no"


@dataclass(frozen=True, slots=True)
class Weights:
    """What each voter's ballot counts: `by_voter`'s weight, else `otherwise`. Weights are
    finite and not negative; a voter of weight 0 counts for nothing, not even as a head in the
    tie rule. Read as the decimals they print as (0.1 + 0.2 ties with 0.3)."""

    by_voter: Mapping[str, float] = field(default_factory=dict)
    otherwise: float = 1.0

    def __post_init__(self) -> None:
        for weight in (*self.by_voter.values(), self.otherwise):
            if not math.isfinite(weight) or weight < 0:
                raise ValueError(f"a weight is finite and not negative, not {weight!r}")

    def of(self, *, voter: str) -> Fraction:
        """The voter's weight, exact: sums of these never depend on the order ballots came."""
        return Fraction(str(float(self.by_voter.get(voter, self.otherwise))))


EVEN = Weights()  # one voter, one vote


def rsvp_weights(
    *,
    rsvps: Mapping[str, Rsvp],
    no: float,
    unknown: float,
    going: float = 1.0,
    maybe: float = 0.5,
) -> Weights:
    """Weights by each voter's RSVP to the session: going 1 and maybe ½ unless the caller says
    otherwise; what a "no" and a voter who never answered weigh is the caller's (a channel
    setting), as there is no default the issue agrees on."""
    by_answer = {Rsvp.GOING: going, Rsvp.MAYBE: maybe, Rsvp.NO: no}
    return Weights(
        by_voter={voter: by_answer[answer] for voter, answer in rsvps.items()},
        otherwise=unknown,
    )


def standing_ballots(*, ballots: Iterable[Ballot]) -> tuple[Ballot, ...]:
    """Each voter's last ballot, in the order those were cast: a later ballot replaces the
    voter's earlier one (a vote changed, or one carried from the last poll and cast anew)."""
    latest: dict[str, Ballot] = {}
    for ballot in ballots:
        latest.pop(ballot.voter, None)
        latest[ballot.voter] = ballot
    return tuple(latest.values())


def valid_choices(*, ballot: Ballot, ids: Iterable[int]) -> tuple[int, ...]:
    """The ballot's choices that name one of `ids`, each once, first occurrence kept."""
    known = set(ids)
    return tuple(dict.fromkeys(choice for choice in ballot.choices if choice in known))
