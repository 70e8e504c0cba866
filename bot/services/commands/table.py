"""The /paperclub subcommands, one entry each: the router, the admin check, the help and
Discord's command group are all read from TABLE.

Adding a subcommand is one entry here, its handler (a service function, wrapped below when its
arguments need reading) and its words in bot/wording/commands.py. The README's command list,
Discord's registered group and the Slack manifests are checked against this table
(tests/test_command_table.py).
"""

from __future__ import annotations

from bot.domain import PickOrder
from bot.ports.readback import ReadBack
from bot.services import (
    adding,
    admin,
    recap,
    reconcile_admin,
    related,
    taste,
    top,
    tray_commands,
    watches,
    web_links,
)
from bot.services.commands.answers import queue_reply, search_words, timezone
from bot.services.commands.entry import Argument, Subcommand, help_reply
from bot.services.commands.meeting_entries import MEETING_ENTRIES
from bot.services.invocation import Invocation
from bot.services.reply import Reply
from bot.wording import commands as words
from bot.wording import reconcile as reconcile_words
from bot.wording import sources as sources_words
from bot.wording import suggestions as suggestions_words


def _search(*, call: Invocation, args: list[str]) -> Reply:
    return search_words(call=call, query=" ".join(args))


def _add(*, call: Invocation, args: list[str]) -> Reply:
    return adding.add(
        uow=call.uow,
        lookup=call.lookup,
        text=" ".join(args),
        channel=call.channel,
        user=call.user,
        now=call.now,
        semantic_extra=call.semantic_extra,
    )


def _queue(*, call: Invocation, args: list[str]) -> Reply:
    return queue_reply(call=call)


def _related(*, call: Invocation, args: list[str]) -> Reply:
    return related.ask(
        uow=call.uow,
        text=" ".join(args),
        viewer=call.channel,
        semantic_extra=call.semantic_extra,
    )


def _top(*, call: Invocation, args: list[str]) -> Reply:
    period = args[0].lower() if args else "month"
    return top.top(
        uow=call.uow, channel=call.channel, period=period, now=call.now, tz=timezone(call=call)
    )


def _web(*, call: Invocation, args: list[str]) -> Reply:
    return web_links.reply(channel=call.channel, now=call.now, signer=call.signer)


def _help(*, call: Invocation, args: list[str]) -> Reply:
    return help_reply(table=TABLE)


def _schedule(*, call: Invocation, args: list[str]) -> Reply:
    return admin.schedule(
        uow=call.uow,
        chat=call.chat,
        channel=call.channel,
        args=args,
        defaults=call.defaults,
        now=call.now,
    )


def _pause(*, call: Invocation, args: list[str]) -> Reply:
    return admin.set_paused(uow=call.uow, channel=call.channel, paused=True, now=call.now)


def _resume(*, call: Invocation, args: list[str]) -> Reply:
    return admin.set_paused(uow=call.uow, channel=call.channel, paused=False, now=call.now)


def _skip(*, call: Invocation, args: list[str]) -> Reply:
    return admin.skip(uow=call.uow, channel=call.channel, now=call.now)


def _next(*, call: Invocation, args: list[str]) -> Reply:
    return admin.post_next(poster=call.poster, channel=call.channel, now=call.now)


def _recap(*, call: Invocation, args: list[str]) -> Reply:
    return recap.configure(poster=call.poster, channel=call.channel, args=args)


def _order(*, call: Invocation, args: list[str]) -> Reply:
    return taste.set_order(
        uow=call.uow, channel=call.channel, args=args, semantic_extra=call.semantic_extra
    )


def _reconcile(*, call: Invocation, args: list[str]) -> Reply:
    if not isinstance(call.chat, ReadBack):  # the console hears all it is told, as it is told
        return Reply(message=reconcile_words.NOTHING_MISSED)
    return reconcile_admin.ask(uow=call.uow, channel=call.channel, args=args, now=call.now)


# Anyone's subcommands first, then the admins', each in the order the help lists them.
TABLE: tuple[Subcommand, ...] = (
    Subcommand(
        name="search",
        about=words.SEARCH_ABOUT,
        help_line=words.SEARCH_HELP,
        handler=_search,
        arguments=(Argument(name="query", about=words.SEARCH_QUERY, required=True),),
    ),
    Subcommand(
        name="add",
        about=words.ADD_ABOUT,
        help_line=words.ADD_HELP,
        handler=_add,
        arguments=(Argument(name="paper", about=words.ADD_PAPER, required=True),),
    ),
    Subcommand(name="queue", about=words.QUEUE_ABOUT, help_line=words.QUEUE_HELP, handler=_queue),
    Subcommand(
        name="related",
        about=words.RELATED_ABOUT,
        help_line=words.RELATED_HELP,
        handler=_related,
        arguments=(Argument(name="paper", about=words.RELATED_PAPER, required=True),),
    ),
    Subcommand(
        name="top",
        about=words.TOP_ABOUT,
        help_line=words.TOP_HELP,
        handler=_top,
        arguments=(Argument(name="period", about=words.TOP_PERIOD, choices=tuple(top.PERIODS)),),
    ),
    Subcommand(name="web", about=words.WEB_ABOUT, help_line=words.WEB_HELP, handler=_web),
    Subcommand(
        name="suggestions",
        about=suggestions_words.ABOUT,
        help_line=suggestions_words.HELP,
        handler=tray_commands.command,
        arguments=(Argument(name="what", about=suggestions_words.WHAT),),
    ),
    Subcommand(
        name="watch",
        about=sources_words.ABOUT,
        help_line=sources_words.HELP,
        handler=watches.command,
        arguments=(Argument(name="what", about=sources_words.WHAT),),
    ),
    *MEETING_ENTRIES,
    Subcommand(name="help", about=words.HELP_ABOUT, help_line=words.HELP_HELP, handler=_help),
    Subcommand(
        name="schedule",
        about=words.SCHEDULE_ABOUT,
        help_line=words.SCHEDULE_HELP,
        handler=_schedule,
        admin=True,
        arguments=(Argument(name="when", about=words.SCHEDULE_WHEN),),
    ),
    Subcommand(
        name="pause",
        about=words.PAUSE_ABOUT,
        help_line=words.PAUSE_RESUME_HELP,
        handler=_pause,
        admin=True,
    ),
    Subcommand(
        name="resume", about=words.RESUME_ABOUT, help_line=None, handler=_resume, admin=True
    ),
    Subcommand(
        name="skip", about=words.SKIP_ABOUT, help_line=words.SKIP_HELP, handler=_skip, admin=True
    ),
    Subcommand(
        name="next", about=words.NEXT_ABOUT, help_line=words.NEXT_HELP, handler=_next, admin=True
    ),
    Subcommand(
        name="recap",
        about=words.RECAP_ABOUT,
        help_line=words.RECAP_HELP,
        handler=_recap,
        admin=True,
        arguments=(Argument(name="when", about=words.RECAP_WHEN),),
    ),
    Subcommand(
        name="order",
        about=words.ORDER_ABOUT,
        help_line=words.ORDER_HELP,
        handler=_order,
        admin=True,
        arguments=(
            Argument(
                name="how",
                about=words.ORDER_HOW,
                required=True,
                choices=tuple(order.value for order in PickOrder),
            ),
        ),
    ),
    Subcommand(
        name="reconcile",
        about=reconcile_words.ABOUT,
        help_line=reconcile_words.HELP,
        handler=_reconcile,
        admin=True,
        arguments=(Argument(name="days", about=reconcile_words.DAYS),),
    ),
)
