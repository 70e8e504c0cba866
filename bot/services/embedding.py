"""The semantic extra, as the services see it: a plain value (SemanticExtra) that the
composition root makes when the extra loads (the wiring, a CLI command) and the club carries to
search, related papers, the taste pick and /paperclub add; on a plain install it holds no index.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.domain import Paper, WorkspaceKey
from bot.ports import Semantic, SemanticStore, UnitOfWork


class Needs(SemanticStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


# Why there is no index when the composition root gave no reason: for --explain and related.
NOT_INSTALLED = "the semantic extra is not installed (pip install 'paperclub[semantic]')"


def _tell_nobody() -> None:
    """No embedder runs here (a CLI command, a test): an added paper waits for `embed`."""


@dataclass(frozen=True, slots=True)
class SemanticExtra:
    """The semantic index (None: keyword search alone), why there is none, and who is told of
    each paper added (the running bot's embedder, which gives it its vector soon)."""

    index: Semantic | None = None
    why: str = NOT_INSTALLED
    on_write: Callable[[], None] = _tell_nobody

    @property
    def reason(self) -> str:
        """Why there is no index (the extra missing, or turned off)."""
        return self.why or NOT_INSTALLED

    def written(self) -> None:
        """A paper was added and committed: the embedder (where one runs) may read it now."""
        self.on_write()


# Keyword search alone, because the extra is not installed.
NO_SEMANTIC = SemanticExtra()


def paper_text(*, paper: Paper) -> str:
    """What a paper's vector is made of: its title and abstract."""
    return text_of(title=paper.title, abstract=paper.abstract)


def text_of(*, title: str, abstract: str) -> str:
    """What a vector is made of: the title and the abstract, spacing squashed (a paper's, or a
    suggestion's before it is one)."""
    title, abstract = " ".join(title.split()), " ".join(abstract.split())
    return f"{title}. {abstract}" if abstract else title


def embed_pending(
    *,
    uow: UnitOfWork[Needs],
    semantic: Semantic,
    now: Callable[[], datetime],
    batch: int = 8,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> int:
    """Give every paper without one a vector (at most `limit`), a batch a transaction, so an
    interrupted run keeps what it did and the next one resumes; the count made."""
    with uow(write=False) as store:
        total = store.count_to_embed(model=semantic.model)
    if limit is not None:
        total = min(total, limit)
    done, tried = 0, set[int]()
    while done < total and not stop():
        with uow(write=False) as store:
            papers = store.papers_to_embed(model=semantic.model, limit=min(batch, total - done))
        papers = [paper for paper in papers if paper.id not in tried]
        if not papers:  # none left, or only those another writer keeps failing on
            break
        tried.update(paper.id for paper in papers)
        vectors = semantic.embed(texts=[paper_text(paper=paper) for paper in papers])
        with uow() as store:
            store.save_vectors(
                model=semantic.model,
                vectors=[(paper.id, vector) for paper, vector in zip(papers, vectors, strict=True)],
                now=now(),
            )
        done += len(papers)
        if progress is not None:
            progress(done, total)
    return done


def ensure_vector(
    *, store: Needs, semantic: Semantic, paper: Paper, workspace: WorkspaceKey, now: datetime
) -> None:
    """Give one paper its vector at once if it has none: a daily post's paper, so its related
    line need not wait for the background embedder."""
    if not semantic.knows(store=store, workspace=workspace, paper_id=paper.id):
        vector = semantic.embed(texts=[paper_text(paper=paper)])[0]
        store.save_vectors(model=semantic.model, vectors=[(paper.id, vector)], now=now)
