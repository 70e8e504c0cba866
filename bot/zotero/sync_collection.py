"""A link's destination collection: planned like a copy, its key chosen and committed on the
link first (the store keeps the first plan, so two syncs at once agree on one key), then made
under that key. Never looked up by name: two channels named alike (Slack's #general and
Discord's) linked to one library each get their own. A collection deleted in Zotero is
replaced by a new key, planned and made the same way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.ports import NamesStore, UnitOfWork
from bot.ports.names import CHANNEL, PERSON
from bot.ports.zotero import ZoteroLink, ZoteroStore
from bot.zotero.client import ZoteroClient
from bot.zotero.errors import WriteFailed
from bot.zotero.records import new_object_key
from bot.zotero.sync_copies import channel_label, collection_title
from bot.zotero.sync_link import LinkChanged, going

PLANS = 3  # keys tried in one pass before giving up (each made, then found deleted)


class Needs(ZoteroStore, NamesStore, Protocol):
    """The roles a destination write uses."""


@dataclass(frozen=True, slots=True)
class Target:
    """Where the copies go, and what the channel and its people are called there."""

    client: ZoteroClient
    link: ZoteroLink
    collection: str
    label: str
    people: dict[str, str]


def made(
    *, uow: UnitOfWork[Needs], client: ZoteroClient, link: ZoteroLink, label: str, gone: str | None
) -> str:
    """The link's collection after planning one in place of `gone` (None: it has none yet):
    the key kept (ours, or another sync's planned first), made in Zotero under it. A key
    found missing, and still the link's, is made again first: another sync may be making it
    still, or have died after planning it. One made and deleted since gives way to a new key
    while Zotero remembers its write token (12 hours); later the old key is made anew, which
    a person sees the same way (the channel's collection is back)."""
    name = collection_title(label=label)
    if gone is not None:
        with uow(write=False) as store:
            kept = going(store=store, link=link).destination  # paused meanwhile: nothing made
        if kept != gone:  # another sync replaced it already: its key is the one to use
            return (
                made(uow=uow, client=client, link=link, label=label, gone=None)
                if kept is None
                else kept
            )
        if client.make_collection(key=gone, name=name):
            return gone
    replacing = gone
    for _ in range(PLANS):
        with uow() as store:
            key = store.plan_zotero_destination(
                link=link, replacing=replacing, key=new_object_key()
            )
            if key is None:
                raise LinkChanged(str(link.channel))
            going(store=store, link=link)  # paused meanwhile: nothing made
        if client.make_collection(key=key, name=name):
            return key
        replacing = key  # made once and deleted since: another key
    raise WriteFailed("the channel's collection could not be made", status=404)


def target(*, uow: UnitOfWork[Needs], client: ZoteroClient, link: ZoteroLink) -> Target:
    """The channel's names, and its collection (planned and made when the link has none)."""
    workspace = link.channel.workspace_key
    with uow(write=False) as store:
        channels = store.names_in(workspace=workspace, kind=CHANNEL)
        people = store.names_in(workspace=workspace, kind=PERSON)
    label = channel_label(names=channels, channel_id=link.channel.channel)
    collection = link.destination
    if collection is None:
        collection = made(uow=uow, client=client, link=link, label=label, gone=None)
    return Target(client=client, link=link, collection=collection, label=label, people=people)
