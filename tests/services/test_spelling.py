"""Did you mean, the pure part: the edit distance, which word is nearest, and the query text
rewritten around the typed words only."""

from __future__ import annotations

import pytest

from bot.search_query import parse_query
from bot.services import spelling


@pytest.mark.parametrize(
    ("a", "b", "far"),
    [
        ("gausian", "gaussian", 1),
        ("spalting", "splatting", 2),
        ("decodng", "decoding", 1),
        ("hte", "the", 1),  # a swap of neighbours is one edit
        ("estimaton", "estimation", 1),
        ("cardinalty", "cardinality", 1),
        ("abc", "abc", 0),
        ("kitten", "sitting", 3),
    ],
)
def test_distance_counts_edits_and_swaps(a: str, b: str, far: int) -> None:
    assert spelling.distance(a=a, b=b, limit=5) == far
    assert spelling.distance(a=a, b=b, limit=far) == far
    if far:
        assert spelling.distance(a=a, b=b, limit=far - 1) == far  # stops past the limit


def test_short_words_forgive_one_edit_longer_two_and_tiny_none() -> None:
    vocabulary = [("model", 3), ("models", 9), ("gaussian", 2), ("can", 50)]
    assert spelling.nearest(word="modle", vocabulary=vocabulary) == "model"
    assert spelling.nearest(word="mdoels", vocabulary=vocabulary) == "models"
    assert spelling.nearest(word="gausin", vocabulary=vocabulary) == "gaussian"
    assert spelling.nearest(word="gasuin", vocabulary=vocabulary) is None  # three edits
    assert spelling.nearest(word="cna", vocabulary=vocabulary) is None  # too short to guess
    assert spelling.nearest(word="model", vocabulary=vocabulary) is None  # known: kept


def test_the_more_frequent_of_two_as_near_words_wins() -> None:
    vocabulary = [("tensor", 2), ("tenser", 40), ("tensors", 100)]
    assert spelling.nearest(word="tensar", vocabulary=vocabulary) == "tenser"
    assert spelling.nearest(word="tensro", vocabulary=vocabulary) == "tensor"  # a swap: nearer


def test_only_bare_words_are_rewritten() -> None:
    text = 'Pipline author:pipline -pipline "pipline bubbles" pipline2 pipline'
    query = parse_query(text=text)
    respelled = spelling.respell(text=text, query=query, vocabulary=[("pipeline", 4)])
    assert respelled is not None
    assert respelled.text == 'pipeline author:pipline -pipline "pipline bubbles" pipline2 pipeline'
    assert respelled.changes == (("Pipline", "pipeline"),)
    assert spelling.correctable(query=parse_query(text="Naïve 3d c++ ok")) == ("naive",)


def test_nothing_to_change_is_none() -> None:
    query = parse_query(text="pipeline")
    assert spelling.respell(text="pipeline", query=query, vocabulary=[("pipeline", 1)]) is None
