"""Pure terminal rendering of what Slack shows as blocks: the daily post and replies."""

from __future__ import annotations

import re
import textwrap

from rich.markup import escape
from rich.panel import Panel

from bot.domain import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, PaperCard, VoteCount
from bot.paper_links import paper_links
from bot.services.search import NO_HITS_TIPS, SearchResult

ABSTRACT_SHOWN = 1200
AUTHORS_SHOWN = 6


def votes_line(*, votes: VoteCount) -> str:
    """'👍 3 · 👎 1'."""
    return f"👍 {votes.up} · 👎 {votes.down}"


def paper_panel(*, card: PaperCard, channel: str) -> Panel:
    """The daily post as a panel: the same content as the Slack message."""
    paper = card.paper
    lines: list[str] = []
    if card.recap is not None:
        recap = card.recap
        lines.append(
            f"[dim]Yesterday: {escape(recap.title)} — {votes_line(votes=recap.votes)} · "
            f"💬 {recap.comments}[/dim]\n"
        )
    if paper.authors:
        names = list(paper.authors)
        shown = ", ".join(names if len(names) <= AUTHORS_SHOWN else names[:3])
        lines.append(f"[italic]{escape(shown)}{' et al.' if len(names) > AUTHORS_SHOWN else ''}[/]")
    abstract = paper.abstract or "No abstract on file."
    if len(abstract) > ABSTRACT_SHOWN:
        abstract = textwrap.shorten(abstract, width=ABSTRACT_SHOWN, placeholder=" …")
    lines.append(escape(abstract))
    links = paper_links(paper=paper)
    if links:
        lines.append(f"📄 {escape(links[0][0])}")
    queue = f"{card.remaining} more in the queue" if card.remaining else "last paper in the queue"
    lines.append(f"[dim]{queue}[/dim]")
    lines.append(f"{votes_line(votes=card.votes)}   [dim](type +1 or -1 to vote)[/dim]")
    return Panel(
        "\n".join(lines),
        title=f"[bold]{escape(paper.title)}[/bold]",
        subtitle=f"#{channel} · {card.local_date.isoformat()}",
        title_align="left",
    )


_SLACK_LINK = re.compile(r"<([^<>|]+)\|([^<>]+)>")
_SLACK_CHANNEL = re.compile(r"<#([A-Za-z0-9_-]+)>")


def plain_links(*, text: str) -> str:
    """Slack's <url|label> and <#channel> as a terminal shows them: 'label (url)', '#channel'."""
    text = _SLACK_CHANNEL.sub(r"#\1", text)
    return _SLACK_LINK.sub(lambda m: m.group(2) if m.group(1).startswith("#") else
                           f"{m.group(2)} ({m.group(1)})", text)  # fmt: skip


def mrkdwn_to_rich(*, text: str) -> str:
    """Slack's *bold*, `code` and links as rich markup, everything else escaped."""
    out: list[str] = []
    for n, part in enumerate(escape(plain_links(text=text)).split("`")):
        if n % 2:
            out.append(f"[cyan]{part}[/cyan]")
        else:
            out.append(_bold(part))
    return "".join(out)


def _bold(text: str) -> str:
    """*x* -> [bold]x[/bold] for balanced asterisks."""
    pieces = text.split("*")
    if len(pieces) % 2 == 0:
        return text
    return "".join(f"[bold]{p}[/bold]" if n % 2 else p for n, p in enumerate(pieces))


def search_text(*, result: SearchResult) -> str:
    """Search results as terminal lines: title, where and when, counts, snippet in bold."""
    page = result.page
    if not page.hits:
        return f"No papers or comments match “{result.text[:200]}”. {NO_HITS_TIPS}"
    first, last = page.offset + 1, page.offset + len(page.hits)
    lines = [f"*{first}–{last} of {page.total}* for “{result.text[:200]}”"]
    if page.relaxed:
        lines.append("No paper has all the words; these have some of them.")
    for n, hit in enumerate(page.hits, start=first):
        where = f"{hit.post_date:%a %d %b %Y} in #{hit.channel}" if hit.post_date else "queued"
        counts = f"👍 {hit.votes.up} · 👎 {hit.votes.down} · 💬 {hit.comments}"
        lines.append(f"{n}. *{hit.paper.title.replace('*', '')}* — {where} · {counts}")
        snippet = " ".join(hit.snippet.replace("*", "").split())
        snippet = snippet.replace(HIGHLIGHT_OPEN, "*").replace(HIGHLIGHT_CLOSE, "*")
        said = f"{hit.comment_user}: " if hit.from_comment and hit.comment_user else ""
        lines.append(f"   {said}{snippet}")
    if result.next_offset is not None:
        lines.append(f"… {page.total - last} more; add words or filters to narrow it down.")
    return "\n".join(lines)
