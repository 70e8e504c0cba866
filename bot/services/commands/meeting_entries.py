"""The meetings' /paperclub subcommands (issue 33): the meeting, its sessions, RSVPs and the
poll that chooses each session's paper. Spliced into the table (table.py) before help."""

from __future__ import annotations

from bot.services import meeting_commands, poll_commands, presenter_commands
from bot.services.commands.entry import Argument, Subcommand
from bot.wording import meetings as words
from bot.wording import polls as poll_words
from bot.wording import presenters as presenter_words
from bot.wording import ratings as rating_words

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
        arguments=(Argument(name="what", about=rating_words.SESSIONS_WHAT),),
    ),
    Subcommand(
        name="rsvp",
        about=words.RSVP_ABOUT,
        help_line=words.RSVP_HELP,
        handler=meeting_commands.rsvp,
        arguments=(Argument(name="answer", about=words.RSVP_WHAT, required=True),),
    ),
    Subcommand(
        name="presenters",
        about=presenter_words.PRESENTERS_ABOUT,
        help_line=presenter_words.PRESENTERS_HELP,
        handler=presenter_commands.presenters,
        arguments=(Argument(name="what", about=presenter_words.PRESENTERS_WHAT),),
    ),
    Subcommand(
        name="present",
        about=presenter_words.PRESENT_ABOUT,
        help_line=None,
        handler=presenter_commands.present,
        arguments=(Argument(name="date", about=presenter_words.PRESENT_WHAT),),
    ),
    Subcommand(
        name="swap",
        about=presenter_words.SWAP_ABOUT,
        help_line=None,
        handler=presenter_commands.swap,
        arguments=(Argument(name="date", about=presenter_words.SWAP_WHAT, required=True),),
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
        handler=poll_commands.poll,
        arguments=(Argument(name="vote", about=poll_words.VOTE_WHAT),),
    ),
)
