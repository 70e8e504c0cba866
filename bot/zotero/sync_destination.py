"""A link's destination: each posted paper of the channel as an item with a child note holding
its discussion, in the channel's collection, written once and rewritten only when it changed.

Never twice: a post without a copy gets its item's and note's keys and a write token planned
and committed before anything is sent (PAIRS posts share one token, as one request writes
them); a replay after a lost answer or a crash sends the same keys and token, and the client
finds what was stored instead of storing it again. Two replicas planning the same post keep one
plan (the store keeps the first). An item someone deleted in Zotero is marked gone when a
rewrite finds it missing, and never made again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from bot.ports import NamesStore, UnitOfWork
from bot.ports.names import CHANNEL, PERSON
from bot.ports.zotero import PostedPaper, ZoteroCopy, ZoteroLink, ZoteroStore
from bot.zotero.client import WRITE_MAX, ZoteroClient
from bot.zotero.errors import VersionConflict, WriteFailed
from bot.zotero.records import new_object_key, new_write_token
from bot.zotero.sync_copies import (
    Contents,
    channel_label,
    collection_title,
    contents,
    merged_tags,
    new_objects,
    note_changed,
    tags_changed,
    written,
)
from bot.zotero.sync_link import current

log = logging.getLogger("paperclub")

PAGE = 100  # posts read from the archive at a time
PAIRS = WRITE_MAX // 2  # posts (an item and its note each) in one create request
_TAKEN = 412  # a create's object code when its token was used and it was not stored

Pair = tuple[PostedPaper, ZoteroCopy, Contents]  # a post, its planned copy, what it should hold


class Needs(ZoteroStore, NamesStore, Protocol):
    """The roles a destination write uses."""


@dataclass(frozen=True, slots=True)
class Wrote:
    """What a destination pass wrote: items created, copies rewritten (tags or note)."""

    created: int = 0
    updated: int = 0


@dataclass(frozen=True, slots=True)
class _Target:
    """Where the copies go, and what the channel and its people are called there."""

    client: ZoteroClient
    link: ZoteroLink
    collection: str
    label: str
    people: dict[str, str]


def _plan(
    *, uow: UnitOfWork[Needs], link: ZoteroLink, posts: Sequence[PostedPaper]
) -> dict[int, ZoteroCopy]:
    """Plan copies for posts without one (committed before any write), then read back the
    plans kept: another replica's, where it planned the same post first."""
    planned = [
        ZoteroCopy(
            post_id=post.post_id,
            item_key=new_object_key(),
            note_key=new_object_key(),
            write_token=token,
        )
        for start in range(0, len(posts), PAIRS)
        for token in (new_write_token(),)
        for post in posts[start : start + PAIRS]
    ]
    ids = [post.post_id for post in posts]
    with uow() as store:
        store.plan_zotero_copies(channel=link.channel, library=link.library, copies=planned)
    with uow(write=False) as store:
        return store.zotero_copies(channel=link.channel, library=link.library, post_ids=ids)


@dataclass(frozen=True, slots=True)
class _Outcome:
    """One post's create: whether its item and note are both stored (the library version
    then), and each object's failure (code, message) when not."""

    stored: bool
    version: int
    item_failed: tuple[int, str] | None
    note_failed: tuple[int, str] | None


def _send(*, to: _Target, pairs: Sequence[Pair], token: str | None) -> list[_Outcome]:
    """One create request of items and their notes (a fresh token when `token` is None)."""
    objects = [
        one
        for posted, copy, held in pairs
        for one in new_objects(posted=posted, copy=copy, held=held, collection=to.collection)
    ]
    created = to.client.create_items(items=objects, token=token)
    return [
        _Outcome(
            stored=2 * i in created.keys and 2 * i + 1 in created.keys,
            version=created.version,
            item_failed=created.failed.get(2 * i),
            note_failed=created.failed.get(2 * i + 1),
        )
        for i in range(len(pairs))
    ]


def _taken(*, outcome: _Outcome) -> bool:
    """Refused under a token used before, and not found stored."""
    return any(f is not None and f[0] == _TAKEN for f in (outcome.item_failed, outcome.note_failed))


