"""A link's source: the items of its Zotero collection changed since the library version last
read, brought into the channel's queue or tray, deduplicated like every import.

What a read brought in and the version it read at are kept in one unit of work: a crash before
it commits reads the same items again, and the dedupe makes that harmless (a paper held is not
queued again; a suggestion's keys are unique per channel). An unchanged collection costs one
request that answers 304.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from bot.domain import PaperDraft
from bot.ports import SourcesStore, UnitOfWork
from bot.ports.zotero import ZoteroLink, ZoteroStore
from bot.services import adding
from bot.sources.candidates import Candidate, make_candidate
from bot.zotero.client import ZoteroClient
from bot.zotero.mapping import item_draft
from bot.zotero.sync_link import going, keep

log = logging.getLogger("paperclub")


class Needs(ZoteroStore, SourcesStore, adding.Needs, Protocol):
    """The roles a source read uses."""


def candidate(*, draft: PaperDraft) -> Candidate | None:
    """A draft read from Zotero as a suggestion, its source "zotero:<item key>"."""
    return make_candidate(
        source=draft.origin,
        title=draft.title,
        abstract=draft.abstract,
        authors=draft.authors,
        arxiv_id=draft.arxiv_id or "",
        doi=draft.doi or "",
        url=draft.url or "",
        announced=draft.published,
    )


def _queued(*, store: Needs, link: ZoteroLink, drafts: Sequence[PaperDraft], now: datetime) -> int:
    """Queue in the channel the drafts its workspace does not hold (by DOI, arXiv id, link,
    fingerprint, and title for a draft with no id); how many were queued. A draft queued
    earlier in the same read is held by then, so a paper in the collection twice is one."""
    queued = 0
    for draft in drafts:
        if adding.held(store=store, workspace=link.channel.workspace_key, draft=draft) is not None:
            continue
        done = adding.queue_draft(
            store=store, draft=draft, channel=link.channel, user=link.connected_by, now=now
        )
        queued += done is not None
    return queued


def read_source(
    *, uow: UnitOfWork[Needs], client: ZoteroClient, link: ZoteroLink, now: datetime
) -> tuple[ZoteroLink, int]:
    """Read the link's source collection since its version (nothing when it has none): the
    link as saved, and how many papers entered the queue or the tray."""
    if link.source is None:
        return link, 0
    changes = client.changed_items(since=link.source_version, collection=link.source)
    drafts = [d for d in (item_draft(item=o) for o in changes.objects) if d is not None]
    if changes.version == link.source_version and not drafts:
        return link, 0
    with uow() as store:
        fresh = going(store=store, link=link)
        if fresh.source != link.source:  # another collection was chosen meanwhile
            return fresh, 0
        if fresh.into == "queue":
            brought = _queued(store=store, link=fresh, drafts=drafts, now=now)
        else:
            found = [c for c in (candidate(draft=d) for d in drafts) if c is not None]
            brought = (
                store.add_suggestions(
                    channel=fresh.channel, watch_id=None, candidates=found, now=now
                )
                if found
                else 0
            )
        saved = replace(fresh, source_version=changes.version)
        keep(store=store, link=saved)
    if brought:
        log.info("zotero %s: %d new paper(s) into the %s", link.channel, brought, fresh.into)
    return saved, brought
