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

PART = 200  # papers brought in per unit of work


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


def _brought(*, store: Needs, link: ZoteroLink, drafts: Sequence[PaperDraft], now: datetime) -> int:
    """Bring drafts into the channel's queue or tray, as the link says; how many came in."""
    if link.into == "queue":
        return _queued(store=store, link=link, drafts=drafts, now=now)
    found = [c for c in (candidate(draft=d) for d in drafts) if c is not None]
    if not found:
        return 0
    return store.add_suggestions(channel=link.channel, watch_id=None, candidates=found, now=now)


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
    brought = 0
    # A few hundred papers a unit of work: a first read of a large collection must not hold
    # the archive's write lock for seconds (clicks and votes wait behind it). The version is
    # kept with the last part; a crash before it reads the whole change again, and the dedupe
    # makes that harmless.
    parts = [drafts[start : start + PART] for start in range(0, len(drafts), PART)] or [[]]
    for number, part in enumerate(parts, start=1):
        with uow() as store:
            fresh = going(store=store, link=link)
            if fresh.source != link.source:  # another collection was chosen meanwhile
                return fresh, brought
            brought += _brought(store=store, link=fresh, drafts=part, now=now)
            if number == len(parts):
                saved = replace(fresh, source_version=changes.version)
                keep(store=store, link=saved)
    if brought:
        log.info("zotero %s: %d new paper(s) into the %s", link.channel, brought, saved.into)
    return saved, brought
