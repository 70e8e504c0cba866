"""The words on a daily post: yesterday's line, the footer, the fallback text."""

from __future__ import annotations

from bot.domain import Recap
from bot.messages import Link, Run, Strong, runs

# Shown only when no queued paper has an abstract (those with one are posted first).
NO_ABSTRACT = (
    "No abstract on file, nor for any paper in the queue. Add abstracts to the reading list "
    "and import it again, or run paperclub enrich to look them up in arXiv and Crossref."
)
DERIVED_TITLE = "title taken from the abstract's first words"
LIST_NOTE = "from the list: "
READ_MORE = "Read more"
UNTITLED = "Untitled paper"
VOTE_HINT = "(type +1 or -1 to vote)"
VOTE_UP = "👍"
VOTE_DOWN = "👎"


def plural(*, n: int, word: str) -> str:
    """'1 comment', '4 comments'."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def recap_line(*, recap: Recap) -> tuple[Run, ...]:
    """'Yesterday: Title — 👍 3 · 👎 1 · 💬 4 comments', the title linked to its thread."""
    title = " ".join(recap.title.split()) or UNTITLED
    shown: Run = Link(url=recap.permalink, label=title) if recap.permalink else Strong(title)
    counts = f"👍 {recap.votes.up} · 👎 {recap.votes.down}"
    return runs(
        "Yesterday: ", shown, f" — {counts} · 💬 {plural(n=recap.comments, word='comment')}"
    )


def queue_note(*, remaining: int, count: str) -> str:
    """'3 more in the queue', or 'last paper in the queue' (`count`: n as the platform shows it)."""
    return "last paper in the queue" if remaining <= 0 else f"{count} more in the queue"


def footer(
    *,
    added_by: str | None,
    remaining: int,
    count: str,
    list_name: str | None = None,
    title_derived: bool = False,
) -> tuple[Run, ...]:
    """'Added by Ana · 3 more in the queue · from the list: Related papers: … · title taken
    from the abstract's first words' (each part only when it applies)."""
    queue = queue_note(remaining=remaining, count=count)
    parts: list[str | Run] = [f"Added by {added_by} · {queue}" if added_by else queue]
    if list_name:
        parts += [" · ", LIST_NOTE, " ".join(list_name.split())]
    if title_derived:
        parts.append(f" · {DERIVED_TITLE}")
    first = parts[0]
    if isinstance(first, str):
        parts[0] = first[0].upper() + first[1:]
    return runs(*parts)


def fallback(*, title: str) -> str:
    """The notification text of a daily post."""
    return f"Today's paper: {title}"


def votes_changed(*, up: int, down: int, title: str) -> tuple[Run, ...]:
    """'👍 3 · 👎 1 on “Title”' (the console's redraw)."""
    return runs(f"👍 {up} · 👎 {down} on “", Strong(title), "”")
