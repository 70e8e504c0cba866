"""Search in steps (ports.SearchRun): keyword candidates, which other ids pass the query's exact
parts, then the page's hits; the core fuses the keyword and vector rankings in between."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from bot.db.search import Searcher
from bot.db.search_sql import CFG, PG_VECTOR
from bot.domain import ChannelKey, SearchHit, WorkspaceKey
from bot.domain.semantic import Ranked
from bot.search_query import SearchQuery, fts5_excluded, quote_fts

_ADMIT = "SELECT papers.id AS id FROM papers WHERE papers.id {ids}{filters}"


class SearchSteps:
    """One search of one session, run step by step."""

    def __init__(
        self,
        *,
        session: Session,
        query: SearchQuery,
        viewer: ChannelKey | None,
        workspace: WorkspaceKey,
    ) -> None:
        """Read the workspace and what the viewer may not see, once for every step."""
        self.query = query
        self.run = Searcher(session=session, query=query, viewer=viewer, workspace=workspace)

    def ranked(self, *, depth: int) -> tuple[list[Ranked], int, bool]:
        """Keyword candidates, all words first, any of them when no paper has them all."""
        ranked, total = self.run.rank(depth=depth, any_term=False)
        relaxed = total == 0 and len(self.query.positives) > 1
        if relaxed:
            ranked, total = self.run.rank(depth=depth, any_term=True)
        return ranked, total, relaxed and bool(total)

    def admitted(self, *, ids: Sequence[int]) -> set[int]:
        """The ids passing phrases, -words, author: and the filters; bare words are not asked."""
        if not ids:
            return set()
        run, query = self.run, self.query
        filters = run.filters(pid="papers.id")
        if query.phrases and run.pg:
            names = []
            for index, phrase in enumerate(query.phrases):
                run.params[f"ph{index}"] = phrase
                names.append(f"phraseto_tsquery({CFG}, :ph{index})")
            filters += f" AND {PG_VECTOR} @@ ({' && '.join(names)})"
        elif query.phrases:
            run.params["f_phrases"] = " ".join(quote_fts(text=p) for p in query.phrases)
            filters += (
                " AND papers.id IN (SELECT rowid FROM papers_fts WHERE papers_fts MATCH :f_phrases)"
            )
        if query.excluded:
            run.params["f_excluded"] = fts5_excluded(query=query)
            excluded = run.tsquery(any_term=True, negated_only=True) if run.pg else ""
            filters += run.sql["excluded"].format(x=excluded)
        return {int(row["id"]) for row in run.rows(_ADMIT, filters=filters, ids=list(ids))}

    def hits(self, *, page: Sequence[Ranked]) -> tuple[SearchHit, ...]:
        """The page's hits; a paper found by meaning alone shows its abstract's first words."""
        return self.run.hits(page=list(page))
