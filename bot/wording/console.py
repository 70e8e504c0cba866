"""The console's own words: the banner, hints, and what it says when it starts and leaves."""

from __future__ import annotations

from bot.messages import Code, Message, Strong, line, message

HINT = "Type /paperclub help, +1 or -1 to vote, or anything else to comment. Ctrl-D leaves."
NO_PAPER_YET = message(
    line("There is no paper today yet. ", Code("/paperclub next"), " posts one now.")
)
COMMENT_SAVED = message("💬 Saved your comment in today's thread.")
ALREADY_POSTED = "Today's paper (already posted):"


def banner(*, channel: str) -> Message:
    """The first line on the terminal."""
    return message(line(Strong("Paper Club"), f" on the console (#{channel}). {HINT}"))


def only_paperclub(*, typed: str) -> Message:
    """A slash command that is not ours."""
    return message(line("Only ", Code("/paperclub"), " works here, not ", Code(typed), f". {HINT}"))


def seeded(*, added: int, name: str) -> Message:
    """The sample list went into an empty archive."""
    return message(
        line(
            f"The archive was empty, so I imported the sample reading list: {added} papers "
            "from ", Code(name), ".",
        )
    )  # fmt: skip


def goodbye(*, where: str) -> Message:
    """The last line."""
    return message(line(f"Bye. Everything is saved in {where}; ", Code("paperclub export"),
                        " shows it."))  # fmt: skip
