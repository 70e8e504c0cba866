"""What people read after a session: the message asking how it was (two questions, a button
per answer, the counts so far and the links added), and the answers to `/paperclub sessions
rate` and `sessions notes`. Titles and links are shown as plain text or as links, never as
markup, whatever they hold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlsplit

from bot.messages import Button, Buttons, Code, Link, Message, Paragraph, Plain, Run, Strong, line
from bot.messages import message as make
from bot.ports.meetings import SessionRecord
from bot.ports.session_memory import Question, Rating, SessionLink
from bot.wording.meetings import when

# Each button's action: the question it answers and the answer.
RATE_ACTIONS: dict[str, tuple[Question, bool]] = {
    "rate_worth": ("worth", True),
    "rate_not": ("worth", False),
    "rate_lively": ("discussion", True),
    "rate_quiet": ("discussion", False),
}
# The word typed for each answer (`/paperclub sessions rate worth`), by action.
RATE_WORDS = {
    "rate_worth": "worth",
    "rate_not": "not",
    "rate_lively": "lively",
    "rate_quiet": "quiet",
}
RATE_LABELS = {
    "rate_worth": "👍 Worth it",
    "rate_not": "👎 Not really",
    "rate_lively": "💬 Good discussion",
    "rate_quiet": "🤐 Quiet",
}
SAID = {
    ("worth", True): "worth it",
    ("worth", False): "not really worth it",
    ("discussion", True): "a good discussion",
    ("discussion", False): "a quiet one",
}
TITLE_SHOWN = 300  # characters of the session's paper's title
LINK_LABEL = 60  # characters of a link's label (its host and path)

SESSIONS_WHAT = "notes <link> [date] | rate worth|not|lively|quiet [date]"
STALE = make(line("That session is not one to rate here: it has not ended, or was cancelled."))
NO_SESSION = make(line("There is no past session to rate or add notes to."))
RATE_USAGE = make(
    line(
        "Usage: ",
        Code("/paperclub sessions rate worth"),
        " (or ",
        Code("not"),
        ", ",
        Code("lively"),
        ", ",
        Code("quiet"),
        "), for the last session; add a date for another.",
    )
)
NOTES_USAGE = make(
    line(
        "Usage: ",
        Code("/paperclub sessions notes https://…"),
        " adds a link (notes, slides) to the last session; add a date for another. ",
        "Only http and https links, up to 2,000 characters, with no spaces or quotes.",
    )
)


def _title(text: str) -> str:
    """A title cut to what the message shows."""
    return text if len(text) <= TITLE_SHOWN else text[: TITLE_SHOWN - 1] + "…"


def link_label(*, url: str) -> str:
    """A link's label: its host and path, without the scheme, cut to LINK_LABEL."""
    parts = urlsplit(url)
    shown = (parts.hostname or "") + (parts.path if parts.path != "/" else "")
    return shown if len(shown) <= LINK_LABEL else shown[: LINK_LABEL - 1] + "…"


def counts(*, ratings: Mapping[str, Rating]) -> str:
    """ "👍 Worth it 3 · 👎 Not really 1 · 💬 Good discussion 2 · 🤐 Quiet 0"."""
    found = (
        sum(1 for r in ratings.values() if getattr(r, question) is answer)
        for question, answer in RATE_ACTIONS.values()
    )
    return " · ".join(f"{label} {n}" for label, n in zip(RATE_LABELS.values(), found, strict=True))


def _links(*, links: Sequence[SessionLink]) -> tuple[Run, ...]:
    """ "Notes and slides: host/path · host/path"."""
    shown: list[Run] = [Plain("🔗 Notes and slides: ")]
    for n, link in enumerate(links):
        if n:
            shown.append(Plain(" · "))
        shown.append(Link(url=link.url, label=link_label(url=link.url)))
    return tuple(shown)


def rating(
    *,
    record: SessionRecord,
    title: str | None,
    ratings: Mapping[str, Rating],
    links: Sequence[SessionLink],
) -> Message:
    """The message asking how a session was: its time and paper, the counts so far, its
    links, how to add one, and the four buttons (their value names the session)."""
    paper: tuple[Run, ...] = (Plain(" (“" + _title(title) + "”)"),) if title else ()
    blocks: list[Paragraph | Buttons] = [
        line("🗣️ How was the session on ", Strong(when(session=record.session)), *paper, "?"),
        line(counts(ratings=ratings), quiet=True),
    ]
    if links:
        blocks.append(line(*_links(links=links)))
    blocks.append(
        line(
            "Add the notes or slides with ",
            Code("/paperclub sessions notes <link>"),
            ".",
            quiet=True,
        )
    )
    blocks.append(
        Buttons(
            buttons=tuple(
                Button(label=label, action=action, value=str(record.id))
                for action, label in RATE_LABELS.items()
            )
        )
    )
    return Message(blocks=tuple(blocks))


def rated(*, record: SessionRecord, question: Question, answer: bool, changed: bool) -> Message:
    """The answer to a rating, by button or command."""
    said = "You said " if changed else "You had said "
    return make(
        line(
            said, SAID[(question, answer)], ": ", Strong(when(session=record.session)), ". Thanks!"
        )
    )


def link_added(*, record: SessionRecord, url: str, added: bool) -> Message:
    """The answer to `sessions notes <link>`."""
    link = Link(url=url, label=link_label(url=url))
    if not added:
        return make(
            line("That link is on ", Strong(when(session=record.session)), " already: ", link)
        )
    return make(line("Added ", link, " to ", Strong(when(session=record.session)), "."))


def links_said(*, record: SessionRecord, links: Sequence[SessionLink]) -> Message:
    """`sessions notes` alone: the last session's links."""
    if not links:
        return make(
            line(
                "No notes or slides on ",
                Strong(when(session=record.session)),
                " yet. Add a link with ",
                Code("/paperclub sessions notes <link>"),
                ".",
            )
        )
    return make(line(Strong(when(session=record.session)), ": "), line(*_links(links=links)))


TOO_MANY_LINKS = make(
    line("That session has ten links already: the message after it shows no more.")
)
