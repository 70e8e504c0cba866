"""The taste model's vector store: each text embedded once, at most `limit` a call, and when
full the least lately used dropped first, the signals touched last kept longest."""

from __future__ import annotations

from bot.services.taste_vectors import TextVectors
from tests.services.test_embedding import StandInEncoder


def test_texts_are_embedded_once_and_touched_ones_outlive_the_rest() -> None:
    model = StandInEncoder()
    vectors = TextVectors(kept=4)
    signals = ["read one", "read two"]
    assert vectors.embed(semantic=model, texts=[*signals, "a", "b"], limit=3) == 3
    assert vectors.embed(semantic=model, texts=[*signals, "a", "b"], limit=3) == 1  # only "b"
    assert model.batches == [["read one", "read two", "a"], ["b"]]
    vectors.touch(texts=signals)
    assert vectors.embed(semantic=model, texts=["c", "d"]) == 2  # full: "a" and "b" go
    assert [vectors.get(text=t) is not None for t in (*signals, "a", "b", "c", "d")] == [
        True,
        True,
        False,
        False,
        True,
        True,
    ]
