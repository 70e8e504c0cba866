"""The console's own words: the banner, hints, and what it says when it starts and leaves."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages import Button, Code, Message, Paragraph, Strong, line, message
from bot.wording.archive import SEARCH_MORE, SEARCH_SPELLED, read_more_value
from bot.wording.meetings import RSVP_ACTIONS
from bot.wording.polls import CLEAR, NOMINATE, RESULTS, VOTE
from bot.wording.presenters import ACCEPT, DECLINE
from bot.wording.ratings import RATE_WORDS
from bot.wording.suggestions import ADD, HIDE

HINT = "Type /paperclub help, +1 or -1 to vote, or anything else to comment. Ctrl-D leaves."
NO_PAPER_YET = message(
    line("There is no paper today yet. ", Code("/paperclub next"), " posts one now.")
)
COMMENT_SAVED = message("💬 Saved your comment in today's thread.")
CONTROL_ONLY = message(
    "Nothing saved: that line held only control keys (an arrow or a function key, say)."
)
ALREADY_POSTED = "Today's paper (already posted):"
# Above a direct message: the terminal's one person reads it where everything else shows.
DIRECT_FOR_YOU = "✉️ A direct message for you:"
NOTHING_MORE = message("There is nothing more to show; search again for more results.")

# A terminal has no buttons: each button's action is a word to type instead.
TYPED_ACTIONS = {SEARCH_MORE: "more"}
# ... or, where one message holds several buttons of an action (a tray: one pair a
# suggestion), the command that does the same with the button's value: (command, what for).
TYPED_COMMANDS = {
    ADD: ("/paperclub suggestions add", "to add it to the queue"),
    HIDE: ("/paperclub suggestions hide", "if it is not for us"),
    ACCEPT: ("/paperclub swap accept", "to accept the swap"),
    DECLINE: ("/paperclub swap decline", "to decline it"),
}
# ... or a command with no value: a reminder's RSVPs answer for the next session.
TYPED_ANSWERS = {
    action: f"/paperclub rsvp {answer.value}" for action, answer in RSVP_ACTIONS.items()
}
TYPED_ANSWERS |= {CLEAR: "/paperclub poll clear", RESULTS: "/paperclub poll"}
# ... and the rating after a session rates the last one.
TYPED_ANSWERS |= {action: f"/paperclub sessions rate {word}" for action, word in RATE_WORDS.items()}
TYPED_ANSWERS[NOMINATE] = "/paperclub nominate <paper>"


def typed_buttons(*, buttons: Sequence[Button]) -> list[Paragraph]:
    """The lines that stand for a row of buttons: a poll's papers in one line (by their
    numbers), each other button in a line of its own."""
    papers = [b.label for b in buttons if b.action == VOTE]
    lines = [typed_button(button=b) for b in buttons if b.action != VOTE]
    if papers:
        example = " ".join(papers[:2])
        said = line(
            "Type ",
            Code(f"/paperclub poll {example}"),
            " with the papers' numbers to vote.",
            quiet=True,
        )
        lines.insert(0, said)
    return lines


def typed_button(*, button: Button) -> Paragraph:
    """The line that stands for a button: what to type to press it."""
    spelled = read_more_value(value=button.value) if button.action == SEARCH_SPELLED else None
    if spelled is not None:  # "Did you mean": the corrected search, to type as it is
        return line("Did you mean ", Code(f"/paperclub search {spelled[0]}"), "?", quiet=True)
    if button.action in TYPED_COMMANDS:
        command, purpose = TYPED_COMMANDS[button.action]
        return line("Type ", Code(f"{command} {button.value}"), f" {purpose}.", quiet=True)
    if button.action in TYPED_ANSWERS:
        return line(
            "Type ", Code(TYPED_ANSWERS[button.action]), f" for {button.label}.", quiet=True
        )
    word = TYPED_ACTIONS.get(button.action, button.action)
    return line("Type ", Code(word), f" for {button.label.lower()}.", quiet=True)


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
            f"The archive was empty, so I imported the sample reading list: {added} papers from ",
            Code(name),
            ".",
        )
    )


def goodbye(*, where: str) -> Message:
    """The last line."""
    return message(
        line(f"Bye. Everything is saved in {where}; ", Code("paperclub export"), " shows it.")
    )
