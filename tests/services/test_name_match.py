"""The name matcher alone: folding, bounded edit distance, and what names a person."""

from __future__ import annotations

from bot.services.name_match import MAX_PAPERS, distance, fold, forgiven, person_words

AUTHORS = [
    (1, "Anna Halverson"),
    (2, "Sebastián Ortega"),
    (3, "John Smith"),
    (4, "Li Wu"),
    (5, "Adam Smith"),
    (6, "J. R. R. Tolkien"),
    (7, "Zoë Müller-Łukasz"),
]


def named(text: str) -> list[int]:
    """The papers whose authors `text` names."""
    return forgiven(typed=person_words(text=text), authors=AUTHORS)


def test_folding_drops_accents_case_and_marks() -> None:
    assert fold(text="Sebastián ORTEGA") == ("sebastian", "ortega")
    assert fold(text="J.-P. Serre") == ("j", "p", "serre")
    assert fold(text="Zoë Müller") == ("zoe", "muller")


def test_distance_is_bounded() -> None:
    assert distance(a="halvorson", b="halverson", bound=2) == 1
    assert distance(a="kitten", b="sitting", bound=3) == 3
    assert distance(a="kitten", b="sitting", bound=1) == 2  # past the bound: bound + 1
    assert distance(a="a", b="abcdef", bound=2) == 3


def test_what_names_whom() -> None:
    assert named("halvorson") == [1]
    assert named("Sebastian Ortega") == [2]
    assert named("ortega sebastian") == [2]
    assert named("J. Smith") == [3]
    assert named("Smith") == [5, 3]  # the same edits: newest paper first
    assert named("John Tolkien") == [6]  # the archive's initials meet a whole name
    assert named("zoe muller") == [7]
    assert named("Lu") == [] and named("Wong") == []  # short names only as typed
    assert named("j r") == []  # initials meeting initials
    assert named("a very long sentence of words") == []
    assert named("gpt 4") == [] and named("") == []


def test_at_most_max_papers() -> None:
    many = [(paper_id, "Ada Lovelace") for paper_id in range(MAX_PAPERS * 2)]
    found = forgiven(typed=person_words(text="lovelace"), authors=many)
    assert len(found) == MAX_PAPERS and found[0] == MAX_PAPERS * 2 - 1
