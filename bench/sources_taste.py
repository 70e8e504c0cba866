"""The semantic extra's scorer for the ranking benchmark: the product's taste model
(bot/services/suggestion_taste.py) over the simulated group's history, for rank()'s `scorer`.

The same signals (signals_of), vectors (TextVectors) and scoring (closeness) as the bot's
TasteScorers; only where the history comes from differs (the simulation's list, not the
archive), and the bench embeds every text before scoring where the bot's warm-up embeds at
most WARM_LIMIT a sweep, so the figures are the model's, not the warm-up's. Like the bot, it
says nothing before the group has read MIN_READ papers and liked them unequally.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.semantic.encoder import SemanticUnavailable, load_encoder
from bot.semantic.lazy import LazySemantic
from bot.services.embedding import text_of
from bot.services.suggestion_taste import closeness, signals_of
from bot.services.taste_vectors import TextVectors
from bot.sources.candidates import Candidate
from bot.sources.rank import Closeness, GroupHistory, GroupRead, Scorer

ScorerFor = Callable[[Sequence[GroupRead]], Scorer | None]


def taste_scorer_for() -> tuple[ScorerFor | None, str]:
    """A maker of the day's scorer from the history, or None and why the extra is missing."""
    try:
        encoder = load_encoder()
    except SemanticUnavailable as error:
        return None, str(error)
    semantic = LazySemantic(model=encoder.model, load=lambda: encoder)
    vectors = TextVectors()  # the history is scored again every day: each text embedded once

    def scorer_for(history: Sequence[GroupRead]) -> Scorer | None:
        """The taste model of `history`, None while it has too little to learn from."""
        signals = signals_of(history=GroupHistory(read=tuple(history)))
        if signals is None:
            return None

        def scorer(candidates: Sequence[Candidate]) -> Mapping[Candidate, Closeness]:
            """Each candidate's predicted liking and the upvoted paper read closest to it."""
            texts = [s.text for s in signals]
            texts += [text_of(title=c.title, abstract=c.abstract) for c in candidates]
            vectors.embed(semantic=semantic, texts=texts)
            return closeness(
                semantic=semantic, signals=signals, candidates=candidates, vectors=vectors
            )

        return scorer

    return scorer_for, ""
