"""Search that forgives a misspelling: when a query's keywords match nothing (its page empty,
or found by meaning alone), its unknown words are corrected from the archive's own words and
the corrected query runs instead; when it finds little, or no paper with every word, the
corrected query is offered ("Did you mean") if it finds more or finds every word. Every edge
(the command table, `paperclub search`, the buttons) searches through here."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

from bot.domain import ChannelKey, WorkspaceKey
from bot.ports import UnitOfWork
from bot.search_query import parse_query
from bot.services import spelling
from bot.services.embedding import SemanticExtra
from bot.services.search import (
    OPERATOR,
    PAGE_SIZE,
    Needs,
    SearchResult,
    search,
    searched_workspace,
)
from bot.services.telemetry import Telemetry

# Fewer hits than this on a first page, or none with every word: the spelling is tried.
FEW = 3


def forgiving_search(
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
    """services.search.search, then, on a first page with fewer than FEW hits or none with
    every word, the query with its unknown words corrected (`_corrected` says when it answers
    instead, `typed` then saying what was typed, and when it is offered as `suggestion`). A
    correction that finds nothing the viewer may see is never shown: the vocabulary spans the
    whole archive. The whole is told to `telemetry` as one search, however many it ran."""
    started = time.perf_counter()

    def run(query_text: str) -> SearchResult:
        """One search of the same page, viewer and workspace (told to nobody: see above)."""
        return search(
            uow=uow,
            text=query_text,
            viewer=viewer,
            semantic_extra=semantic_extra,
            telemetry=Telemetry(),
            offset=offset,
            limit=limit,
            workspace=workspace,
        )

    result = _corrected(
        uow=uow, text=text, viewer=viewer, workspace=workspace, offset=offset, run=run
    )
    telemetry.search(
        platform=viewer.platform if viewer else OPERATOR, seconds=time.perf_counter() - started
    )
    return result


def _corrected(
    *,
    uow: UnitOfWork[Needs],
    text: str,
    viewer: ChannelKey | None,
    workspace: WorkspaceKey | None,
    offset: int,
    run: Callable[[str], SearchResult],
) -> SearchResult:
    """The typed query's result; or the corrected one's when the typed one matched nothing by
    keywords (its page empty, or found by meaning alone) and the corrected one does; or the
    typed one's offering the corrected one when that finds more, or finds every word where
    the typed one did not (one word misspelt: the others found papers with some words)."""
    result = run(text)
    if offset > 0 or (result.page.total >= FEW and result.every_word):
        return result
    query = parse_query(text=text)
    words = spelling.correctable(query=query)
    if not words:
        return result
    scope = searched_workspace(uow=uow, viewer=viewer, workspace=workspace)
    with uow(write=False) as store:
        vocabulary = store.words_near(words=words, workspace=scope)
    respelled = spelling.respell(text=text, query=query, vocabulary=vocabulary)
    if respelled is None:
        return result
    corrected = run(respelled.text)
    if not result.by_keywords and (corrected.by_keywords or not result.page.total):
        return result if not corrected.page.total else dataclasses.replace(corrected, typed=text)
    if corrected.page.total > result.page.total or (corrected.every_word and not result.every_word):
        return dataclasses.replace(result, suggestion=respelled.text)
    return result
