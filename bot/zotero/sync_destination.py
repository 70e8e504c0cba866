"""A link's destination: each posted paper of the channel as an item with a child note holding
its discussion, in the channel's collection, written once and rewritten only when it changed.

Never twice: a post without a copy gets its item's and note's keys and a write token planned
and committed before anything is sent (PAIRS posts share one token, as one request writes
them); a replay after a lost answer or a crash sends the same keys and token, and the client
finds what was stored instead of storing it again. Two replicas planning the same post keep one
plan (the store keeps the first). Copies found by a look-up hold what the earlier request
sent, so they are rewritten by the next pass. An item someone deleted in Zotero is marked gone
when a rewrite finds it missing, and never made again (sync_rewrite.py); the collection
(sync_collection.py) is planned and made the same way as the copies.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.ports import UnitOfWork
from bot.ports.zotero import PostedPaper, ZoteroCopy, ZoteroLink
from bot.zotero.client import WRITE_MAX, ZoteroClient
from bot.zotero.records import new_object_key, new_write_token
from bot.zotero.sync_collection import Needs, Target, made, target
from bot.zotero.sync_copies import Contents, contents, new_objects
from bot.zotero.sync_link import going
from bot.zotero.sync_rewrite import rewrite

log = logging.getLogger("paperclub")

PAGE = 100  # posts read from the archive at a time
PAIRS = WRITE_MAX // 2  # posts (an item and its note each) in one create request
_TAKEN = 412  # a create's object code when its token was used and it was not stored

Pair = tuple[PostedPaper, ZoteroCopy, Contents]  # a post, its planned copy, what it should hold


@dataclass(frozen=True, slots=True)
class Wrote:
    """What a destination pass wrote: items created, copies rewritten (tags or note)."""

    created: int = 0
    updated: int = 0


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
    item_version: int
    note_version: int
    found: bool  # found stored by a look-up: Zotero holds an earlier request's contents
    item_failed: tuple[int, str] | None
    note_failed: tuple[int, str] | None


def _send(*, to: Target, pairs: Sequence[Pair], token: str | None) -> list[_Outcome]:
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
            item_version=created.versions.get(2 * i, created.version),
            note_version=created.versions.get(2 * i + 1, created.version),
            found=bool({2 * i, 2 * i + 1} & created.found),
            item_failed=created.failed.get(2 * i),
            note_failed=created.failed.get(2 * i + 1),
        )
        for i in range(len(pairs))
    ]


def _taken(*, outcome: _Outcome) -> bool:
    """Refused under a token used before, and not found stored."""
    return any(f is not None and f[0] == _TAKEN for f in (outcome.item_failed, outcome.note_failed))


def _create(*, uow: UnitOfWork[Needs], to: Target, pairs: Sequence[Pair]) -> tuple[set[int], bool]:
    """Create planned copies that share a token; the posts stored, and whether the channel's
    collection was found gone (an item refused with 409: its collection is missing)."""
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
            # Found by a look-up: what Zotero holds is the earlier request's (votes or comments
            # may have come since), so no digest: the next pass rewrites both.
            stored.append(
                replace(
                    copy,
                    stored=True,
                    item_version=outcome.item_version,
                    note_version=outcome.note_version,
                    digest="" if outcome.found else held.digest,
                )
            )
            continue
        collection_gone |= outcome.item_failed is not None and outcome.item_failed[0] == 409
        why = [f"{f[0]} {f[1][:200]}" for f in (outcome.item_failed, outcome.note_failed) if f]
        log.warning("zotero %s: post %d not written: %s", to.link.channel, posted.post_id, why)
    with uow() as store:
        store.save_zotero_copies(channel=to.link.channel, library=to.link.library, copies=stored)
    return {copy.post_id for copy in stored}, collection_gone


def _create_all(*, uow: UnitOfWork[Needs], to: Target, pairs: Sequence[Pair]) -> tuple[Target, int]:
    """Create planned copies that share a token, once more in a new collection when theirs
    was found gone (deleted in Zotero, or planned by a pass that died before making it): the
    target then, and how many were stored. Before each request the link is asked for: a pause
    or a disconnect stops the pass."""
    created = 0
    for attempt in range(2):
        with uow(write=False) as store:
            going(store=store, link=to.link)
        done, collection_gone = _create(uow=uow, to=to, pairs=pairs)
        created += len(done)
        pairs = [pair for pair in pairs if pair[0].post_id not in done]
        if not collection_gone or attempt:
            break
        log.warning("zotero %s: the channel's collection is gone: another", to.link.channel)
        key = made(uow=uow, client=to.client, link=to.link, label=to.label, gone=to.collection)
        to = replace(to, collection=key)
    return to, created


def write_destination(
    *, uow: UnitOfWork[Needs], client: ZoteroClient, link: ZoteroLink
) -> tuple[ZoteroLink, Wrote]:
    """Write the channel's posted papers that have no copy yet, and rewrite the copies whose
    votes or comments changed: the link as saved, and what was written."""
    to = target(uow=uow, client=client, link=link)
    created = updated = 0
    after = 0
    while True:
        with uow(write=False) as store:
            going(store=store, link=link)  # a pause or a disconnect stops a long pass
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
                updated += rewrite(uow=uow, to=to, copy=copy, held=wanted[posted.post_id])
        for group in unstored.values():
            for start in range(0, len(group), PAIRS):
                to, count = _create_all(uow=uow, to=to, pairs=group[start : start + PAIRS])
                created += count
        after = page[-1].post_id
        if len(page) < PAGE:
            break
    return to.link, Wrote(created=created, updated=updated)
