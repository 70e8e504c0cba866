"""/paperclub watch: what a channel watches for new papers. Anyone lists; admins add and
remove (the same command answers both, so it checks the admin itself). `watch zotero ...` is
the channel's Zotero link (bot/services/zotero_commands.py): Discord's /paperclub group is
full, and `watch`'s option is free text."""

from __future__ import annotations

from bot.messages import message
from bot.services import admin, zotero_commands
from bot.services.invocation import Invocation
from bot.services.reply import Reply
from bot.sources.watch_text import WatchTextError, read_watch
from bot.wording import sources as words
from bot.wording import zotero as zotero_words


def command(*, call: Invocation, args: list[str]) -> Reply:
    """`watch`, `watch list`, `watch add <what>`, `watch remove <number>`, `watch zotero ...`."""
    verb = args[0].lower() if args else "list"
    if verb == "zotero":
        return zotero_commands.command(call=call, args=args[1:])
    if verb == "list":
        with call.uow(write=False) as store:
            said = words.listed(watches=store.watches(channel=call.channel))
            link = store.zotero_link(channel=call.channel)
        if link is not None:
            said = message(*said.blocks, *zotero_words.in_watch_list(link=link).blocks)
        return Reply(message=said)
    if verb not in ("add", "remove"):
        return Reply(message=words.USAGE)
    if not admin.is_admin(channel=call.channel, user=call.user, admins=call.admins, chat=call.chat):
        return Reply(message=words.ADMINS_ONLY)
    if verb == "remove":
        number = args[1] if len(args) == 2 else ""
        if not number.isdigit() or len(number) > 12:
            return Reply(message=words.USAGE)
        with call.uow() as store:
            gone = store.remove_watch(channel=call.channel, watch_id=int(number), now=call.now)
        return Reply(message=words.removed(watch=gone) if gone else words.no_such(number=number))
    try:
        spec = read_watch(text=" ".join(args[1:]))
    except WatchTextError as why:
        return Reply(message=words.bad_watch(why=str(why)))
    with call.uow() as store:
        before = {w.id for w in store.watches(channel=call.channel)}
        added = store.add_watch(channel=call.channel, spec=spec, user=call.user, now=call.now)
        watch = next(w for w in store.watches(channel=call.channel) if w.id == added)
    return Reply(message=words.added(watch=watch, new=added not in before))
