"""Short titles: derived from an abstract's opening, clipped at a word with an ellipsis."""

from __future__ import annotations

import pytest

from bot.ingest.titles import TITLE_LIMIT, clip_title, derive_title


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "In this paper we analyze, evaluate, and improve the performance of training "
            "generalized linear models on modern CPUs. We start with a state-of-the-art "
            "asynchronous parallel training algorithm.",
            "Analyze, evaluate, and improve the performance of training generalized linear models…",
        ),
        (
            "This paper presents a low-cost network architecture for training large language "
            "models (LLMs) at hyperscale. We study the optimal parallelization strategy.",
            "A low-cost network architecture for training large language models (LLMs) "
            "at hyperscale",
        ),
        (
            "As recurrent neural networks become larger and deeper, training times for single "
            "networks are rising into weeks or even months. As such there is an incentive.",
            "Training times for single networks are rising into weeks or even months",
        ),
        ("We propose FooNet. It is fast.", "FooNet"),
        ("Recently, sparse models have become popular.", "Sparse models have become popular"),
        ("Short abstract.", "Short abstract"),
        ("The sizes of GPU applications are rapidly growing. They are big.", None),
        ("e.g. this starts with an abbreviation. Second.", "E.g. this starts with an abbreviation"),
        ("In this paper we", "In this paper we"),
    ],
)
def test_derived_titles_read_well(abstract: str, expected: str | None) -> None:
    title = derive_title(abstract=abstract)
    assert title == (expected or "The sizes of GPU applications are rapidly growing")
    assert len(title) <= TITLE_LIMIT


def test_a_long_derived_title_is_clipped_at_a_word_with_an_ellipsis() -> None:
    abstract = (
        "The increasing complexity of deep learning recommendation models (DLRM) has led to a "
        "growing need for large-scale distributed systems that can efficiently train data."
    )
    title = derive_title(abstract=abstract)
    assert title.endswith("…")
    assert len(title) <= TITLE_LIMIT
    assert abstract.startswith(title[:-1].replace(" has", " (DLRM) has", 1))
    last_word = title[:-1].split()[-1]
    assert last_word not in {"a", "to", "the", "of", "and", "for"}


@pytest.mark.parametrize(
    ("title", "limit", "expected"),
    [
        ("short", 10, "short"),
        ("one two three four", 10, "one two…"),
        ("models of the world", 14, "models…"),
        ("averyveryverylongword", 8, "averyve…"),
        ("see (DLRM extended) here", 12, "see…"),
    ],
)
def test_clip_title(title: str, limit: int, expected: str) -> None:
    assert clip_title(title=title, limit=limit) == expected
