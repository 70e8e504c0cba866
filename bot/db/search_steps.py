"""Search in steps (ports.SearchRun): keyword candidates, which other ids pass the query's exact
parts, then the page's hits; the core fuses the keyword and vector rankings in between."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy.orm import Session

from bot.db.search import Ranking, Searcher, open_search, ranking
from bot.db.search_authors import names_holding, papers_naming, words_near
from bot.domain import ChannelKey, SearchHit, WorkspaceKey
from bot.domain.semantic import Ranked
from bot.search_query import SearchQuery


class SearchSteps:
    """One search of one session, run step by step."""

    def __init__(self, *, run: Searcher) -> None:
        """Run the steps of a search whose scope is read (`open_steps`)."""
        self.run = run
        # The hits are highlighted as the keyword ranking matched (all words or any).
        self.ranking = Ranking(ranked=[], total=0)

    def ranked(self, *, depth: int) -> tuple[list[Ranked], int, bool]:
        """Keyword candidates, every word first, then the related papers with some; any of
        them when no paper has them all."""
        self.ranking = ranking(run=self.run, depth=depth)
        return self.ranking.ranked, self.ranking.total, self.ranking.relaxed

    def admitted(self, *, ids: Sequence[int]) -> set[int]:
        """The ids passing phrases, -words, author: and the filters; bare words are not asked."""
        return self.run.admitted(ids=list(ids)) if ids else set()

    def author_words(
        self, *, grams: Sequence[str], shortest: int, longest: int, least: int
    ) -> list[str]:
        """Author words of `shortest` to `longest` letters holding at least `least` of
        `grams` (every word of those lengths when `least` < 1)."""
        return words_near(
            session=self.run.execute.session,
            scope=self.run.scope,
            grams=grams,
            shortest=shortest,
            longest=longest,
            least=least,
        )

    def author_names(self, *, words: Sequence[Collection[str]]) -> list[tuple[int, str]]:
        """(id, name) of the workspace's names holding a word of each set, and of its names
        not folded yet."""
        return names_holding(session=self.run.execute.session, scope=self.run.scope, words=words)

    def papers_named(self, *, names: Sequence[int], limit: int) -> list[int]:
        """The workspace's papers naming one of `names` (hidden ones too), newest first."""
        return papers_naming(
            session=self.run.execute.session, scope=self.run.scope, names=names, limit=limit
        )

    def hits(self, *, page: Sequence[Ranked]) -> tuple[SearchHit, ...]:
        """The page's hits; a paper found by meaning alone shows its abstract's first words."""
        return self.run.hits(page=list(page), ranking=self.ranking)


def open_steps(
    *,
    session: Session,
    query: SearchQuery,
    viewer: ChannelKey | None,
    workspace: WorkspaceKey,
) -> SearchSteps:
    """A search of one workspace, as `viewer` may see it, to be run in steps."""
    run = open_search(session=session, query=query, viewer=viewer, workspace=workspace)
    return SearchSteps(run=run)
