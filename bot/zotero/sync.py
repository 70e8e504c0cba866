"""One Zotero sync pass over every due link: each channel's source collection read into its
queue or tray (sync_source.py), its posted papers and their discussions written to its
collection (sync_destination.py), and how a failing link waits and is reported (sync_link.py).

A link is due when it is not paused and its retry time, if any, has passed. Each link is
synced on its own: one failing, even on a bug or an odd reply, never keeps the others from
their pass. Whatever a pass did before failing is kept (the source's version with what it
imported, each copy as written), so the next pass goes on from there. A source collection
that is gone is reported, but the destination is written all the same. The sync writes only
its own columns of a link, and only while the link is the one it started with: an admin's
pause or disconnect during a pass stops it and stays.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from bot.domain import ChannelKey
from bot.ports import UnitOfWork
from bot.ports.zotero import ZoteroLink
from bot.sealing import TokenCipher, UnreadableToken
from bot.zotero.client import ZoteroClient
from bot.zotero.errors import AccessDenied, Missing, ZoteroError
from bot.zotero.records import LibraryRef
from bot.zotero.session import ZoteroSession
from bot.zotero.sync_collection import Needs as DestinationNeeds
from bot.zotero.sync_destination import Wrote, write_destination
from bot.zotero.sync_link import (
    LinkChanged,
    LinkFailure,
    current,
    failed,
    keep,
    owed,
    succeeded,
)
from bot.zotero.sync_source import Needs as SourceNeeds
from bot.zotero.sync_source import read_source

log = logging.getLogger("paperclub")

__all__ = ["LinkFailure", "Needs", "SyncRound", "sync_due"]


class Needs(SourceNeeds, DestinationNeeds, Protocol):
    """The roles a sync uses."""


@dataclass(frozen=True, slots=True)
class SyncRound:
    """What one pass did: links synced whole, items created and rewritten in Zotero, papers
    brought into queues and trays, and the failures owed a report (once a run of them)."""

    synced: int = 0
    created: int = 0
    updated: int = 0
    imported: int = 0
    failures: tuple[LinkFailure, ...] = ()


def _due(*, link: ZoteroLink, now: datetime) -> bool:
    return not link.paused and (link.retry_at is None or link.retry_at <= now)


def _failing(
    *,
    uow: UnitOfWork[Needs],
    link: ZoteroLink,
    error: Exception,
    now: datetime,
    source_only: bool = False,
) -> LinkFailure | None:
    """Keep the link's failure; the report owed for it, when it is the run's first. A failure
    of the source alone (`source_only`) sets no retry time and counts no failure in a row (the
    count paces the retries of the whole link): the destination is still written every pass
    meanwhile."""
    try:
        with uow() as store:
            before = current(store=store, link=link)
            state = failed(link=before, error=error, now=now)
            report = owed(link=state, error=error, now=now)
            if source_only:  # the destination was written: nothing in a row is failing
                state = replace(state, retry_at=None, failures=0)
            keep(store=store, link=replace(state, reported=state.reported or report))
    except LinkChanged:
        return None
    log.warning("zotero %s: sync failed: %s", link.channel, state.last_error or error)
    return (
        LinkFailure(channel=link.channel, library=link.library, reason=state.last_error)
        if report
        else None
    )


def _pass(
    *,
    uow: UnitOfWork[Needs],
    cipher: TokenCipher,
    session_for: Callable[[str], ZoteroSession],
    link: ZoteroLink,
    now: datetime,
) -> tuple[int, Wrote, ZoteroError | None]:
    """Read the source, write the destination, mark the link synced: papers brought in, what
    was written, and the source's failure (a collection deleted or no longer readable: the
    destination is written all the same, and the link is not marked synced)."""
    key = cipher.open(value=link.sealed_key)
    if not key:
        raise UnreadableToken("no API key is stored")
    client = ZoteroClient(
        session=session_for(key), library=LibraryRef(kind=link.library_kind, id=link.library_id)
    )
    imported, source_failed = 0, None
    try:
        link, imported = read_source(uow=uow, client=client, link=link, now=now)
    except (Missing, AccessDenied) as error:
        source_failed = error
    link, wrote = write_destination(uow=uow, client=client, link=link)
    if source_failed is None:
        with uow() as store:
            keep(store=store, link=succeeded(link=current(store=store, link=link), now=now))
    return imported, wrote, source_failed


def _failing_safely(
    *, uow: UnitOfWork[Needs], link: ZoteroLink, error: Exception, now: datetime
) -> LinkFailure | None:
    """_failing, logged rather than raised when keeping the failure fails too (the archive
    down): the other links still get their pass."""
    try:
        return _failing(uow=uow, link=link, error=error, now=now)
    except Exception:
        log.exception("zotero %s: the failure could not be kept", link.channel)
        return None


def sync_due(
    *,
    uow: UnitOfWork[Needs],
    cipher: TokenCipher,
    session_for: Callable[[str], ZoteroSession],
    now: datetime,
    channels: Iterable[ChannelKey] | None = None,
) -> SyncRound:
    """Sync every due link (of `channels`; None: every channel's). `session_for(api_key)`
    makes the session a link's requests go through (the API's base and pacing)."""
    wanted = None if channels is None else set(channels)
    with uow(write=False) as store:
        links = [
            link
            for link in store.zotero_links()
            if (wanted is None or link.channel in wanted) and _due(link=link, now=now)
        ]
    synced = created = updated = imported = 0
    failures: list[LinkFailure] = []
    for link in links:
        try:
            brought, wrote, source_failed = _pass(
                uow=uow, cipher=cipher, session_for=session_for, link=link, now=now
            )
            failure = (
                _failing(uow=uow, link=link, error=source_failed, now=now, source_only=True)
                if source_failed is not None
                else None
            )
        except LinkChanged:
            log.info("zotero %s: the link changed during the sync; left for the next", link.channel)
            continue
        except (ZoteroError, UnreadableToken) as error:
            failure = _failing_safely(uow=uow, link=link, error=error, now=now)
            failures += [failure] if failure is not None else []
            continue
        except Exception as error:  # a bug or an odd reply: this link fails, not the round
            log.exception("zotero %s: the sync failed unexpectedly", link.channel)
            failure = _failing_safely(uow=uow, link=link, error=error, now=now)
            failures += [failure] if failure is not None else []
            continue
        failures += [failure] if failure is not None else []
        synced += 1
        imported += brought
        created += wrote.created
        updated += wrote.updated
    return SyncRound(
        synced=synced,
        created=created,
        updated=updated,
        imported=imported,
        failures=tuple(failures),
    )
