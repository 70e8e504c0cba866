"""What one /paperclub subcommand is: its entry in the table (bot/services/commands/table.py),
its arguments and its handler; and the help assembled from a table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.messages import Run
from bot.services.invocation import Invocation
from bot.services.reply import Reply
from bot.wording import commands as words


@dataclass(frozen=True, slots=True)
class Argument:
    """One option of a subcommand. Slack and the console take whatever follows the subcommand
    as one line; Discord asks for each option in a field of its own, in this order, and offers
    only `choices` when there are some."""

    name: str
    about: str
    required: bool = False
    choices: tuple[str, ...] = ()


class Handler(Protocol):
    """What a subcommand runs, given the words after its name as they were typed."""

    def __call__(self, *, call: Invocation, args: list[str]) -> Reply:
        """The answer for the person who asked."""
        ...


@dataclass(frozen=True, slots=True)
class Subcommand:
    """One /paperclub subcommand. `about` is its short description (Discord's); `help_line`
    its line in /paperclub help, None when another entry's line tells it too (resume is told
    on pause's); `admin` when only admins may run it."""

    name: str
    about: str
    help_line: tuple[Run, ...] | None
    handler: Handler
    admin: bool = False
    arguments: tuple[Argument, ...] = ()


def find(*, table: Sequence[Subcommand], name: str) -> Subcommand | None:
    """The entry called `name` (already lower-cased), None for any other word."""
    return next((entry for entry in table if entry.name == name), None)


def help_reply(*, table: Sequence[Subcommand]) -> Reply:
    """/paperclub help: anyone's subcommands, then the admins', in the table's order."""
    return Reply(
        message=words.help_message(
            anyone=[entry.help_line for entry in table if entry.help_line and not entry.admin],
            admins=[entry.help_line for entry in table if entry.help_line and entry.admin],
        )
    )
