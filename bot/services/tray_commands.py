"""/paperclub suggestions: the day's tray, deciding a suggestion by its number, and the
admins' settings (how many a day, whether the top one fills a queue that runs empty)."""

from __future__ import annotations

from dataclasses import replace

from bot.services import admin, suggestions, trays
from bot.services.invocation import Invocation
from bot.services.reply import Reply
from bot.services.schedule import local_now
from bot.wording import suggestions as words

SWITCH = {"on": True, "off": False}


def _show(*, call: Invocation) -> Reply:
    """Today's tray as it stands, or what is waiting for the next one."""
    schedule = trays.schedule_of(uow=call.uow, channel=call.channel, defaults=call.defaults)
    today = local_now(schedule=schedule, now=call.now).date()
    with call.uow(write=False) as store:
        tray = store.tray_on(channel=call.channel, day=today)
        shown = (
            suggestions.tray_message(store=store, channel=call.channel, ids=tray.suggestion_ids)
            if tray is not None
            else None
        )
        waiting = store.suggestions(
            channel=call.channel, states=("waiting",), limit=suggestions.CONSIDERED
        )
        watching = bool(store.watches(channel=call.channel))
    if shown is not None:
        return Reply(message=shown)
    if not watching and not waiting:
        return Reply(message=words.NONE_YET)
    return Reply(message=words.no_tray_yet(waiting=len(waiting)))


def _settings(*, call: Invocation, verb: str, rest: list[str]) -> Reply:
    """`size N` or `autofill on|off`, for admins."""
    if not admin.is_admin(channel=call.channel, user=call.user, admins=call.admins, chat=call.chat):
        return Reply(message=words.ADMINS_ONLY)
    with call.uow() as store:
        current = store.tray_settings(channel=call.channel)
        if verb == "size" and len(rest) == 1 and rest[0].isdigit() and len(rest[0]) < 3:
            per_day = int(rest[0])
            if per_day > suggestions.MAX_PER_DAY:
                return Reply(message=words.USAGE)
            changed = replace(current, per_day=per_day)
        elif verb == "autofill" and len(rest) == 1 and rest[0].lower() in SWITCH:
            turning_on = SWITCH[rest[0].lower()]
            if turning_on and store.channel(key=call.channel) is None:
                return Reply(message=words.NO_QUEUE_TO_FILL)  # it would never fill anything
            changed = replace(current, autofill=turning_on)
        else:
            return Reply(message=words.USAGE)
        store.save_tray_settings(channel=call.channel, settings=changed)
    return Reply(message=words.settings(settings=changed))


def command(*, call: Invocation, args: list[str]) -> Reply:
    """`suggestions`, `suggestions add|hide <number>`, `suggestions size <n>`,
    `suggestions autofill on|off`."""
    if not args:
        return _show(call=call)
    verb, rest = args[0].lower(), args[1:]
    if verb in ("add", "hide"):
        if len(rest) != 1:
            return Reply(message=words.USAGE)
        answer = suggestions.decide(
            uow=call.uow,
            channel=call.channel,
            number=rest[0],
            how="promoted" if verb == "add" else "hidden",
            user=call.user,
            now=call.now,
            semantic_extra=call.semantic_extra,
        )
        return answer.reply
    if verb in ("size", "autofill"):
        return _settings(call=call, verb=verb, rest=rest)
    return Reply(message=words.USAGE)
