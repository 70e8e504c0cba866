"""Vectors for the suggestions' taste model, held in memory rather than in the archive: texts
the semantic extra embedded, kept by digest (candidates and hidden suggestions are no papers:
they have no stored vector), for Semantic.taste_of to score."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence

from bot.ports import Semantic

KEPT = 10_000  # vectors kept: 1.5 kB each at 384 floats, ~15 MB; the least lately used go first


def _digest(*, text: str) -> bytes:
    """A text's key: 16 bytes instead of a whole abstract."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class TextVectors:
    """Texts' vectors, embedded once and kept (at most `kept`, the least lately used dropped
    first); safe to share across threads."""

    def __init__(self, *, kept: int = KEPT) -> None:
        """Nothing embedded yet."""
        self.kept = kept
        self._held: OrderedDict[bytes, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, *, text: str) -> bytes | None:
        """A text's vector, if it was embedded (and not dropped since)."""
        key = _digest(text=text)
        with self._lock:
            vector = self._held.get(key)
            if vector is not None:
                self._held.move_to_end(key)
            return vector

    def touch(self, *, texts: Sequence[str]) -> None:
        """Mark these texts' vectors as just used (the last to be dropped)."""
        with self._lock:
            for text in texts:
                key = _digest(text=text)
                if key in self._held:
                    self._held.move_to_end(key)

    def embed(self, *, semantic: Semantic, texts: Sequence[str], limit: int | None = None) -> int:
        """Embed the texts not held yet (the first `limit` of them, in the order given; the
        rest wait for a later call), keeping those asked for again; how many were embedded.
        The extra loads its model here, and only when some text is new."""
        new = [text for text in dict.fromkeys(texts) if self.get(text=text) is None][:limit]
        if not new:
            return 0
        vectors = semantic.embed(texts=new)
        with self._lock:
            for text, vector in zip(new, vectors, strict=True):
                self._held[_digest(text=text)] = vector
            while len(self._held) > self.kept:
                self._held.popitem(last=False)
        return len(new)
