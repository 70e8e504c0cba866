"""`/paperclub search` (and bare text): the archive's papers and what the group said."""

from __future__ import annotations

import dataclasses
import logging
import time
from dataclasses import dataclass
from typing import Protocol

from bot.domain import ChannelKey, SearchPage, WorkspaceKey
from bot.domain.semantic import Fused
from bot.ingest.arxiv import canonical_arxiv_id
from bot.ingest.doi import normalise_doi
from bot.messages import Message
from bot.ports import SearchStore, Semantic, SemanticStore, UnitOfWork, WorkspacesStore
from bot.search_query import SearchQuery, parse_query
from bot.services import search_names, workspaces
from bot.services.embedding import SemanticExtra
from bot.services.fusion import KEYWORD_WEIGHT, RELATED_KEYWORD_WEIGHT, fuse
from bot.services.telemetry import Telemetry
from bot.wording import archive
from bot.wording import semantic as words


class Needs(WorkspacesStore, SearchStore, SemanticStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


log = logging.getLogger(__name__)

PAGE_SIZE = 5
OPERATOR = "operator"  # the metrics' platform for a search without a viewer (the CLI's)
DEPTH = 50  # candidates taken from each ranking before they are fused
# Below this cosine similarity a neighbour is noise for this model (unrelated abstracts score
# 0.0-0.2 with all-MiniLM-L6-v2): fusing it would only push keyword hits down. On the judged
# set (bench/relevance.py) 0.2 and 0.25 tie on paraphrases; 0.3 and 0.4 lose some.
FLOOR = 0.25
# When no paper has every word (a misspelling, a paraphrase), the floor adapts to the query:
# the neighbours within MARGIN of the best one are kept, down to LOWEST (0.08 and 0.12 tuned
# on bench/relevance.py: misspelling MRR and R@5 as the bare vectors'). A fully misspelt
# query's right paper scores 0.20-0.25 here, under FLOOR, while it stands first (issue 34).
MARGIN = 0.08
LOWEST = 0.12


def floor_for(*, best: float, keywords_hold: bool) -> float:
    """The similarity a neighbour needs: FLOOR when some paper had every word, else relative
    to the best neighbour (never above FLOOR, never below LOWEST)."""
    if keywords_hold:
        return FLOOR
    return min(FLOOR, max(LOWEST, best - MARGIN))


@dataclass(frozen=True, slots=True)
class SearchResult:
    """A page of hits for what the user typed, and what the parser ignored."""

    text: str
    page: SearchPage
    notes: tuple[str, ...]
    # "hybrid" (keyword and meaning fused) or "keyword", and why: what --explain tells.
    engine: str = words.KEYWORD
    why: str = ""
    # With explain: each hit's place in either ranking, in the page's order.
    explained: tuple[Fused, ...] = ()
    # What was typed when these hits are for `text`, its spelling corrected (it found nothing),
    # and a corrected query that finds more, offered as "Did you mean" (search_spelled.py).
    typed: str = ""
    suggestion: str = ""
    # Papers the keywords matched (every word, or related ones), when the page also holds
    # papers found by meaning alone (hybrid); None when the page's total is the keywords'.
    keyword_total: int | None = None

    @property
    def by_keywords(self) -> int:
        """How many papers the keywords matched."""
        return self.page.total if self.keyword_total is None else self.keyword_total

    @property
    def every_word(self) -> bool:
        """Whether some paper had every word (else the page stands on some words, or on
        meaning alone): search_spelled.py then tries the spelling."""
        return self.by_keywords > 0 and not self.page.relaxed

    @property
    def next_offset(self) -> int | None:
        """Where the next page starts, or None on the last page."""
        shown = self.page.offset + len(self.page.hits)
        return shown if shown < self.page.total else None


def search(
    *,
    uow: UnitOfWork[Needs],
    text: str,
    viewer: ChannelKey | None,
    semantic_extra: SemanticExtra,
    telemetry: Telemetry,
    offset: int = 0,
    limit: int = PAGE_SIZE,
    workspace: WorkspaceKey | None = None,
) -> SearchResult:
    """Parse what the user typed and fetch one page of the viewer's workspace as its channel
    may see it (no viewer: the operator, who sees all of `workspace`, by default the only
    one); nothing they type reaches SQL as text. The search time is told to `telemetry`."""
    started = time.perf_counter()
    query = parse_query(text=text)
    scope = searched_workspace(uow=uow, viewer=viewer, workspace=workspace)
    with uow(write=False) as store:

        def answer(offset: int, limit: int) -> SearchResult:
            """The page at `offset` as keywords and meaning rank it."""
            return _answer(
                store=store,
                query=query,
                text=text,
                viewer=viewer,
                scope=scope,
                semantic_extra=semantic_extra,
                offset=offset,
                limit=limit,
            )

        result = answer(max(0, offset), limit)
        forgiven = search_names.forgive(
            store=store,
            query=query,
            page=result.page,
            keyword_only=not result.explained,
            viewer=viewer,
            scope=scope,
            again=lambda offset, limit: answer(offset, limit).page,
            limit=limit,
        )
        if forgiven is not None:  # the page's place in either ranking no longer tells its order
            notes = (*result.notes, forgiven.note)
            # The names matched too: the page is no longer one found by meaning alone (else a
            # misspelt name would be "corrected" into another word: search_spelled.py).
            result = dataclasses.replace(
                result, page=forgiven.page, notes=notes, explained=(), keyword_total=None
            )
    telemetry.search(
        platform=viewer.platform if viewer else OPERATOR, seconds=time.perf_counter() - started
    )
    return result


def _answer(
    *,
    store: Needs,
    query: SearchQuery,
    text: str,
    viewer: ChannelKey | None,
    scope: WorkspaceKey,
    semantic_extra: SemanticExtra,
    offset: int,
    limit: int,
) -> SearchResult:
    """One page as keywords alone rank it, or fused with meaning when the extra can help."""
    semantic = semantic_extra.index
    result: SearchResult | None = None
    if semantic is None:
        why = semantic_extra.reason
    elif not query.has_text:
        why = words.NO_WORDS
    elif _identifiers(query=query):
        why = words.IDENTIFIERS
    elif not store.newest_vector(model=semantic.model):
        why = words.NO_VECTORS  # nothing embedded anywhere (an index seek): no model loaded
    else:
        why = words.NO_VECTORS  # if _hybrid finds this workspace has no vector after all
        result = _hybrid(
            store=store,
            semantic=semantic,
            query=query,
            text=text,
            viewer=viewer,
            scope=scope,
            offset=offset,
            limit=limit,
        )
    if result is None:
        page = store.search(query=query, limit=limit, offset=offset, viewer=viewer, workspace=scope)
        result = SearchResult(text=text, page=page, notes=query.notes, why=why)
    return result


def searched_workspace(
    *, uow: UnitOfWork[Needs], viewer: ChannelKey | None, workspace: WorkspaceKey | None
) -> WorkspaceKey:
    """The workspace a search looks in: a channel's own, whatever was asked; without a viewer
    `workspace`, by default the only one."""
    if viewer is not None:
        return viewer.workspace_key
    return workspace or workspaces.resolve(uow=uow, named=None)


def _identifiers(*, query: SearchQuery) -> bool:
    """Whether every word is an arXiv id or a DOI: those stay exact, meaning has none to add."""
    return all(
        canonical_arxiv_id(text=item) or normalise_doi(text=item) for item in query.positives
    )


def _hybrid(
    *,
    store: Needs,
    semantic: Semantic,
    query: SearchQuery,
    text: str,
    viewer: ChannelKey | None,
    scope: WorkspaceKey,
    offset: int,
    limit: int,
) -> SearchResult | None:
    """Keyword and vector rankings fused: the vectors are scored on their own thread while the
    keyword search runs; a neighbour joins only if it passes the query's exact parts. None when
    the workspace has no vector (others have): the caller ranks by keyword alone and says why."""
    depth = max(DEPTH, offset + limit)
    wanted = " ".join(query.positives)
    nearest = semantic.start_nearest(store=store, workspace=scope, text=wanted, k=depth)
    run = store.search_run(query=query, viewer=viewer, workspace=scope)
    keyword, total, relaxed = run.ranked(depth=depth)
    found = {hit.paper_id for hit in keyword}
    try:
        neighbours = nearest()
    except Exception as error:  # a damaged model must not take keyword search down with it
        log.warning("meaning failed, searching by keywords alone: %s", error)
        near, why, engine = [], words.semantic_failed(error=str(error)), words.KEYWORD
    else:
        if not neighbours:  # only an empty workspace has no nearest at all, floor or not
            return None
        best = max(n.similarity for n in neighbours)
        floor = floor_for(best=best, keywords_hold=bool(keyword) and not relaxed)
        near = [n for n in neighbours if n.similarity >= floor]
        why, engine = words.FUSED, words.HYBRID
    # Relaxed to any word, the keyword side lets a phrase go missing too: check its hits.
    recheck = relaxed and bool(query.phrases)
    asked = [n.paper_id for n in near if n.paper_id not in found]
    admitted = run.admitted(ids=asked + (sorted(found) if recheck else []))
    if recheck:
        keyword = [hit for hit in keyword if hit.paper_id in admitted]
        total, found = len(keyword), {hit.paper_id for hit in keyword}
    near = [n for n in near if n.paper_id in found or n.paper_id in admitted]
    extra = sum(1 for n in near if n.paper_id not in found)
    # A candidate lacking some words (related, or any word when no paper had every one) is a
    # weak keyword signal, so meaning orders those; without neighbours, keyword order stands.
    weight = RELATED_KEYWORD_WEIGHT if near else KEYWORD_WEIGHT
    fused = fuse(keyword=keyword, vectors=near, related_weight=weight)[offset : offset + limit]
    hits = run.hits(page=[item.ranked for item in fused])
    hits = tuple(
        dataclasses.replace(hit, score=item.score) for hit, item in zip(hits, fused, strict=True)
    )
    page = SearchPage(hits=hits, total=total + extra, offset=offset, relaxed=relaxed)
    by_meaning = (words.BY_MEANING,) if hits and not keyword else ()
    return SearchResult(
        text=text,
        page=page,
        notes=(*query.notes, *by_meaning),
        engine=engine,
        why=why,
        explained=tuple(fused),
        keyword_total=total,
    )


def page_message(*, result: SearchResult) -> Message:
    """The page as a message, with a 'More results' button when there are more."""
    return archive.search_page(
        text=result.text,
        page=result.page,
        notes=result.notes,
        next_offset=result.next_offset,
        typed=result.typed,
        suggestion=result.suggestion,
    )
