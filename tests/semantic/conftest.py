"""Fixtures for meaning: one loaded model for the whole run, a fresh index per test (its
in-memory vectors belong to one database), which a test hands to the services it calls."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.db.database import Database
from bot.domain import PaperDraft, WorkspaceKey
from bot.services import embedding, importing
from tests.services.memory_chat import MemoryChat

onnxruntime = pytest.importorskip("onnxruntime")  # the extra; a plain install skips these

from bot.semantic.encoder import Encoder, load_encoder  # noqa: E402
from bot.semantic.lazy import LazySemantic  # noqa: E402

RELEVANCE = Path(__file__).resolve().parents[1] / "data" / "relevance"
NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture(scope="session")
def encoder() -> Encoder:
    """The model, loaded once: a few hundred milliseconds each time otherwise."""
    return load_encoder()


@pytest.fixture
def chat() -> MemoryChat:
    """A fresh in-memory chat (the service tests' own)."""
    return MemoryChat()


@pytest.fixture
def semantic(encoder: Encoder) -> LazySemantic:
    """A fresh index on the shared model."""
    return LazySemantic(model=encoder.model, load=lambda: encoder)


def corpus(*ids: str) -> list[dict[str, Any]]:
    """Papers of the judged corpus (part B), by id, in the order asked."""
    path = RELEVANCE / "corpus_b.jsonl"
    rows = {row["id"]: row for row in map(json.loads, path.read_text("utf-8").splitlines())}
    return [rows[paper_id] for paper_id in ids]


def add_papers(
    database: Database, papers: list[dict[str, Any]], *, workspace: WorkspaceKey | None = None
) -> None:
    """Import papers ({title, abstract, authors}) at the end of a workspace's queue."""
    drafts = [
        PaperDraft(title=p["title"], abstract=p["abstract"], authors=tuple(p.get("authors", ())))
        for p in papers
    ]
    importing.import_drafts(uow=database, drafts=drafts, now=NOW, workspace=workspace)


def embed_all(database: Database, semantic: LazySemantic) -> int:
    """Every paper's vector, as `paperclub embed` makes them."""
    return embedding.embed_pending(uow=database, semantic=semantic, now=lambda: NOW)
