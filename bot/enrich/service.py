"""Enrich the papers we know only in part: ask the sources, decide, apply or keep for a
person; one paper at a time, each in its own transaction."""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime
from typing import Any

from bot.domain import Paper, PaperDraft
from bot.enrich.apply import Change, changes, known_of
from bot.enrich.fetch import Unreachable
from bot.enrich.match import Verdict, decide
from bot.enrich.sources import Sources
from bot.ports import Store, UnitOfWork

log = logging.getLogger(__name__)
Progress = Callable[[int, int], None]


class Result(enum.StrEnum):
    """What enrichment did for one paper."""

    FOUND = "found"  # a clear match, and it filled something in
    UNCHANGED = "unchanged"  # a clear match with nothing to add
    UNCLEAR = "unclear"  # several papers fit: kept for a person to choose
    NONE = "none"  # no record fits
    UNREACHABLE = "unreachable"  # the services could not be asked


@dataclass(frozen=True, slots=True)
class PaperEnriched:
    """One paper's result, the changes (made, or that a dry run would make) and why."""

    paper_id: int
    title: str
    result: Result
    reason: str
    changes: tuple[Change, ...] = ()
    candidates: tuple[PaperDraft, ...] = ()


def record_of(draft: PaperDraft) -> dict[str, object]:
    """A found record as JSON keeps it."""
    data = asdict(draft)
    data["authors"] = list(draft.authors)
    data["published"] = draft.published.isoformat() if draft.published else None
    return {
        k: data[k] for k in ("title", "authors", "abstract", "arxiv_id", "doi", "url", "published")
    }


def enrich_one(
    *, uow: UnitOfWork[Store], sources: Sources, paper: Paper, now: datetime, dry_run: bool
) -> PaperEnriched:
    """Ask, decide, and (unless a dry run) apply a clear match or keep an unclear one."""
    known = known_of(paper=paper)
    try:
        candidates = sources.candidates(known=known)
    except Unreachable as exc:
        return PaperEnriched(
            paper_id=paper.id, title=paper.title, result=Result.UNREACHABLE, reason=str(exc)
        )
    decision = decide(known=known, candidates=candidates)
    if decision.verdict is Verdict.UNCLEAR:
        if not dry_run:
            with uow() as store:
                store.keep_candidates(
                    paper_id=paper.id,
                    records=[record_of(c) for c in decision.candidates],
                    reason=decision.reason,
                    now=now,
                )
        return PaperEnriched(
            paper_id=paper.id,
            title=paper.title,
            result=Result.UNCLEAR,
            reason=decision.reason,
            candidates=decision.candidates,
        )
    if decision.found is None:
        if not dry_run:
            with uow() as store:
                store.apply_enrichment(paper_id=paper.id, changes={}, verdict="none", now=now)
        return PaperEnriched(
            paper_id=paper.id, title=paper.title, result=Result.NONE, reason=decision.reason
        )
    found = decision.found
    with uow(write=not dry_run) as store:
        locked, published = store.enrichment_state(paper_id=paper.id)
        made = changes(
            paper=paper,
            found=found,
            locked=locked,
            published=published,
            taken=lambda field, value: store.id_taken(field=field, value=value, paper_id=paper.id),
        )
        result = Result.FOUND if made else Result.UNCHANGED
        if not dry_run:
            store.apply_enrichment(
                paper_id=paper.id,
                changes={c.field: c.after for c in made},
                verdict=result.value,
                now=now,
            )
    return PaperEnriched(
        paper_id=paper.id,
        title=paper.title,
        result=result,
        reason=decision.reason,
        changes=tuple(made),
        candidates=(found,),
    )


def draft_of(record: dict[str, Any]) -> PaperDraft:
    """A kept record (record_of) as a draft again."""
    published = record.get("published")
    return PaperDraft(
        title=str(record.get("title") or ""),
        abstract=str(record.get("abstract") or ""),
        authors=tuple(str(a) for a in record.get("authors") or ()),
        arxiv_id=record.get("arxiv_id") or None,
        doi=record.get("doi") or None,
        url=record.get("url") or None,
        origin="confirmed",
        published=date.fromisoformat(str(published)) if published else None,
    )


def confirm(
    *, uow: UnitOfWork[Store], paper_id: int, pick: int, now: datetime
) -> PaperEnriched | None:
    """A person's choice among an unclear match's records (1 is the first listed), applied as
    a found one; None when the paper has no such record kept."""
    with uow() as store:
        paper = store.paper(paper_id=paper_id)
        kept = store.candidates_of(paper_id=paper_id)
        if paper is None or not 1 <= pick <= len(kept):
            return None
        found = draft_of(kept[pick - 1])
        locked, published = store.enrichment_state(paper_id=paper_id)
        made = changes(
            paper=paper,
            found=found,
            locked=locked,
            published=published,
            taken=lambda field, value: store.id_taken(field=field, value=value, paper_id=paper_id),
        )
        store.apply_enrichment(
            paper_id=paper_id, changes={c.field: c.after for c in made}, verdict="found", now=now
        )
    return PaperEnriched(
        paper_id=paper_id,
        title=paper.title,
        result=Result.FOUND,
        reason=f"record {pick} confirmed by hand",
        changes=tuple(made),
    )


def enrich(
    *,
    uow: UnitOfWork[Store],
    sources: Sources,
    now: datetime,
    ids: Sequence[int] | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
) -> list[PaperEnriched]:
    """Every paper that needs it (or those `ids`), in queue order."""
    with uow(write=False) as store:
        papers = store.papers_to_enrich(ids=ids)
    outcomes = []
    for done, paper in enumerate(papers, start=1):
        outcomes.append(enrich_one(uow=uow, sources=sources, paper=paper, now=now, dry_run=dry_run))
        if progress is not None:
            progress(done, len(papers))
    return outcomes


def summary(*, outcomes: Sequence[PaperEnriched]) -> dict[str, int]:
    """How many papers had each result."""
    return {result.value: sum(o.result is result for o in outcomes) for result in Result}
