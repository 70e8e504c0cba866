"""The /paperclub command: one router for every platform, reading the command table."""

from __future__ import annotations

from bot.services import admin
from bot.services.commands.answers import search_words
from bot.services.commands.entry import find
from bot.services.commands.table import TABLE
from bot.services.invocation import Invocation
from bot.services.reply import Reply


def split(*, text: str) -> tuple[str, list[str]]:
    """The subcommand (lower-cased) and its arguments."""
    words = text.split()
    return (words[0].lower(), words[1:]) if words else ("help", [])


def handle(*, call: Invocation, text: str) -> Reply:
    """Answer one /paperclub command; unknown input is a search, never an error."""
    name, args = split(text=text)
    entry = find(table=TABLE, name=name)
    if entry is None:
        # Anything else is a search: `/paperclub tensor parallel` searches for those words.
        return search_words(call=call, query=text.strip())
    if entry.admin and not admin.is_admin(
        channel=call.channel, user=call.user, admins=call.admins, chat=call.chat
    ):
        return admin.refusal(command=name)
    return entry.handler(call=call, args=args)
