"""Pure terminal rendering: neutral messages as rich Text, and the daily post as a panel.

Data never goes through rich's markup parser: every run becomes a Text span with a style, so
brackets, backslashes and emoji codes in a title show exactly as typed and nothing of the
data can open a hyperlink or a style."""

from __future__ import annotations

import textwrap
import unicodedata

from rich.panel import Panel
from rich.text import Text

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
from bot.wording import semantic as semantic_words
from bot.wording.console import typed_buttons

ABSTRACT_SHOWN = 1200
AUTHORS_SHOWN = 6


def _inert(text: str) -> str:
    """Text with its control characters dropped (line breaks aside): rich writes an escape
    sequence through as it is, and the terminal would run it (a title, a feed's error
    message). Format characters stay: an emoji's zero-width joiners are such."""
    if text.isprintable():
        return text
    return "".join(c for c in text if c == "\n" or unicodedata.category(c) != "Cc")


def run_text(*, run: Run) -> Text:
    """One run as styled text, inert."""
    if isinstance(run, Plain):
        return Text(_inert(run.text))
    if isinstance(run, Strong):
        return Text(_inert(run.text), style="bold")
    if isinstance(run, Code):
        return Text(_inert(run.text), style="cyan")
    if isinstance(run, Link):
        # The URL is shown, never hidden behind its label (no terminal hyperlink either).
        return Text(_inert(f"{run.label} ({run.url})"))
    if isinstance(run, ChannelRef):
        return Text(_inert(f"#{run.channel}"))
    if isinstance(run, PersonRef):
        return Text("you" if run.user == "console" else _inert(run.user))
    return Text(format_date(day=run.day, year=run.year))


def runs_text(*, runs: tuple[Run, ...], style: str = "") -> Text:
    """Runs side by side."""
    joined = Text(style=style)
    for run in runs:
        joined.append_text(run_text(run=run))
    return joined


def paragraph_text(*, paragraph: Paragraph) -> Text:
    """One paragraph as one line; a quiet one dimmed."""
    return runs_text(runs=paragraph.runs, style="dim" if paragraph.quiet else "")


def to_rich(*, message: Message) -> Text:
    """A message as text, one line per paragraph or item; a button becomes the word to type
    for it."""
    lines: list[Text] = []
    for block in message.blocks:
        if isinstance(block, Paragraph):
            lines.append(paragraph_text(paragraph=block))
        elif isinstance(block, Listing):
            for n, item in enumerate(block.items, start=block.start):
                head = Text(f"{n}. " if block.ordered else "• ")
                lines.append(head.append_text(runs_text(runs=item)))
        elif isinstance(block, Divider):
            lines.append(Text())
        else:
            assert isinstance(block, Buttons)
            lines += [paragraph_text(paragraph=p) for p in typed_buttons(buttons=block.buttons)]
    return Text("\n").join(lines)


def paper_panel(*, card: PaperCard, channel: str) -> Panel:
    """The daily post as a panel: the same content as the Slack message."""
    paper = card.paper
    lines: list[Text] = []
    if card.recap is not None:
        lines += [runs_text(runs=words.recap_line(recap=card.recap), style="dim"), Text()]
    # The title heads the body, where it wraps: a panel's border would crop a long one.
    lines.append(Text(paper.title or words.UNTITLED, style="bold"))
    if paper.authors:
        names = list(paper.authors)
        shown = ", ".join(names if len(names) <= AUTHORS_SHOWN else names[:3])
        lines.append(Text(shown + (" et al." if len(names) > AUTHORS_SHOWN else ""), "italic"))
    abstract = paper.abstract or words.NO_ABSTRACT
    if len(abstract) > ABSTRACT_SHOWN:
        abstract = textwrap.shorten(abstract, width=ABSTRACT_SHOWN, placeholder=" …")
    lines.append(Text(abstract))
    links = paper_links(paper=paper)
    if links:
        lines.append(Text(f"📄 {links[0][0]}"))
    footer = words.footer(
        added_by=None,
        remaining=card.remaining,
        count=str(card.remaining),
        list_name=card.list_name,
        title_derived=paper.title_derived,
    )
    lines.append(runs_text(runs=footer, style="dim"))
    lines += [runs_text(runs=line, style="dim") for line in semantic_words.card_lines(card=card)]
    votes = Text(f"{words.VOTE_UP} {card.votes.up} · {words.VOTE_DOWN} {card.votes.down}   ")
    lines.append(votes.append(words.VOTE_HINT, style="dim"))
    return Panel(
        Text("\n").join(lines),
        title=Text(f"#{channel} · {card.local_date.isoformat()}"),
        title_align="left",
    )
