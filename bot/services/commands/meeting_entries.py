"""The meetings' /paperclub subcommands (issue 33): the meeting, its sessions, RSVPs and the
poll that chooses each session's paper. Spliced into the table (table.py) before help."""

from __future__ import annotations

from bot.services import meeting_commands, poll_commands
from bot.services.commands.entry import Argument, Subcommand
from bot.wording import meetings as words
from bot.wording import polls as poll_words

MEETING_ENTRIES = (
    Subcommand(
        name="meeting",
        about=words.MEETING_ABOUT,
        help_line=words.MEETING_HELP,
        handler=meeting_commands.meeting,
        arguments=(Argument(name="what", about=words.MEETING_WHAT),),
    ),
    Subcommand(
        name="sessions",
        about=words.SESSIONS_ABOUT,
        help_line=words.SESSIONS_HELP,
        handler=meeting_commands.sessions,
    ),
    Subcommand(
        name="rsvp",
        about=words.RSVP_ABOUT,
        help_line=words.RSVP_HELP,
        handler=meeting_commands.rsvp,
        arguments=(Argument(name="answer", about=words.RSVP_WHAT, required=True),),
    ),
    Subcommand(
        name="nominate",
        about=poll_words.NOMINATE_ABOUT,
        help_line=poll_words.NOMINATE_HELP,
        handler=poll_commands.nominate,
        arguments=(Argument(name="paper", about=poll_words.NOMINATE_WHAT, required=True),),
    ),
    Subcommand(
        name="poll",
        about=poll_words.POLL_ABOUT,
        help_line=poll_words.VOTE_HELP,
        handler=poll_commands.show,
    ),
    Subcommand(
        name="vote",
        about=poll_words.VOTE_ABOUT,
        help_line=None,
        handler=poll_commands.vote,
        arguments=(Argument(name="numbers", about=poll_words.VOTE_WHAT, required=True),),
    ),
)
