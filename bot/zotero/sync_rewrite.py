"""Rewriting a stored copy whose votes or discussion changed: the item's tags (read first and
merged, as a PATCH of tags replaces the list and people add their own; read and merged again
when someone changed the item meanwhile) and the note's HTML, each under its version.

An item missing in Zotero marks the copy gone, never made again. A note deleted alone (its item
still there) is not made again either, as a person chose to delete it: its item's tags are
still kept up to date.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.ports import UnitOfWork
from bot.ports.zotero import ZoteroCopy
from bot.zotero.client import ZoteroClient
from bot.zotero.errors import VersionConflict, WriteFailed
from bot.zotero.sync_collection import Needs, Target
from bot.zotero.sync_copies import Contents, merged_tags, note_changed, tags_changed, written

log = logging.getLogger("paperclub")

TAG_TRIES = 2  # reads and merges of an item's tags in one pass (a 412 sends us back to read)


def _tags(*, client: ZoteroClient, key: str, ours: list[dict[str, str]]) -> int:
    """PATCH the item's tags as stored merged with ours, under the version read; on 412 read
    and merge again (a PATCH at the new version with the old merge would drop the tag that
    caused it). The item's new version."""
    for _ in range(TAG_TRIES):
        found = client.item(key=key)
        if found is None:
            raise WriteFailed(f"item {key} no longer exists", status=404)
        data = found.get("data") or {}
        merged = merged_tags(current=list(data.get("tags") or []), ours=ours)
        try:
            return client.update_item(
                key=key, changes={"tags": merged}, version=int(found.get("version", 0)), tries=1
            )
        except VersionConflict:
            continue
    raise VersionConflict(f"item {key} kept changing while its tags were written")


def _note(*, client: ZoteroClient, copy: ZoteroCopy, html: str) -> int:
    """PATCH the note's HTML; its new version. A note deleted alone keeps its old version
    (nothing to write to); WriteFailed(404) when its item is gone too."""
    try:
        return client.update_item(
            key=copy.note_key, changes={"note": html}, version=copy.note_version
        )
    except WriteFailed as refused:
        if refused.status != 404 or client.item(key=copy.item_key) is None:
            raise
    log.info("zotero: the note %s was deleted in Zotero; not made again", copy.note_key)
    return copy.note_version


def rewrite(*, uow: UnitOfWork[Needs], to: Target, copy: ZoteroCopy, held: Contents) -> bool:
    """Rewrite what changed of a stored copy (the item's tags, the note); whether anything was
    written. An item missing in Zotero marks the copy gone; a conflict that outlived the
    re-reads waits for the next pass."""
    item_version, note_version = copy.item_version, copy.note_version
    tags = note = gone = False
    try:
        if tags_changed(copy=copy, contents=held):
            item_version = _tags(client=to.client, key=copy.item_key, ours=held.tags)
            tags = True
        if note_changed(copy=copy, contents=held):
            note_version = _note(client=to.client, copy=copy, html=held.note)
            note = True
    except WriteFailed as refused:
        gone = refused.status == 404
        if not gone:
            log.warning(
                "zotero %s: post %d not rewritten: %s", to.link.channel, copy.post_id, refused
            )
    except VersionConflict as conflict:
        log.info(
            "zotero %s: post %d waits for the next sync: %s",
            to.link.channel,
            copy.post_id,
            conflict,
        )
    digest = written(copy=copy, contents=held, tags=tags, note=note)
    kept = replace(
        copy, item_version=item_version, note_version=note_version, digest=digest, gone=gone
    )
    if kept == copy:
        return False
    with uow() as store:
        store.save_zotero_copies(channel=to.link.channel, library=to.link.library, copies=[kept])
    return kept.digest != copy.digest
