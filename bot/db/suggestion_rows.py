"""Suggestion rows to and from their values: a candidate's fields, the ranking's reason, and
dedupe keys as stored."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, get_args

from bot.db.convert import utc
from bot.db.schema_sources import MAX_KEY, SuggestionRow
from bot.domain import ChannelKey
from bot.ports.sources import Suggestion, SuggestionState
from bot.sources.candidates import ANNOUNCE_KINDS, AnnounceKind, Candidate
from bot.sources.rank import Reason, ReasonKind

_STATES: dict[str, SuggestionState] = {state: state for state in get_args(SuggestionState)}
_REASONS: dict[str, ReasonKind] = {kind: kind for kind in get_args(ReasonKind)}
_ANNOUNCES: dict[str, AnnounceKind] = {kind: kind for kind in ANNOUNCE_KINDS}


def stored_key(*, key: str) -> str:
    """A dedupe key as the suggestion_keys table holds it: itself, or past MAX_KEY characters
    its prefix and sha256 (a long DOI or title is compared as exactly, and fits the index)."""
    if len(key) <= MAX_KEY:
        return key
    prefix = key.split(":", 1)[0][:16]
    return f"{prefix}:sha256:{hashlib.sha256(key.encode('utf-8')).hexdigest()}"


def candidate_values(*, candidate: Candidate) -> dict[str, Any]:
    """A suggestion row's candidate columns."""
    return {
        "title": candidate.title,
        "authors": list(candidate.authors),
        "abstract": candidate.abstract,
        "arxiv_id": candidate.arxiv_id,
        "version": candidate.version,
        "doi": candidate.doi,
        "url": candidate.url,
        "announced": candidate.announced,
        "categories": list(candidate.categories),
        "announce": candidate.announce,
        "source": candidate.source,
    }


def to_candidate(*, row: SuggestionRow) -> Candidate:
    """The candidate a suggestion row keeps, exactly as it was given."""
    return Candidate(
        title=row.title,
        source=row.source,
        authors=tuple(row.authors or ()),
        abstract=row.abstract,
        arxiv_id=row.arxiv_id,
        version=row.version,
        doi=row.doi,
        url=row.url,
        announced=row.announced,
        categories=tuple(row.categories or ()),
        announce=_ANNOUNCES.get(row.announce) if row.announce else None,
    )


def _aware(value: datetime | None) -> datetime | None:
    """A stored datetime as aware UTC, None kept."""
    return utc(value=value) if value is not None else None


def to_suggestion(*, row: SuggestionRow, channel: ChannelKey) -> Suggestion:
    """Domain suggestion from a row and its channel's key."""
    reason = (
        Reason(kind=_REASONS[row.reason_kind], value=row.reason_value, count=int(row.reason_count))
        if row.reason_kind is not None
        else None
    )
    return Suggestion(
        id=row.id,
        channel=channel,
        watch_id=row.watch_id,
        candidate=to_candidate(row=row),
        found_at=utc(value=row.found_at),
        state=_STATES[row.state],
        reason=reason,
        score=row.score,
        shown_on=row.shown_on,
        decided_by=row.decided_by,
        decided_at=_aware(row.decided_at),
        paper_id=row.paper_id,
    )
