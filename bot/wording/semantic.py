"""The words of meaning: how search says which engine ranked it, related papers, the picker."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain import PaperCard, RelatedRead
from bot.domain.semantic import Fused
from bot.messages import Link, Listing, Message, Run, Strong, When, join, line, message, runs
from bot.wording.post import UNTITLED

KEYWORD = "keyword"
HYBRID = "hybrid"
FUSED = "keyword (bm25) and meaning (vectors) fused by reciprocal rank"
# Under a page no paper of which had the words: what was shown instead.
BY_MEANING = "No paper has these words: these are matched by meaning."

NO_WORDS = "filters only: no words to rank by, so the latest posts come first"
IDENTIFIERS = "arXiv ids and DOIs are matched exactly, by keywords alone"
NO_VECTORS = "no paper has a vector yet: run paperclub embed"
TASTE_UNAVAILABLE = (
    "Queue order: picking by the group's taste needs the semantic extra "
    "(pip install 'paperclub[semantic]')"
)
RELATED = "Related, read before: "
RELATED_NONE = "Nothing the group read yet is close to “{title}”."
RELATED_NOT_FOUND = "No paper in this archive matches “{text}”. Try its arXiv id, DOI or title."
RELATED_ASK = "Which paper? /paperclub related <arXiv id, DOI or title>"
RELATED_HEAD = "Papers the group read that are closest to “{title}”:"
ORDER_ASK = "How should this channel's next paper be picked? /paperclub order queue|taste"
ORDER_QUEUE = "This channel's papers now come in queue order."
ORDER_TASTE = (
    "This channel's next papers are now picked by the group's taste: what it liked and "
    "discussed, with a bonus for papers that waited. Each post says why it was picked."
)


def taste_learning(*, needed: int) -> str:
    """Why a taste channel's paper still came in queue order."""
    return (
        f"Queue order: the group's taste is learnt once it has voted on {needed} papers "
        "with different results"
    )


def taste_reason(*, title: str | None, up: int, days: int) -> str:
    """'Picked for this group's taste: close to “X” (👍 4) · waited 12 days'."""
    parts = ["Picked for this group's taste"]
    if title:
        parts[0] += f": close to “{' '.join(title.split())[:120]}” (👍 {up})"
    if days:
        parts.append(f"waited {days} day{'' if days == 1 else 's'}")
    return " · ".join(parts)


def related_runs(*, read: RelatedRead) -> tuple[Run, ...]:
    """'Title (Mon 5 Jan 2026, 👍 3 · 👎 1)', the title linked to its thread when known, else
    bold (as yesterday's line shows its paper)."""
    title = " ".join(read.title.split()) or UNTITLED
    shown: Run = Link(url=read.permalink, label=title) if read.permalink else Strong(title)
    counts = f"👍 {read.votes.up} · 👎 {read.votes.down}"
    return runs(shown, " (", When(day=read.date), f", {counts})")


def related_line(*, related: Sequence[RelatedRead]) -> tuple[Run, ...]:
    """'Related, read before: “A” (…) · “B” (…)' under a daily post."""
    return runs(RELATED, *join(related_runs(read=read) for read in related))


def card_lines(*, card: PaperCard) -> list[tuple[Run, ...]]:
    """The lines meaning adds under a daily post: its related papers, why it was picked."""
    lines = [related_line(related=card.related)] if card.related else []
    if card.pick_reason:
        lines.append(runs(card.pick_reason))
    return lines


def related_reply(*, title: str, related: Sequence[RelatedRead]) -> Message:
    """The answer to /paperclub related: the closest papers read, or that none is close."""
    shown = " ".join(title.split())[:200] or UNTITLED
    if not related:
        return message(RELATED_NONE.format(title=shown))
    items = tuple(related_runs(read=read) for read in related)
    return message(line(RELATED_HEAD.format(title=shown)), Listing(items=items))


def explain(*, fused: Fused) -> str:
    """'keyword #2 (bm25 8.41) + meaning #1 (cosine 0.62) = 0.0325 (reciprocal rank fusion)'."""
    ranked = fused.ranked
    parts = []
    if fused.keyword_rank is not None:
        score = ranked.text_score + ranked.comment_score
        parts.append(f"keyword #{fused.keyword_rank} (bm25 {score:.3g})")
    if fused.vector_rank is not None and fused.similarity is not None:
        parts.append(f"meaning #{fused.vector_rank} (cosine {fused.similarity:.2f})")
    return f"{' + '.join(parts)} = {fused.score:.4f} (reciprocal rank fusion)"


def related_unavailable(*, why: str) -> str:
    """Why /paperclub related cannot answer here (the extra missing or turned off)."""
    return f"Related papers are not available here: {why}."


def semantic_failed(*, error: str) -> str:
    """Why a search fell back to keywords alone."""
    return f"meaning failed ({error}), so keywords alone ranked this"
