"""The semantic extra, as the services see it: one per process, installed by the composition
root when the extra loads (like telemetry and web links), absent on a plain install."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from bot.domain import Paper, WorkspaceKey
from bot.ports import Semantic, SemanticStore, UnitOfWork


class Needs(SemanticStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


_installed: list[Semantic] = []
# Why there is none, for --explain: what the composition root said, or this by default.
NOT_INSTALLED = "the semantic extra is not installed (pip install 'paperclub[semantic]')"
_why: list[str] = [NOT_INSTALLED]
# Told when a paper is added, so the running bot's embedder can give it its vector at once.
_on_write: list[Callable[[], None]] = []


def install(
    *,
    semantic: Semantic | None,
    why: str = NOT_INSTALLED,
    on_write: Callable[[], None] | None = None,
) -> None:
    """Use this semantic index from now on (None: keyword search alone, because `why`);
    `on_write` is told of each paper added."""
    _installed.clear()
    if semantic is not None:
        _installed.append(semantic)
    _why[:] = [why or NOT_INSTALLED]
    _on_write[:] = [on_write] if on_write is not None else []


def written() -> None:
    """A paper was added: the embedder (where one runs) makes its vector soon."""
    for tell in _on_write:
        tell()


def installed() -> Semantic | None:
    """The process's semantic index, or None without the extra."""
    return _installed[0] if _installed else None


def why_not() -> str:
    """Why there is no semantic index (the extra missing, or turned off)."""
    return _why[0]


def paper_text(*, paper: Paper) -> str:
    """What a paper's vector is made of: its title and abstract."""
    title, abstract = " ".join(paper.title.split()), " ".join(paper.abstract.split())
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
