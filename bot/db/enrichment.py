"""Store methods for enrichment: which papers need it, what it changed (and what they held
before), the candidates of an unclear match, and the services' cached answers."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, or_, select

from bot.db.author_index import fold_names
from bot.db.convert import to_paper
from bot.db.engine import upsert_insert
from bot.db.schema import Base, EmbeddingRow, EnrichCandidateRow, LookupCacheRow, PaperRow
from bot.db.unit import UnitBound
from bot.domain import Paper, PaperStatus

# Columns enrichment may fill; the store maps a change's field to its column.
FILLABLE = frozenset({"title", "abstract", "authors", "arxiv_id", "doi", "url", "published_on"})
LIVE = (PaperStatus.QUEUED.value, PaperStatus.REFERENCE.value)


class SqlEnrichment(UnitBound):
    """ports.EnrichmentStore: papers known in part, answers kept, unclear matches."""

    def papers_to_enrich(self, *, ids: Sequence[int] | None, untried: bool = False) -> list[Paper]:
        """Queued papers and references known only in part (no id, a title made from the
        abstract, an abstract missing or cut), in queue order; `ids`: just those papers;
        `untried`: only those enrichment never decided about. Unclear ones wait for a person
        unless asked for by id."""
        partial = or_(
            PaperRow.arxiv_id.is_(None) & PaperRow.doi.is_(None),
            PaperRow.title_derived.is_(True),
            PaperRow.abstract == "",
            PaperRow.abstract.endswith("…"),
            PaperRow.title.endswith("…"),
        )
        query = select(PaperRow).where(PaperRow.status.in_(LIVE), partial)
        if untried:
            query = query.where(PaperRow.enrichment.is_(None))
        if ids is not None:
            query = query.where(PaperRow.id.in_(list(ids)))
        else:
            query = query.where(
                or_(PaperRow.enrichment.is_(None), PaperRow.enrichment != "unclear")
            )
        rows = self.session.scalars(query.order_by(PaperRow.position, PaperRow.id))
        return [to_paper(row=row) for row in rows]

    def enrichment_state(self, *, paper_id: int) -> tuple[frozenset[str], date | None]:
        """The fields a person typed (never changed) and the stored publication date."""
        row = self.session.get(PaperRow, paper_id)
        if row is None:
            return frozenset(), None
        return frozenset(row.locked or ()), row.published_on

    def id_taken(self, *, field: str, value: str, paper_id: int) -> bool:
        """Whether another paper of its workspace has this arXiv id or DOI (each is unique in
        a workspace: another group may hold the same paper)."""
        column = PaperRow.arxiv_id if field == "arxiv_id" else PaperRow.doi
        same_workspace = PaperRow.workspace_id == (
            select(PaperRow.workspace_id).where(PaperRow.id == paper_id).scalar_subquery()
        )
        other = self.session.scalar(
            select(PaperRow.id).where(column == value, PaperRow.id != paper_id, same_workspace)
        )
        return other is not None

    def apply_enrichment(
        self, *, paper_id: int, changes: dict[str, Any], verdict: str, now: datetime
    ) -> None:
        """Fill in the found fields, keeping what the paper held before as its provenance (the
        first enrichment's: what was imported); record the verdict."""
        row = self.session.get(PaperRow, paper_id)
        if row is None:
            return
        before = {name: _plain(getattr(row, name)) for name in changes if name in FILLABLE}
        row.provenance = {**before, **(row.provenance or {})}
        for name, value in changes.items():
            if name in FILLABLE:
                setattr(row, name, list(value) if name == "authors" else value)
        if "title" in changes:
            row.title_derived = False
        if {"title", "abstract"} & changes.keys():  # its meaning changed: the embedder redoes it
            self.session.execute(delete(EmbeddingRow).where(EmbeddingRow.paper_id == paper_id))
        row.enrichment, row.enriched_at = verdict, now
        if "authors" in changes:  # the trigger adds the new names once the row is flushed
            self.session.flush()
            fold_names(connection=self.session.connection())
        self.session.execute(
            delete(EnrichCandidateRow).where(EnrichCandidateRow.paper_id == paper_id)
        )

    def keep_candidates(
        self, *, paper_id: int, records: Sequence[dict[str, Any]], reason: str, now: datetime
    ) -> None:
        """An unclear match: the records a person chooses from (the previous ones replaced)."""
        self.session.execute(
            delete(EnrichCandidateRow).where(EnrichCandidateRow.paper_id == paper_id)
        )
        self.session.add_all(
            EnrichCandidateRow(paper_id=paper_id, record=dict(r), reason=reason[:200], found_at=now)
            for r in records
        )
        row = self.session.get(PaperRow, paper_id)
        if row is not None:
            row.enrichment, row.enriched_at = "unclear", now

    def candidates_of(self, *, paper_id: int) -> list[dict[str, Any]]:
        """The records kept for an unclear match, in the order found."""
        rows = self.session.scalars(
            select(EnrichCandidateRow.record)
            .where(EnrichCandidateRow.paper_id == paper_id)
            .order_by(EnrichCandidateRow.id)
        )
        return [dict(r) for r in rows]

    def cached_answer(self, *, key: str) -> tuple[int, str] | None:
        """A service's answer kept under this key."""
        row = self.session.get(LookupCacheRow, key)
        return None if row is None else (row.status, row.body)

    def keep_answer(self, *, key: str, url: str, status: int, body: str, now: datetime) -> None:
        """Keep a service's answer (a racing writer's copy is as good)."""
        table = Base.metadata.tables["lookup_cache"]
        insert = upsert_insert(session=self.session, table=table)
        values = {"key": key, "url": url, "status": status, "body": body, "fetched_at": now}
        self.session.execute(insert.on_conflict_do_nothing(), values)


def _plain(value: Any) -> Any:
    """A column value as JSON keeps it."""
    if isinstance(value, date):
        return value.isoformat()
    return list(value) if isinstance(value, list | tuple) else value
