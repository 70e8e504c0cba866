"""What people read about the poll that chooses a session's paper: the poll itself with a
button per paper, the result, and the answers to nominate, vote and the admins' settings.
Titles are shown as plain text, whatever they hold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.meetings.meeting_text import lead_text
from bot.meetings.polls import PollResult
from bot.messages import (
    Button,
    Buttons,
    Code,
    Listing,
    Message,
    Paragraph,
    Plain,
    Run,
    Strong,
    line,
    runs,
)
from bot.messages import message as make
from bot.ports.meetings import SessionRecord
from bot.ports.polls import NominationRecord, PollSettings
from bot.wording.meetings import when

VOTE = "poll_vote"  # a paper's button: approve it, or rank it next (again: take it back)
CLEAR = "poll_clear"  # withdraw one's ballot
RESULTS = "poll_results"  # the result message's button: the final counts, to the clicker
NOMINATE = "poll_nominate"  # opens a form with one field: the paper to put forward
TITLE_SHOWN = 300  # characters of a title in a poll (a button carries its number only)

NOMINATE_ABOUT = "Put a paper forward for the next meeting's poll"
NOMINATE_WHAT = "an arXiv id, DOI, URL, or a title"
NOMINATE_BUTTON = "Nominate a paper"
# The form the button opens (a modal: its title within Slack's 24 characters, the field's
# label within Discord's 45).
NOMINATE_TITLE = "Nominate a paper"
NOMINATE_SUBMIT = "Nominate"
NOMINATE_LABEL = "The paper"
NOMINATE_PLACEHOLDER = "2401.01234, a DOI, a URL or a title"
NOMINATE_HINT = "It joins the next poll, beside the queue's first papers."
NOMINATE_EMPTY = "Say which paper: an arXiv id, a DOI, a URL or a title."


def nominate_too_long(*, limit: int) -> str:
    """Beside the form's field: what was typed is longer than any reference."""
    return f"That is longer than a paper's reference ({limit:,} characters at most)."


NOMINATE_HELP = runs(
    Code("/paperclub nominate 2401.01234"), ": put a paper forward for the next poll"
)
VOTE_WHAT = "the papers' numbers as the poll shows them (in your order for ranked choice), or clear"
VOTE_HELP = runs(
    Code("/paperclub poll"), " shows the open poll; ", Code("/paperclub poll 2 3"), " votes in it"
)
POLL_ABOUT = "The open poll that chooses the next session's paper; with numbers, vote in it"
NO_POLL = make(line("No poll is open. It opens before each session, when the meeting has polls."))
POLLS_OFF = make(
    line(
        "This channel's sessions have no poll. Admins turn them on with ",
        Code("/paperclub meeting poll approval"),
        ".",
    )
)
VOTE_USAGE = make(
    line(
        "Usage: ",
        Code("/paperclub poll 2 3"),
        " (the papers' numbers in the open poll; in your order for ranked choice) or ",
        Code("/paperclub poll clear"),
        ".",
    )
)
NOMINATE_USAGE = make(
    line("Usage: ", Code("/paperclub nominate 2401.01234"), " (an arXiv id, DOI, URL or a title).")
)
STALE = make(line("That poll is closed, or not one of this channel's."))


def _title(text: str) -> str:
    """A title cut to what a poll shows."""
    return text if len(text) <= TITLE_SHOWN else text[: TITLE_SHOWN - 1] + "…"


def settings_said(*, settings: PollSettings | None) -> Message:
    """The channel's poll settings, as the admins set them."""
    if settings is None:
        return POLLS_OFF
    how = "ranked choice" if settings.mode == "ranked" else "approval voting"
    extras = [
        w
        for w, on in (
            ("results hidden until it closes", settings.hidden),
            ("weighted by RSVP", settings.weighted),
        )
        if on
    ]
    return make(
        line(
            "Polls: ",
            Strong(how),
            f", opening {lead_text(before=settings.opens)} and closing"
            f" {lead_text(before=settings.closes)} before each session, with the queue's first"
            f" {settings.slate} beside the nominations" + "".join(f"; {e}" for e in extras) + ".",
        )
    )


def nominated(*, nomination: NominationRecord, new: bool) -> Message:
    """The answer to /paperclub nominate."""
    if nomination.chosen_for is not None:
        return make(line(Strong(_title(nomination.title)), " was chosen by an earlier poll."))
    said = " is put forward for the next poll." if new else " was put forward already."
    return make(line(Strong(_title(nomination.title)), said))


