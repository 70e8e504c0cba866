"""The group's taste model for its suggestions (issue 32): with the semantic extra, each
candidate's predicted interest, learnt from what the group did, and the upvoted paper read it
is closest to, for rank()'s `scorer` (bot/sources/rank.py); without the extra, nothing, and
the keyword and co-occurrence score ranks alone.

The model learns from the signals the keyword path weighs (the channel's group_history): each
paper read at its liking (votes and comments, as the taste picker counts them), each promoted
suggestion as liked and each hidden one as disliked at rank.py's weights. It is the taste
picker's ridge model (ports.Semantic.taste_of) over the texts' vectors.

Embedding costs tens of milliseconds a text on two cores, so it never happens while a tray is
ranked, on the scheduler's thread, nor on the event path: the reading thread warms the model
after each read (TasteScorers.warm, outside any transaction), embedding the texts it has not
seen, at most WARM_LIMIT a pass and WARM_WAITING waiting ones a channel; a candidate still
waiting for its vector keeps its keyword score, and a text is embedded once in the process's
life (while kept: taste_vectors.KEPT; the signals are kept longest).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.domain import ChannelKey
from bot.ports import Semantic, UnitOfWork
from bot.ports.sources import SourcesStore
from bot.services.embedding import SemanticExtra, text_of
from bot.services.related import FLOOR
from bot.services.suggestions import FRESH, HISTORY
from bot.services.taste import MIN_READ
from bot.services.taste_vectors import TextVectors
from bot.sources.candidates import Candidate
from bot.sources.rank import HIDE_WEIGHT, PROMOTE_WEIGHT, Closeness, GroupHistory, Scorer

# Texts embedded at most at one warm-up (~10 s on two cores): a fresh process learns a long
# history over a few passes rather than one long one.
WARM_LIMIT = 256
# The cosine similarity from which a paper read is named as close to a candidate: the related
# papers' floor (services/related.py: unrelated abstracts score 0.0-0.3, one topic 0.5 up).
CLOSE_FLOOR = FLOOR
# Waiting suggestions a channel's warm-up embeds, newest first: a busy category leaves
# thousands a week, and the keyword score ranks those the model cannot place.
WARM_WAITING = 300


class Needs(SourcesStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


@dataclass(frozen=True, slots=True)
class Signal:
    """One thing the group did: the text of the paper, how much it liked it, and the title
    the reason may name (only a paper read that the group voted up: more 👍 than 👎)."""

    text: str
    weight: float
    title: str | None = None


def signals_of(*, history: GroupHistory) -> tuple[Signal, ...] | None:
    """What the model learns from; None while the group has read fewer than taste.MIN_READ
    papers or liked everything alike (nothing to learn: the keyword path ranks alone)."""
    if len(history.read) < MIN_READ:
        return None
    signals = (
        *(
            Signal(
                text=text_of(title=read.title, abstract=read.abstract),
                weight=read.liking,
                title=read.title if read.votes.up > read.votes.down else None,
            )
            for read in history.read
        ),
        *(
            Signal(text=text_of(title=c.title, abstract=c.abstract), weight=PROMOTE_WEIGHT)
            for c in history.promoted
        ),
        *(
            Signal(text=text_of(title=c.title, abstract=c.abstract), weight=-HIDE_WEIGHT)
            for c in history.hidden
        ),
    )
    return signals if len({s.weight for s in signals}) > 1 else None


def closeness(
    *,
    semantic: Semantic,
    signals: Sequence[Signal],
    candidates: Sequence[Candidate],
    vectors: TextVectors,
) -> dict[Candidate, Closeness]:
    """Each candidate with a vector in `vectors`: its predicted interest and the title of the
    upvoted paper read closest to it. Embeds nothing (see the module's docstring); empty (the
    keyword path) when too few of the signals have their vectors yet."""
    known = [(s, v) for s in signals if (v := vectors.get(text=s.text)) is not None]
    if len(known) < MIN_READ or len({s.weight for s, _ in known}) < 2:
        return {}
    placed = [
        (c, v)
        for c in candidates
        if (v := vectors.get(text=text_of(title=c.title, abstract=c.abstract))) is not None
    ]
    if not placed:
        return {}
    found = semantic.taste_of(
        known=[(v, s.weight) for s, v in known],
        candidates=[v for _, v in placed],
        named=[place for place, (s, _) in enumerate(known) if s.title is not None],
    )
    scored = {}
    for (candidate, _), (score, near, cosine) in zip(placed, found, strict=True):
        # Named only when it is close for this model: "close to X" must be true.
        title = None if near is None or cosine < CLOSE_FLOOR else known[near][0].title
        scored[candidate] = Closeness(score=score, title=title)
    return scored


class TasteScorers:
    """trays.ScorerFor with the extra (None for a channel whose group has read too little, or
    that no warm-up saw yet: the keyword path), and the warm-up that readies it."""

    def __init__(
        self, *, semantic: Semantic | None, uow: UnitOfWork[Needs], vectors: TextVectors | None
    ) -> None:
        """`semantic`: the extra's index (None: keyword path, always); `vectors`: where the
        texts' vectors are kept."""
        self.semantic, self.uow = semantic, uow
        self.vectors = vectors or TextVectors()
        self._signals: dict[ChannelKey, tuple[Signal, ...] | None] = {}
        self._lock = threading.Lock()

    def __call__(self, *, channel: ChannelKey) -> Scorer | None:
        """The channel's scorer as of the last warm-up; it reads neither the archive nor the
        model, only vectors already made."""
        semantic = self.semantic
        with self._lock:
            signals = self._signals.get(channel)
        if semantic is None or signals is None:
            return None
        vectors = self.vectors

        def scorer(candidates: Sequence[Candidate]) -> Mapping[Candidate, Closeness]:
            """The closeness of the candidates the model can place."""
            return closeness(
                semantic=semantic, signals=signals, candidates=candidates, vectors=vectors
            )

        return scorer

    def warm(self, *, platform: str, now: datetime) -> int:
        """Learn each watching channel's signals afresh, and embed what the next rankings will
        need (signals first, then the waiting candidates, newest first), at most WARM_LIMIT
        texts; how many were embedded. Call it outside any transaction."""
        if self.semantic is None:
            return 0
        with self.uow(write=False) as store:
            channels = store.channels_watching(platform=platform)
        learnt: list[str] = []
        waiting_texts: list[str] = []
        for channel in channels:
            with self.uow(write=False) as store:
                history = store.group_history(channel=channel, limit=HISTORY)
                waiting = store.suggestions(
                    channel=channel, states=("waiting",), limit=WARM_WAITING
                )
            signals = signals_of(history=history)
            with self._lock:
                self._signals[channel] = signals
            if signals is None:
                continue
            learnt += [s.text for s in signals]
            waiting_texts += [
                text_of(title=s.candidate.title, abstract=s.candidate.abstract)
                for s in waiting
                if s.found_at >= now - FRESH
            ]
        texts = learnt + waiting_texts  # every channel's signals before any candidate
        embedded = self.vectors.embed(semantic=self.semantic, texts=texts, limit=WARM_LIMIT)
        # Touched last, the signals are the last the store would let go of when it is full:
        # without them no channel is scored at all.
        self.vectors.touch(texts=learnt)
        return embedded


def taste_scorers(*, semantic_extra: SemanticExtra, uow: UnitOfWork[Needs]) -> TasteScorers:
    """The suggestions' scorers over the archive: with no index, None for every channel (the
    keyword path); the model is loaded only when a warm-up has texts to embed."""
    return TasteScorers(semantic=semantic_extra.index, uow=uow, vectors=None)
