"""Neutral messages as Slack mrkdwn and Block Kit. Every run's text is data: `&`, `<`, `>` become
entities, and each run of formatting characters (`*`, `_`, `~`, the backtick and their
full-width forms) is shown as the fallback of a date token with no valid format, which Slack
renders as plain text (it has no escape for them; a zero-width space beside a marker would
make it pair mid-word instead). A `>` that could start a line gets an invisible soft hyphen
first, so it never turns into a quote. The reader still sees every character. Nothing data
carries can become a ping or a labelled link: links are made here, from Link runs, with a safe
URL; people are shown by name, never mentioned."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

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
    When,
    format_date,
)
from bot.slack import ids
from bot.slack.text import ELLIPSIS, clip, clip_escaped, safe_url, squash

Block = dict[str, Any]
Names = Callable[[str], str]
SECTION_MAX = 3000
BLOCKS_MAX = 50
LABEL_MAX = 200
SOFT_HYPHEN = "\u00ad"
ARROW = "↗"
# `{_}` is no date format Slack knows, so it always shows the fallback, as plain text.
LITERAL = "<!date^00000000^{{_}}|{}>"
_FORMATTING = re.compile(r"[*_~`＊＿～｀]+")
_LEADING_QUOTE = re.compile(r"^(&gt;|＞)", re.MULTILINE)
_CHANNEL_ID = re.compile(r"^[CGD][A-Z0-9]{2,}$")


def neutral(*, escaped: str) -> str:
    """Already-escaped text with its formatting characters and quote marks made inert."""
    quiet = _LEADING_QUOTE.sub(SOFT_HYPHEN + r"\1", escaped)
    return _FORMATTING.sub(lambda m: LITERAL.format(m.group(0)), quiet)


def _squash_inside(text: str) -> str:
    """Whitespace runs as single spaces, keeping one at either end (runs are joined: the space
    in "Yesterday: " separates it from the next run)."""
    inner = squash(text)
    if not inner:
        return " " if text else ""
    head = " " if text[0].isspace() else ""
    tail = " " if text[-1].isspace() else ""
    return head + inner + tail


def data(*, text: str, limit: int, squashed: bool = True) -> str:
    """Data as inert mrkdwn (whitespace squashed unless told), escaped, fenced and clipped so
    that the markup, zero-width spaces included, stays within `limit` characters."""
    raw = _squash_inside(text) if squashed else text
    budget = limit
    while True:
        out = neutral(escaped=clip_escaped(text=raw, limit=max(1, budget)))
        if len(out) <= limit:
            return out
        if budget <= 1:
            return ELLIPSIS
        # Markup grows unevenly (a marker becomes a 22-character token): shrink in proportion.
        budget = min(budget - 1, budget * limit // len(out))


def _link(*, link: Link, limit: int) -> str:
    """A link with its label, or the label alone when there is no safe URL or no room. A date
    token cannot sit inside a link, so a label with formatting characters is shown beside it,
    as data, and the link gets the arrow (the label's characters stay exactly as typed)."""
    url = safe_url(link.url)
    raw = link.label or link.url
    if not url or len(url) + len(ARROW) + 4 >= limit:
        return data(text=raw, limit=limit)
    if _FORMATTING.search(raw):
        label = data(text=raw, limit=min(LABEL_MAX, limit - len(url) - len(ARROW) - 4))
        return f"{label} <{url}|{ARROW}>"
    return f"<{url}|{data(text=raw, limit=min(LABEL_MAX, limit - len(url) - 3))}>"


def _run(*, run: Run, names: Names, limit: int) -> str:
    """One run as mrkdwn, at most about `limit` characters."""
    if isinstance(run, Plain):
        return data(text=run.text, limit=limit)
    if isinstance(run, Strong):
        return f"*{data(text=run.text, limit=max(1, limit - 2))}*"
    if isinstance(run, Code):
        # Inside a code span Slack formats nothing; only & < > need escaping there. Text with a
        # backtick, a newline or spaces at its ends makes no code span: it is shown as data.
        if "`" in run.text or "\n" in run.text or run.text != run.text.strip():
            return data(text=run.text, limit=limit)
        return "`" + clip_escaped(text=run.text, limit=max(1, limit - 2)) + "`"
    if isinstance(run, Link):
        return _link(link=run, limit=limit)
    if isinstance(run, ChannelRef):
        if _CHANNEL_ID.match(run.channel):
            return f"<#{run.channel}>"
        return "#" + data(text=run.channel, limit=limit)
    if isinstance(run, PersonRef):
        return data(text=names(run.user), limit=limit)
    assert isinstance(run, When)
    return format_date(day=run.day, year=run.year)


def mrkdwn(*, runs: Sequence[Run], names: Names, limit: int = SECTION_MAX) -> str:
    """Runs as one mrkdwn string within `limit`; a run that does not fit is clipped, never cut
    through an entity or a link, and the rest is dropped with "…"."""
    out: list[str] = []
    left = limit
    for run in runs:
        last = run is runs[-1]
        room = left if last else left - 1  # a run followed by others keeps room for "…"
        if room < 1:
            out.append(ELLIPSIS)
            break
        text = _run(run=run, names=names, limit=room)
        if len(text) > room:
            text = _run(run=run, names=names, limit=max(1, room - 1))
        if len(text) > room:
            out.append(ELLIPSIS)
            break
        out.append(text)
        left -= len(text)
        if not last and len(text) == room:  # clipped (or filled it): nothing more fits
            out.append(ELLIPSIS)
            break
    return "".join(out) or ELLIPSIS


def _text(*, text: str) -> dict[str, Any]:
    """A mrkdwn text object; verbatim, so Slack links and parses nothing by itself."""
    return {"type": "mrkdwn", "text": text or ELLIPSIS, "verbatim": True}


def _block(*, block: Paragraph | Listing, names: Names) -> Block:
    """A paragraph or a list as one section (or a context block for quiet text)."""
    if isinstance(block, Paragraph):
        text = mrkdwn(runs=block.runs, names=names)
        if block.quiet:
            return {"type": "context", "elements": [_text(text=text)]}
        return {"type": "section", "text": _text(text=text)}
    lines: list[str] = []
    left = SECTION_MAX
    for n, item in enumerate(block.items, start=block.start):
        head = f"{n}. " if block.ordered else "• "
        shown = head + mrkdwn(runs=item, names=names, limit=max(1, min(left, 600) - len(head)))
        if len(shown) + 1 > left:
            lines.append(ELLIPSIS)
            break
        lines.append(shown)
        left -= len(shown) + 1
    return {"type": "section", "text": _text(text="\n".join(lines))}


def _buttons(*, block: Buttons) -> Block:
    """A row of buttons; the value carries the argument (Slack allows 2,000 characters)."""
    named = ids.row_action_ids(actions=[b.action for b in block.buttons])
    return {
        "type": "actions",
        "elements": [
            {
                "type": "button",
                "action_id": action,
                "text": {"type": "plain_text", "text": clip(text=b.label, limit=75), "emoji": True},
                "value": b.value[:2000],
            }
            for b, action in zip(block.buttons, named, strict=True)
        ],
    }


def blocks(*, message: Message, names: Names) -> list[Block]:
    """The message as Block Kit blocks, at most 50."""
    out: list[Block] = []
    for block in message.blocks:
        if isinstance(block, Divider):
            out.append({"type": "divider"})
        elif isinstance(block, Buttons):
            out.append(_buttons(block=block))
        else:
            out.append(_block(block=block, names=names))
    return out[:BLOCKS_MAX]


def fallback(*, message: Message, names: Names, limit: int = SECTION_MAX) -> str:
    """The notification text: the first paragraph as mrkdwn."""
    for block in message.blocks:
        if isinstance(block, Paragraph):
            return mrkdwn(runs=block.runs, names=names, limit=limit)
    return ELLIPSIS


def render(*, message: Message, names: Names) -> tuple[str, list[Block]]:
    """(fallback text, blocks) of a message."""
    return fallback(message=message, names=names), blocks(message=message, names=names)
