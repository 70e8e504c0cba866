"""A sync's own writes of a channel's link, each one UPDATE that holds only while the stored
link is still the one the sync works for (same library, sealed key and connect time): an
admin's pause, new key or disconnect committed during a pass stays as the admin left it, and a
link removed meanwhile is never inserted again (0 rows: the caller's link changed)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.orm import Session

from bot.db.schema_zotero import ZoteroLinkRow
from bot.ports.zotero import ZoteroLink


def _same(*, channel_id: int, link: ZoteroLink) -> list[ColumnElement[bool]]:
    """The stored row is `link`'s: its channel, library, key and connect."""
    return [
        ZoteroLinkRow.channel_id == channel_id,
        ZoteroLinkRow.library_kind == link.library_kind,
        ZoteroLinkRow.library_id == link.library_id,
        ZoteroLinkRow.sealed_key == link.sealed_key,
        ZoteroLinkRow.connected_at == link.connected_at,
    ]


def sync_values(*, link: ZoteroLink) -> dict[str, Any]:
    """The columns a sync owns (the destination is planned apart: plan_destination)."""
    return {
        "source_version": link.source_version,
        "failures": link.failures,
        "retry_at": link.retry_at,
        "failing_since": link.failing_since,
        "last_error": link.last_error,
        "reported": link.reported,
        "synced_at": link.synced_at,
    }


def save_sync_state(*, session: Session, channel_id: int, link: ZoteroLink) -> bool:
    """Write the sync's columns of `link` if it is still the stored one; whether it was."""
    done = session.execute(
        update(ZoteroLinkRow)
        .where(*_same(channel_id=channel_id, link=link))
        .values(**sync_values(link=link))
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(done, "rowcount", 0))


def plan_destination(
    *, session: Session, channel_id: int, link: ZoteroLink, replacing: str | None, key: str
) -> str | None:
    """Set the link's collection to `key` when it is still `replacing` (None: none yet), then
    read what is stored: of two syncs planning at once, both get the first's key. None when
    the stored link is no longer `link`."""
    same = _same(channel_id=channel_id, link=link)
    held = (
        ZoteroLinkRow.destination.is_(None)
        if replacing is None
        else ZoteroLinkRow.destination == replacing
    )
    session.execute(
        update(ZoteroLinkRow)
        .where(*same, held)
        .values(destination=key)
        .execution_options(synchronize_session=False)
    )
    stored = session.scalar(select(ZoteroLinkRow.destination).where(*same))
    return str(stored) if stored is not None else None
