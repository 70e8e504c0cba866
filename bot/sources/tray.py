"""The day's suggestions tray: the best few candidates the archive and the tray do not know.

A candidate is known when any of its keys (candidates.candidate_keys: version-less arXiv id,
DOI, the arXiv preprint's DataCite DOI, the archive's fingerprint, the title) is among the
known keys or the keys of a candidate ranked above it, whether or not that one made the tray.
Keys join: a candidate known by its arXiv id makes its DOI known too, so a later duplicate
giving only the DOI is dropped as well. A replacement of a paper already read meets it by its
arXiv id and is not new; one of a paper never seen is a candidate like any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.sources.candidates import candidate_keys
from bot.sources.rank import RankedCandidate

PER_DAY = 3  # the default of suggestions a day (an admin setting)


def fill_tray(
    *, ranked: Sequence[RankedCandidate], known: Iterable[str], limit: int = PER_DAY
) -> tuple[RankedCandidate, ...]:
    """At most `limit` of `ranked` (best first, as rank() gives them) that are new: not known
    under any key of `known` (the archive's keys, and those of candidates already suggested,
    promoted or hidden, in candidate_keys' form) nor a duplicate of one ranked above. Empty
    on a day with nothing new, and for a limit under one."""
    if limit < 1:
        return ()
    seen = set(known)
    chosen: list[RankedCandidate] = []
    for item in ranked:
        keys = candidate_keys(candidate=item.candidate)
        fresh = seen.isdisjoint(keys)
        seen.update(keys)
        if fresh:
            chosen.append(item)
            if len(chosen) == limit:
                break
    return tuple(chosen)
