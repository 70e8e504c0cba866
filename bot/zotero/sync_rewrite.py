"""Rewriting a stored copy whose votes or discussion changed: the item's tags (read first and
merged, as a PATCH of tags replaces the list and people add their own) and the note's HTML,
each under its version. An item missing in Zotero marks the copy gone, never made again."""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.ports import UnitOfWork
from bot.ports.zotero import ZoteroCopy
from bot.zotero.errors import VersionConflict, WriteFailed
from bot.zotero.sync_collection import Needs, Target
from bot.zotero.sync_copies import Contents, merged_tags, note_changed, tags_changed, written

log = logging.getLogger("paperclub")


def rewrite(*, uow: UnitOfWork[Needs], to: Target, copy: ZoteroCopy, held: Contents) -> bool:
    """Rewrite what changed of a stored copy (the item's tags, the note); whether anything was
    written. An object missing in Zotero marks the copy gone; a conflict that outlived a
    re-read waits for the next pass."""
    item_version, note_version = copy.item_version, copy.note_version
    tags = note = gone = False
    try:
        if tags_changed(copy=copy, contents=held):
            # Read first: a PATCH of `tags` replaces the whole list, and people may have added
            # their own tags to the item since it was written.
            found = to.client.item(key=copy.item_key)
            if found is None:
                raise WriteFailed(f"item {copy.item_key} no longer exists", status=404)
            data = found.get("data") or {}
            item_version = to.client.update_item(
                key=copy.item_key,
                changes={"tags": merged_tags(current=list(data.get("tags") or []), ours=held.tags)},
                version=int(found.get("version", item_version)),
            )
            tags = True
        if note_changed(copy=copy, contents=held):
            note_version = to.client.update_item(
                key=copy.note_key, changes={"note": held.note}, version=note_version
            )
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
        store.save_zotero_copy(channel=to.link.channel, library=to.link.library, copy=kept)
    return kept.digest != copy.digest
