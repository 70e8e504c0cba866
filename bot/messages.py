"""The neutral message model: what the core says, as values each platform renders and escapes.

A message is a sequence of blocks (paragraphs, lists, a divider, buttons); a paragraph is a
sequence of runs. Runs carry raw text exactly as people typed it: no platform's markup ever
appears here, so no data can become a ping, a disguised link or stray formatting. Each
platform (bot/slack, bot/console, ...) turns these values into its own markup and escapes
every run's text on the way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True, slots=True)
class Plain:
    """Text shown as it is."""

    text: str


@dataclass(frozen=True, slots=True)
class Strong:
    """Text shown with emphasis (bold where the platform has it)."""

    text: str


@dataclass(frozen=True, slots=True)
class Code:
    """A command or a literal the reader may type (`/paperclub add`), shown monospaced."""

    text: str


@dataclass(frozen=True, slots=True)
class Link:
    """A link: the platform shows `label` and links `url` (only http(s) URLs are linked)."""

    url: str
    label: str


@dataclass(frozen=True, slots=True)
class ChannelRef:
    """A reference to a channel by its platform id (the platform decides how to show it)."""

    channel: str


@dataclass(frozen=True, slots=True)
class PersonRef:
    """A reference to a person by their platform id; platforms show a name, never a ping."""

    user: str


@dataclass(frozen=True, slots=True)
class When:
    """A calendar date, shown as 'Mon 5 Jan 2026' (or without the year when `year` is False)."""

    day: date
    year: bool = True


Run = Plain | Strong | Code | Link | ChannelRef | PersonRef | When


@dataclass(frozen=True, slots=True)
class Paragraph:
    """Runs shown together on one line (or wrapped by the platform); `quiet` is secondary text
    (Slack's context block, the console's dim)."""

    runs: tuple[Run, ...]
    quiet: bool = False


@dataclass(frozen=True, slots=True)
class Listing:
    """A list of items, each a tuple of runs; numbered from `start` when `ordered`."""

    items: tuple[tuple[Run, ...], ...]
    ordered: bool = True
    start: int = 1


@dataclass(frozen=True, slots=True)
class Divider:
    """A visual break between sections (search hits)."""


@dataclass(frozen=True, slots=True)
class Button:
    """A button: `action` names what it does, `value` carries its argument."""

    label: str
    action: str
    value: str


@dataclass(frozen=True, slots=True)
class Buttons:
    """A row of buttons."""

    buttons: tuple[Button, ...]


Block = Paragraph | Listing | Divider | Buttons


@dataclass(frozen=True, slots=True)
class Message:
    """What the bot says: blocks in order."""

    blocks: tuple[Block, ...]


def line(*runs: Run | str, quiet: bool = False) -> Paragraph:
    """A paragraph from runs; a bare str is Plain."""
    return Paragraph(runs=tuple(Plain(r) if isinstance(r, str) else r for r in runs), quiet=quiet)


def message(*blocks: Block | str) -> Message:
    """A message from blocks; a bare str is a plain paragraph."""
    return Message(blocks=tuple(line(b) if isinstance(b, str) else b for b in blocks))


def runs(*parts: Run | str) -> tuple[Run, ...]:
    """A tuple of runs; a bare str is Plain (list items are built with this)."""
    return tuple(Plain(p) if isinstance(p, str) else p for p in parts)


def join(parts: Iterable[tuple[Run, ...]], *, sep: str = " · ") -> tuple[Run, ...]:
    """Run tuples joined by a plain separator, empty ones left out."""
    out: list[Run] = []
    for part in parts:
        if not part:
            continue
        if out:
            out.append(Plain(sep))
        out.extend(part)
    return tuple(out)


def plain_text(*, run: Run) -> str:
    """A run as plain words (fallback texts, logs, summaries); data stays as typed."""
    if isinstance(run, Plain | Strong | Code):
        return run.text
    if isinstance(run, Link):
        return run.label
    if isinstance(run, ChannelRef):
        return f"#{run.channel}"
    if isinstance(run, PersonRef):
        return run.user
    return format_date(day=run.day, year=run.year)


def format_date(*, day: date, year: bool = True) -> str:
    """'Mon 5 Jan 2026', or 'Mon 5 Jan' without the year."""
    shown = f"{day:%a} {day.day} {day:%b}"
    return f"{shown} {day.year}" if year else shown


def as_plain(*, message: Message) -> str:
    """The whole message as plain text, one line per paragraph or item."""
    lines: list[str] = []
    for block in message.blocks:
        if isinstance(block, Paragraph):
            lines.append("".join(plain_text(run=r) for r in block.runs))
        elif isinstance(block, Listing):
            for n, item in enumerate(block.items, start=block.start):
                head = f"{n}. " if block.ordered else "• "
                lines.append(head + "".join(plain_text(run=r) for r in item))
    return "\n".join(lines)
