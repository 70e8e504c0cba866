"""The store's part for enrichment: papers known in part, what metadata services answered,
and the candidates of an unclear match."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, Protocol

from bot.domain import (
    Paper,
)


class EnrichmentStore(Protocol):
    """Enrichment's state and the answers kept, inside one unit of work."""

    def papers_to_enrich(self, *, ids: Sequence[int] | None, untried: bool = False) -> list[Paper]:
        """Queued papers and references known only in part, in queue order (`untried`: only
        those enrichment never decided about)."""
        ...

    def enrichment_state(self, *, paper_id: int) -> tuple[frozenset[str], date | None]:
        """The fields a person typed (never changed) and the stored publication date."""
        ...

    def id_taken(self, *, field: str, value: str, paper_id: int) -> bool:
        """Whether another paper of its workspace has this arXiv id ("arxiv_id") or DOI."""
        ...

    def apply_enrichment(
        self, *, paper_id: int, changes: dict[str, Any], verdict: str, now: datetime
    ) -> None:
        """Fill in found fields, keeping what the paper held before; record the verdict."""
        ...

    def keep_candidates(
        self, *, paper_id: int, records: Sequence[dict[str, Any]], reason: str, now: datetime
    ) -> None:
        """An unclear match: the records a person chooses from."""
        ...

    def candidates_of(self, *, paper_id: int) -> list[dict[str, Any]]:
        """The records kept for an unclear match, in the order found."""
        ...

    def cached_answer(self, *, key: str) -> tuple[int, str] | None:
        """A metadata service's answer kept under this key."""
        ...

    def keep_answer(self, *, key: str, url: str, status: int, body: str, now: datetime) -> None:
        """Keep a metadata service's answer."""
        ...