def _create(*, uow: UnitOfWork[Needs], to: _Target, pairs: Sequence[Pair]) -> tuple[int, bool]:
    """Create planned copies that share a token; how many were stored, and whether the
    channel's collection was found gone (an item refused with 409: its collection is missing)."""
    outcomes = _send(to=to, pairs=pairs, token=pairs[0][1].write_token)
    # A token used before whose objects are not stored: it wrote part of an earlier group, or
    # these failed then. The planned keys still guard against doubles: sent with a fresh token.
    again = [i for i, outcome in enumerate(outcomes) if _taken(outcome=outcome)]
    if again:
        retried = _send(to=to, pairs=[pairs[i] for i in again], token=None)
        for i, outcome in zip(again, retried, strict=True):
            outcomes[i] = outcome
    stored: list[ZoteroCopy] = []
    collection_gone = False
    for (posted, copy, held), outcome in zip(pairs, outcomes, strict=True):
        if outcome.stored:
            v = outcome.version
            stored.append(
                replace(copy, stored=True, item_version=v, note_version=v, digest=held.digest)
            )
            continue
        collection_gone |= outcome.item_failed is not None and outcome.item_failed[0] == 409
        why = [f"{f[0]} {f[1][:200]}" for f in (outcome.item_failed, outcome.note_failed) if f]
        log.warning("zotero %s: post %d not written: %s", to.link.channel, posted.post_id, why)
    with uow() as store:
        for copy in stored:
            store.save_zotero_copy(channel=to.link.channel, library=to.link.library, copy=copy)
    return len(stored), collection_gone


def _update(*, uow: UnitOfWork[Needs], to: _Target, copy: ZoteroCopy, held: Contents) -> bool:
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


def _target(*, uow: UnitOfWork[Needs], client: ZoteroClient, link: ZoteroLink) -> _Target:
    """The channel's names, and its collection (made when the link has none yet, and kept)."""
    workspace = link.channel.workspace_key
    with uow(write=False) as store:
        channels = store.names_in(workspace=workspace, kind=CHANNEL)
        people = store.names_in(workspace=workspace, kind=PERSON)
    label = channel_label(names=channels, channel_id=link.channel.channel)
    collection = link.destination
    if collection is None:
        collection = client.collection_key(name=collection_title(label=label))
        with uow() as store:
            link = replace(current(store=store, link=link), destination=collection)
            store.save_zotero_link(link=link)
    return _Target(client=client, link=link, collection=collection, label=label, people=people)


def write_destination(
    *, uow: UnitOfWork[Needs], client: ZoteroClient, link: ZoteroLink
) -> tuple[ZoteroLink, Wrote]:
    """Write the channel's posted papers that have no copy yet, and rewrite the copies whose
    votes or comments changed: the link as saved, and what was written."""
    to = _target(uow=uow, client=client, link=link)
    created = updated = 0
    after = 0
    while True:
        with uow(write=False) as store:
            page = store.posted_papers(channel=link.channel, after_post=after, limit=PAGE)
            ids = [posted.post_id for posted in page]
            copies = store.zotero_copies(channel=link.channel, library=link.library, post_ids=ids)
        if not page:
            break
        fresh = [posted for posted in page if posted.post_id not in copies]
        if fresh:
            copies |= _plan(uow=uow, link=link, posts=fresh)
        wanted = {p.post_id: contents(posted=p, label=to.label, people=to.people) for p in page}
        unstored: dict[str, list[Pair]] = {}
        for posted in page:
            copy = copies[posted.post_id]
            if copy.gone:
                continue
            if not copy.stored:
                unstored.setdefault(copy.write_token, []).append(
                    (posted, copy, wanted[posted.post_id])
                )
            elif copy.digest != wanted[posted.post_id].digest:
                updated += _update(uow=uow, to=to, copy=copy, held=wanted[posted.post_id])
        for group in unstored.values():
            for start in range(0, len(group), PAIRS):
                count, collection_gone = _create(uow=uow, to=to, pairs=group[start : start + PAIRS])
                created += count
                if collection_gone:
                    return _collection_gone(uow=uow, link=to.link), Wrote(created, updated)
        after = page[-1].post_id
        if len(page) < PAGE:
            break
    return to.link, Wrote(created=created, updated=updated)


def _collection_gone(*, uow: UnitOfWork[Needs], link: ZoteroLink) -> ZoteroLink:
    """Forget the channel's collection, deleted in Zotero: the next pass makes it again."""
    log.warning("zotero %s: the channel's collection is gone; it is made again", link.channel)
    with uow() as store:
        link = replace(current(store=store, link=link), destination=None)
        store.save_zotero_link(link=link)
    return link
