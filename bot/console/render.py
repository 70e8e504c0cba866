"""Pure terminal rendering: neutral messages as rich markup, and the daily post as a panel.
Every run's text is escaped for rich, so data shows exactly as typed."""

from __future__ import annotations

import textwrap

from rich.markup import escape
from rich.panel import Panel

from bot.domain import PaperCard
from bot.messages import (
    Buttons,
    ChannelRef,
    Code,
    Divider,
    Link,
    Listing,
    Message,
    Paragraph,
    PersonRef,
    Plain,
    Run,
    Strong,
    format_date,
)
from bot.paper_links import paper_links
from bot.wording import post as words

ABSTRACT_SHOWN = 1200
AUTHORS_SHOWN = 6


def run_markup(*, run: Run) -> str:
    """One run as rich markup."""
    if isinstance(run, Plain):
        return escape(run.text)
    if isinstance(run, Strong):
        return f"[bold]{escape(run.text)}[/bold]"
    if isinstance(run, Code):
        return f"[cyan]{escape(run.text)}[/cyan]"
    if isinstance(run, Link):
        return f"{escape(run.label)} ({escape(run.url)})"
    if isinstance(run, ChannelRef):
        return f"#{escape(run.channel)}"
    if isinstance(run, PersonRef):
        return "you" if run.user == "console" else escape(run.user)
    return format_date(day=run.day, year=run.year)


def runs_markup(*, runs: tuple[Run, ...]) -> str:
    """Runs side by side."""
    return "".join(run_markup(run=r) for r in runs)


def to_rich(*, message: Message) -> str:
    """A message as rich markup, one line per paragraph or item (buttons have no place here)."""
    lines: list[str] = []
    for block in message.blocks:
        if isinstance(block, Paragraph):
            text = runs_markup(runs=block.runs)
            lines.append(f"[dim]{text}[/dim]" if block.quiet else text)
        elif isinstance(block, Listing):
            for n, item in enumerate(block.items, start=block.start):
                head = f"{n}. " if block.ordered else "• "
                lines.append(head + runs_markup(runs=item))
        elif isinstance(block, Divider):
            lines.append("")
        else:
            assert isinstance(block, Buttons)
    return "\n".join(lines)


def paper_panel(*, card: PaperCard, channel: str) -> Panel:
    """The daily post as a panel: the same content as the Slack message."""
    paper = card.paper
    lines: list[str] = []
    if card.recap is not None:
        lines.append(f"[dim]{runs_markup(runs=words.recap_line(recap=card.recap))}[/dim]\n")
    if paper.authors:
        names = list(paper.authors)
        shown = ", ".join(names if len(names) <= AUTHORS_SHOWN else names[:3])
        lines.append(f"[italic]{escape(shown)}{' et al.' if len(names) > AUTHORS_SHOWN else ''}[/]")
    abstract = paper.abstract or words.NO_ABSTRACT
    if len(abstract) > ABSTRACT_SHOWN:
        abstract = textwrap.shorten(abstract, width=ABSTRACT_SHOWN, placeholder=" …")
    lines.append(escape(abstract))
    links = paper_links(paper=paper)
    if links:
        lines.append(f"📄 {escape(links[0][0])}")
    footer = words.footer(added_by=None, remaining=card.remaining, count=str(card.remaining))
    lines.append(f"[dim]{runs_markup(runs=footer)}[/dim]")
    votes = f"{words.VOTE_UP} {card.votes.up} · {words.VOTE_DOWN} {card.votes.down}"
    lines.append(f"{votes}   [dim]{escape(words.VOTE_HINT)}[/dim]")
    return Panel(
        "\n".join(lines),
        title=f"[bold]{escape(paper.title or words.UNTITLED)}[/bold]",
        subtitle=f"#{escape(channel)} · {card.local_date.isoformat()}",
        title_align="left",
    )