def _count_text(*, votes: object, hidden: bool) -> str:
    """ " — 2 votes", nothing while hidden."""
    if hidden:
        return ""
    return f" — {votes} vote" + ("" if str(votes) == "1" else "s")


def poll(
    *,
    record: SessionRecord,
    settings: PollSettings,
    slate: Sequence[NominationRecord],
    result: PollResult | None,
    voters: int,
    closes: str,
) -> Message:
    """The poll as the channel sees it: its papers numbered, the counts unless hidden (None
    result), a button per paper and one to withdraw; each button's value names the session,
    so each poll's message is found by its own."""
    votes = {c.nomination: c.votes for c in result.counts} if result is not None else {}
    how = (
        "ranked choice: click the papers in your order (again: take one back)"
        if settings.mode == "ranked"
        else "approval: vote for every paper you would read (again: take it back)"
    )
    items = tuple(
        (
            Strong(_title(n.title)),
            Plain(_count_text(votes=votes.get(n.id, 0), hidden=result is None)),
        )
        for n in slate
    )
    counted = f"{voters} member" + ("" if voters == 1 else "s") + " voted so far"
    hidden = " · the counts show when it closes" if result is None else ""
    buttons = [
        Button(label=str(number), action=VOTE, value=f"{record.id}.{n.id}")
        for number, n in enumerate(slate, start=1)
    ]
    buttons.append(Button(label="Clear my vote", action=CLEAR, value=f"{record.id}.clear"))
    buttons.append(Button(label=NOMINATE_BUTTON, action=NOMINATE, value=f"{record.id}.nominate"))
    return Message(
        blocks=(
            line("🗳️ ", Strong("Choose the paper"), " for ", Strong(when(session=record.session))),
            line(f"{how}. Closes {closes}.", quiet=True),
            Listing(items=items),
            line(counted + hidden, quiet=True),
            Buttons(buttons=tuple(buttons[:5])),
            *((Buttons(buttons=tuple(buttons[5:])),) if len(buttons) > 5 else ()),
        )
    )


def result_said(
    *, record: SessionRecord, winner: NominationRecord | None, votes: object
) -> Message:
    """The poll's result, announced once; its button shows the final counts."""
    if winner is None:
        said: tuple[Run, ...] = runs(
            "🗳️ Nobody voted, so no paper was chosen for ", Strong(when(session=record.session)), "."
        )
    else:
        said = runs(
            "🏆 The group chose ",
            Strong(_title(winner.title)),
            f" ({votes} vote" + ("" if str(votes) == "1" else "s") + ") for ",
            Strong(when(session=record.session)),
            ". The other papers keep their votes for the next poll.",
        )
    button = Button(label="See the votes", action=RESULTS, value=f"{record.id}.result")
    return Message(blocks=(line(*said), Buttons(buttons=(button,))))


def counts_said(
    *, slate: Sequence[NominationRecord], result: PollResult, own: Sequence[int]
) -> Message:
    """The final counts (or the live ones), and the clicker's own ballot."""
    by_id = {n.id: n for n in slate}
    items = tuple(
        runs(Strong(_title(by_id[c.nomination].title)), _count_text(votes=c.votes, hidden=False))
        for c in result.counts
        if c.nomination in by_id
    )
    return Message(blocks=(Listing(items=items), ballot_line(slate=slate, own=own)))


def ballot_line(*, slate: Sequence[NominationRecord], own: Sequence[int]) -> Paragraph:
    """ "Your vote: 2, 3" by the poll's numbers."""
    numbers = {n.id: number for number, n in enumerate(slate, start=1)}
    shown = ", ".join(str(numbers[i]) for i in own if i in numbers)
    return line(f"Your vote: {shown}." if shown else "You have not voted.", quiet=True)


def voted(*, slate: Sequence[NominationRecord], own: Sequence[int]) -> Message:
    """The answer to a vote, by button or command."""
    return Message(blocks=(ballot_line(slate=slate, own=own),))


def ballots_by_number(*, slate: Sequence[NominationRecord]) -> Mapping[int, int]:
    """The poll's numbers to nomination ids."""
    return {number: n.id for number, n in enumerate(slate, start=1)}
