"""A watch's keyword and author filters: which keywords and authors a candidate matches.

Keywords match whole words (or whole phrases) of the title and abstract, case and accents
aside, with punctuation read as a space ("self-supervised" finds "self supervised").
Authors match by family name, and by the first initial when the watch gives one
("Pegon", "P. Pegon", "Paul Pegon" and "Pegon, Paul" all find "Paul Pegon").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.ingest.keys import normalise_for_key
from bot.sources.candidates import Candidate


@dataclass(frozen=True, slots=True)
class FilterMatch:
    """What let a candidate through: the watch's keywords and authors it matched, as the
    watch wrote them (empty for a watch with no filters), for the tray's reason line."""

    keywords: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Name:
    """A person's name reduced for comparison: family name and first initial ("" if none)."""

    family: str
    initial: str


def _name(*, text: str) -> _Name | None:
    """The family name and first initial of "Given Family" or "Family, Given"."""
    family, comma, given = text.partition(",")
    if not comma:
        words = normalise_for_key(text=text).split()
        if not words:
            return None
        return _Name(family=words[-1], initial=words[0][0] if len(words) > 1 else "")
    family_words = normalise_for_key(text=family).split()
    given_words = normalise_for_key(text=given).split()
    if not family_words:
        return None
    return _Name(family=family_words[-1], initial=given_words[0][0] if given_words else "")


def _author_matches(*, wanted: _Name, authors: Iterable[_Name]) -> bool:
    """Whether some author has the wanted family name (and first initial, when wanted)."""
    return any(
        a.family == wanted.family
        and (not wanted.initial or not a.initial or a.initial == wanted.initial)
        for a in authors
    )


def match_filters(
    *, candidate: Candidate, keywords: Iterable[str] = (), authors: Iterable[str] = ()
) -> FilterMatch | None:
    """The keywords and authors `candidate` matches, or None when the watch has filters and
    none matches. A watch with keywords and authors passes a candidate matching either."""
    wanted_words = [(k, normalise_for_key(text=k)) for k in keywords]
    wanted_words = [(k, n) for k, n in wanted_words if n]
    wanted_people = [(a, _name(text=a)) for a in authors]
    people = [(a, n) for a, n in wanted_people if n is not None]
    if not wanted_words and not people:
        return FilterMatch()
    found_words: tuple[str, ...] = ()
    if wanted_words:
        title, abstract = candidate.title, candidate.abstract
        text = f" {normalise_for_key(text=title)} {normalise_for_key(text=abstract)} "
        found_words = tuple(k for k, n in wanted_words if f" {n} " in text)
    found_people: tuple[str, ...] = ()
    if people:  # a keywords-only watch reads no names: 2,000 entries of a listing name ~10,000
        names = [n for n in (_name(text=a) for a in candidate.authors) if n is not None]
        found_people = tuple(a for a, n in people if _author_matches(wanted=n, authors=names))
    if not found_words and not found_people:
        return None
    return FilterMatch(keywords=found_words, authors=found_people)


def person_key(*, name: str) -> tuple[str, str] | None:
    """(family name, first initial or "") of "Given Family" or "Family, Given", as the author
    filters compare people; None for a name of no words. Two keys are the same person when
    the family names agree and the initials do too, or one of them has none."""
    found = _name(text=name)
    return None if found is None else (found.family, found.initial)
