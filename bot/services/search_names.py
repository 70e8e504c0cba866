"""Names forgiven: when what was typed could be a person's name and keywords find it nowhere (or
only a few times, or only some of its words), papers whose authors it names despite a typo,
accents or initials (name_match) are added to the answer.

Where they stand: after the papers that matched every word (those are exact), before the rest
(meaning's neighbours, or papers with only some of the words, which the name explains better).
The typed words reach SQL only as bound values: the authors' index (name_lookup) offers the
names they could stand for, each is judged in Python (name_match), and the papers found pass
the query's other parts and the viewer's privacy (`admitted`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.domain import ChannelKey, SearchHit, SearchPage, WorkspaceKey
from bot.domain.semantic import Ranked
from bot.ports import SemanticStore
from bot.search_query import SearchQuery
from bot.services.name_lookup import named_papers
from bot.services.name_match import person_words
from bot.wording import archive

# Keyword matches up to which a name is still looked for: an author's name typed right finds
# their papers (authors are indexed), so a few hits at most means it was probably not.
FEW = 2


class Needs(SemanticStore, Protocol):
    """The store's search in steps."""


@dataclass(frozen=True, slots=True)
class Forgiven:
    """The page with the forgiven names' papers in it, and the note that says so."""

    page: SearchPage
    note: str


def _typed(*, query: SearchQuery) -> tuple[tuple[str, ...], SearchQuery] | None:
    """The folded words that may name a person and the query without them, or None: one
    author: filter with no bare words beside it, or words alone (no author:)."""
    if len(query.authors) == 1 and not query.terms:
        typed, rest = person_words(text=query.authors[0]), dataclasses.replace(query, authors=())
    elif not query.authors and query.has_text:
        typed = person_words(text=" ".join(query.positives))
        rest = dataclasses.replace(query, terms=(), phrases=())
    else:
        return None
    return (typed, rest) if typed else None


def forgive(
    *,
    store: Needs,
    query: SearchQuery,
    page: SearchPage,
    keyword_only: bool,
    viewer: ChannelKey | None,
    scope: WorkspaceKey,
    again: Callable[[int, int], SearchPage],
    limit: int,
) -> Forgiven | None:
    """`page` (from `again`, the search as it ranks) with the forgiven names' papers in their
    place; None when nothing looks like a name or the name finds nothing new."""
    typed = _typed(query=query)
    if typed is None or (keyword_only and page.total > FEW and not page.relaxed):
        return None
    words, rest = typed
    exact = _exact(store=store, query=query, viewer=viewer, scope=scope, again=again)
    if exact is None:
        return None
    first, relaxed = exact
    others = store.search_run(query=rest, viewer=viewer, workspace=scope)
    candidates = [i for i in named_papers(run=others, typed=words) if i not in first]
    admitted = others.admitted(ids=candidates)
    named = [paper_id for paper_id in candidates if paper_id in admitted]
    if not named:
        return None
    head = [*first, *named]
    note = archive.names_forgiven(typed=" ".join(words))
    offset = page.offset
    shown = head[offset : offset + limit]
    found = others.hits(page=[Ranked(paper_id=i, text_score=0.0) for i in shown if i in named])
    by_id = first | {hit.paper.id: hit for hit in found}
    hits = tuple(by_id[paper_id] for paper_id in shown)
    if keyword_only and not relaxed:  # the keyword answer was `first`, all in the head
        return Forgiven(page=SearchPage(hits=hits, total=len(head), offset=offset), note=note)
    # The rest after the head, without the papers already in it, from the start so that
    # papers in both are counted once (the forgiven are few: at most name_match.MAX_PAPERS).
    tail_start = max(0, offset - len(head))
    seen = set(head)
    rest_page = again(0, tail_start + limit + len(head))
    tail = [hit for hit in rest_page.hits if hit.paper.id not in seen]
    missing = limit - len(hits)
    if missing > 0:
        hits += tuple(tail[tail_start : tail_start + missing])
    in_both = len(rest_page.hits) - len(tail)
    # Not `relaxed` even when the rest is: the page leads with what the name found.
    total = len(head) + max(0, rest_page.total - in_both)
    return Forgiven(page=SearchPage(hits=hits, total=total, offset=offset), note=note)


def _exact(
    *,
    store: Needs,
    query: SearchQuery,
    viewer: ChannelKey | None,
    scope: WorkspaceKey,
    again: Callable[[int, int], SearchPage],
) -> tuple[dict[int, SearchHit], bool] | None:
    """The papers keywords find with every word (at most FEW, highlighted as they matched)
    and whether only some words matched; None when they find more than FEW."""
    if not query.has_text:  # author: alone lists its papers
        listed = again(0, FEW + 1)
        if listed.total > FEW:
            return None
        return {hit.paper.id: hit for hit in listed.hits}, False
    run = store.search_run(query=query, viewer=viewer, workspace=scope)
    ranked, total, relaxed = run.ranked(depth=FEW + 1)
    if relaxed:
        return {}, True
    if total > FEW:
        return None
    return {hit.paper.id: hit for hit in run.hits(page=ranked)}, False
