"""The /paperclub command: the table of its subcommands (table.py), the router every platform
calls (router.py), the context a subcommand runs in (bot/services/invocation.py) and the
search and queue answers (answers.py). Callers use the names below."""

from bot.services.commands.answers import more_results, queue_reply, search_reply
from bot.services.commands.entry import Argument, Subcommand
from bot.services.commands.router import handle, split
from bot.services.commands.table import TABLE
from bot.services.invocation import Invocation

__all__ = [
    "TABLE",
    "Argument",
    "Invocation",
    "Subcommand",
    "handle",
    "more_results",
    "queue_reply",
    "search_reply",
    "split",
]
