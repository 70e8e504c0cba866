"""/paperclub watch zotero: a channel's link to a Zotero library (issue 35). Anyone sees its
state; admins connect, test, pause, resume and disconnect.

The API key is checked with Zotero before it is kept (it must read and write the library:
every link writes the channel's papers), kept only sealed, and never put in a reply or a log.
The checks talk to Zotero outside any unit of work, so the archive is never held while the
network answers.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.ports.zotero import ZoteroLink
from bot.ports.zotero_desk import DeskRefused, KeyChecked, LibraryWanted, ZoteroDesk
from bot.services import admin
from bot.services.invocation import Invocation
from bot.services.reply import Reply
from bot.services.zotero_text import ConnectText, ConnectTextError, read_connect
from bot.wording import zotero as words

log = logging.getLogger("paperclub")

ADMIN_VERBS = ("connect", "test", "pause", "resume", "disconnect")


def command(*, call: Invocation, args: list[str]) -> Reply:
    """`watch zotero [status]`, and the admins' `connect ...`, `test`, `pause`, `resume`,
    `disconnect`."""
    verb = args[0].lower() if args else "status"
    if verb == "status" and len(args) <= 1:
        with call.uow(write=False) as store:
            link = store.zotero_link(channel=call.channel)
        return Reply(message=words.status(link=link, ready=call.zotero is not None))
    if verb not in ADMIN_VERBS or (verb != "connect" and len(args) > 1):
        return Reply(message=words.USAGE)
    if not admin.is_admin(channel=call.channel, user=call.user, admins=call.admins, chat=call.chat):
        return Reply(message=words.ADMINS_ONLY)
    if verb in ("pause", "resume"):
        return _pause(call=call, paused=verb == "pause")
    if verb == "disconnect":
        return _disconnect(call=call)
    if call.zotero is None:
        return Reply(message=words.NO_SECRET)
    if verb == "test":
        return _test(call=call, desk=call.zotero)
    return _connect(call=call, desk=call.zotero, args=args[1:])


def _linked(
    *,
    before: ZoteroLink | None,
    checked: KeyChecked,
    sealed: str,
    typed: ConnectText,
    call: Invocation,
) -> ZoteroLink:
    """The link a connect keeps. The same library again keeps its collection and, for the same
    source collection, how far it was read (its copies are kept by the store either way);
    everything about failing starts afresh, and the link runs."""
    fresh = ZoteroLink(
        channel=call.channel,
        library_kind=checked.library_kind,
        library_id=checked.library_id,
        sealed_key=sealed,
        connected_by=call.user,
        connected_at=call.now,
        source=checked.source,
        source_name=checked.source_name,
        into=typed.into,
    )
    if before is None or before.library != fresh.library:
        return fresh
    same_source = before.source is not None and before.source == fresh.source
    return replace(
        fresh,
        destination=before.destination,
        source_version=before.source_version if same_source else 0,
        synced_at=before.synced_at,
    )


def _connect(*, call: Invocation, desk: ZoteroDesk, args: list[str]) -> Reply:
    """Read the command, check the key with Zotero, keep it sealed."""
    try:
        typed = read_connect(words=args)
    except ConnectTextError as why:
        return Reply(message=words.bad_connect(why=str(why)))
    try:
        checked = desk.check(
            api_key=typed.api_key, library=typed.library, collection=typed.collection
        )
    except DeskRefused as refused:
        log.info("zotero connect refused in %s: %s", call.channel, refused)
        return Reply(message=words.refused(problem=refused.problem, collection=typed.collection))
    sealed = desk.seal(api_key=typed.api_key)
    with call.uow() as store:
        # The link as stored now, a sync's write in flight waited for: its collection, cursor
        # and last sync are kept as the sync left them.
        store.lock_zotero_link(channel=call.channel)
        before = store.zotero_link(channel=call.channel)
        link = _linked(before=before, checked=checked, sealed=sealed, typed=typed, call=call)
        store.save_zotero_link(link=link)
    log.info("zotero connected in %s: %s (source %s)", call.channel, link.library, link.source)
    again = before is not None and before.library == link.library
    return Reply(message=words.connected(link=link, again=again), sync=True)


def _test(*, call: Invocation, desk: ZoteroDesk) -> Reply:
    """Check the kept key again; a key that works clears the link's failing state."""
    with call.uow(write=False) as store:
        link = store.zotero_link(channel=call.channel)
    if link is None:
        return Reply(message=words.NOT_CONNECTED)
    wanted = LibraryWanted(kind=link.library_kind, id=link.library_id)
    try:
        checked = desk.check(
            api_key=desk.open(sealed_key=link.sealed_key), library=wanted, collection=link.source
        )
    except DeskRefused as refused:
        log.info("zotero test failed in %s: %s", call.channel, refused)
        return Reply(message=words.refused(problem=refused.problem, collection=link.source_name))
    failing = link.failures > 0 or link.failing_since is not None or link.retry_at is not None
    with call.uow() as store:  # only the failing columns: what the sync wrote since stays
        store.clear_zotero_failing(
            channel=call.channel,
            sealed_key=link.sealed_key,  # not reconnected meanwhile
            source_name=checked.source_name or link.source_name,
        )
    return Reply(message=words.tested(link=link, cleared=failing), sync=True)


def _pause(*, call: Invocation, paused: bool) -> Reply:
    """Flip the link's `paused` (the sync skips a paused link)."""
    with call.uow() as store:
        link = store.zotero_link(channel=call.channel)
        if link is None:
            return Reply(message=words.NOT_CONNECTED)
        already = link.paused == paused
        if not already:  # `paused` alone: what the sync writes meanwhile stays
            store.pause_zotero_link(channel=call.channel, paused=paused)
    said = words.paused if paused else words.resumed
    return Reply(message=said(link=link, already=already), sync=not paused)


def _disconnect(*, call: Invocation) -> Reply:
    """Forget the link and its key (what was written to Zotero stays, and so do the copies)."""
    with call.uow() as store:
        link = store.zotero_link(channel=call.channel)
        if link is None:
            return Reply(message=words.NOT_CONNECTED)
        store.remove_zotero_link(channel=call.channel)
    log.info("zotero disconnected in %s: %s", call.channel, link.library)
    return Reply(message=words.disconnected(library=link.library))
