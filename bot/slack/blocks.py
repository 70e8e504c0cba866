"""Pure Block Kit builders: the daily post, its vote buttons and simple notices, as plain dicts.

Every builder keeps Slack's limits (DESIGN.md §3) whatever the data: 50 blocks, section
text 3,000, header 150, button text 75, value 2,000, ids 255; text objects never empty.
Text from papers and people is escaped (& < >) before it enters mrkdwn.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from bot.domain import Paper, PaperCard, Recap, VoteCount
from bot.paper_links import paper_links
from bot.slack import ids

Block = dict[str, Any]

HEADER_MAX = 150
SECTION_MAX = 3000
BUTTON_TEXT_MAX = 75
ABSTRACT_MAX = 2500
TITLE_MAX = 300  # a title inside a mrkdwn line (recap, fallback text)
AUTHOR_MAX = 100
AUTHORS_SHOWN = 6  # more than this: the first three and "et al."
NAME_MAX = 80
LABEL_MAX = 100
URL_MAX = 2000
COUNT_MAX = 999_999
ELLIPSIS = "…"
UNTITLED = "Untitled paper"

# Characters a URL keeps as they are; everything else (spaces, < > |, non-ASCII) is %-encoded.
_URL_SAFE = "!#$%&'()*+,/:;=?@[]~"
_PARTIAL_ENTITY = re.compile(r"&[a-z]{0,3}$")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def escape_mrkdwn(*, text: str) -> str:
    """Text with Slack's control characters & < > as HTML entities, safe inside mrkdwn."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _trim_end(text: str) -> str:
    """Text without trailing whitespace and commas, which read badly before "…"."""
    trimmed = text.rstrip()
    while trimmed.endswith(","):
        trimmed = trimmed[:-1].rstrip()
    return trimmed


def clip(*, text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word boundary and ended with "…" when cut."""
    if len(text) <= limit:
        return text
    if limit <= 1:
        return ELLIPSIS[:limit]
    head = text[: limit - 1]
    if not text[limit - 1].isspace():
        boundary = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
        if boundary >= limit // 2:  # a word boundary not too far back; else cut the word
            head = head[:boundary]
    return _trim_end(head) + ELLIPSIS


def clip_escaped(*, text: str, limit: int) -> str:
    """Escaped text clipped to `limit`, never splitting an entity such as &amp;."""
    escaped = escape_mrkdwn(text=text)
    if len(escaped) <= limit:
        return escaped
    body = clip(text=escaped, limit=limit).removesuffix(ELLIPSIS)
    return _trim_end(_PARTIAL_ENTITY.sub("", body)) + ELLIPSIS


def squash(text: str) -> str:
    """Whitespace runs (newlines included) as single spaces, ends trimmed."""
    return " ".join(text.split())


def _paragraphs(text: str) -> str:
    """Paragraphs kept apart by one blank line, each with its whitespace squashed."""
    kept = (squash(p) for p in _PARAGRAPH_BREAK.split(text))
    return "\n\n".join(p for p in kept if p)


def safe_url(raw: str | None) -> str | None:
    """An http(s) URL made safe inside mrkdwn <…>; None when absent, another scheme or too long."""
    if not raw or not (raw := raw.strip()).lower().startswith(("http://", "https://")):
        return None
    url = escape_mrkdwn(text=quote(raw, safe=_URL_SAFE, errors="replace"))
    return url if len(url) <= URL_MAX else None


def mrkdwn_link(*, url: str, label: str, limit: int = LABEL_MAX) -> str:
    """A mrkdwn link; url from _url, label raw text (escaped and clipped here)."""
    return f"<{url}|{clip_escaped(text=squash(label) or 'link', limit=limit)}>"


def _paper_link(*, paper: Paper) -> tuple[str, str] | None:
    """(mrkdwn-safe url, raw label): arXiv abstract page, else doi.org, else its URL; else None."""
    for raw, label in paper_links(paper=paper):
        if safe := safe_url(raw):
            return safe, label
    return None


def count_text(n: int) -> str:
    """A vote or comment count for display: never negative, never absurdly long."""
    return f"{COUNT_MAX:,}+" if n > COUNT_MAX else str(max(n, 0))


def _plural(n: int, word: str) -> str:
    """'1 comment', '4 comments'."""
    return f"{count_text(n)} {word}{'' if n == 1 else 's'}"


def _mrkdwn(text: str) -> dict[str, str]:
    """A mrkdwn text object (the caller keeps it within its limit)."""
    return {"type": "mrkdwn", "text": text}


def _context(text: str) -> Block:
    """A context block with one mrkdwn element."""
    return {"type": "context", "elements": [_mrkdwn(text)]}


def _section(text: str) -> Block:
    """A section block with mrkdwn text clipped to the section limit."""
    return {"type": "section", "text": _mrkdwn(clip(text=text, limit=SECTION_MAX))}


def _button_text(*, emoji: str, n: int) -> dict[str, Any]:
    """The plain_text label of a vote button: '👍 3'."""
    text = clip(text=f"{emoji} {count_text(n)}", limit=BUTTON_TEXT_MAX)
    return {"type": "plain_text", "text": text, "emoji": True}


def _vote_buttons(*, votes: VoteCount, value: str) -> Block:
    """The actions block with the 👍 and 👎 buttons, both carrying the post id."""
    return {
        "type": "actions",
        "block_id": ids.VOTE_BLOCK,
        "elements": [
            {
                "type": "button",
                "action_id": ids.VOTE_UP,
                "text": _button_text(emoji="👍", n=votes.up),
                "value": value,
            },
            {
                "type": "button",
                "action_id": ids.VOTE_DOWN,
                "text": _button_text(emoji="👎", n=votes.down),
                "value": value,
            },
        ],
    }


def _recap_line(*, recap: Recap) -> str:
    """'Yesterday: <permalink|Title> — 👍 3 · 👎 1 · 💬 4 comments'."""
    title = squash(recap.title) or UNTITLED
    permalink = safe_url(recap.permalink)
    shown = (
        mrkdwn_link(url=permalink, label=title, limit=TITLE_MAX)
        if permalink
        else f"*{clip_escaped(text=title, limit=TITLE_MAX)}*"
    )
    counts = f"👍 {count_text(recap.votes.up)} · 👎 {count_text(recap.votes.down)}"
    return f"Yesterday: {shown} — {counts} · 💬 {_plural(recap.comments, 'comment')}"


def authors_line(*, authors: tuple[str, ...]) -> str:
    """'A, B, C' or, past AUTHORS_SHOWN names, 'A, B, C et al.'; escaped; '' when none."""
    names = [name for name in (squash(a) for a in authors) if name]
    shown = names if len(names) <= AUTHORS_SHOWN else names[:3]
    line = ", ".join(clip_escaped(text=name, limit=AUTHOR_MAX) for name in shown)
    return line + " et al." if len(shown) < len(names) else line


def _abstract_text(*, abstract: str, link: tuple[str, str] | None) -> str:
    """The escaped abstract, clipped with '… Read more' (linked when a link is known)."""
    text = _paragraphs(abstract)
    if not text:
        return "_No abstract on file._"
    more = f" <{link[0]}|Read more>" if link else ""
    body = clip_escaped(text=text, limit=min(ABSTRACT_MAX, SECTION_MAX - len(more)))
    return body + more if body.endswith(ELLIPSIS) else body


def _queue_line(*, card: PaperCard) -> str:
    """'Added by Ana · 3 more in the queue' (the name only when known)."""
    if card.remaining <= 0:
        queue = "last paper in the queue"
    else:
        queue = f"{count_text(card.remaining)} more in the queue"
    name = squash(card.added_by_name or "")
    if not name:
        return queue[0].upper() + queue[1:]
    return f"Added by {clip_escaped(text=name, limit=NAME_MAX)} · {queue}"


def paper_message(*, card: PaperCard) -> tuple[str, list[Block]]:
    """(fallback text, blocks) of the daily post of one paper, with its vote buttons."""
    paper = card.paper
    title = squash(paper.title) or UNTITLED
    link = _paper_link(paper=paper)
    blocks: list[Block] = []
    if card.recap is not None:
        blocks.append(_context(_recap_line(recap=card.recap)))
    header = {"type": "plain_text", "text": clip(text=title, limit=HEADER_MAX), "emoji": False}
    blocks.append({"type": "header", "block_id": ids.POST_BLOCK, "text": header})
    if authors := authors_line(authors=paper.authors):
        blocks.append(_context(authors))
    blocks.append(_section(_abstract_text(abstract=paper.abstract, link=link)))
    if link:
        blocks.append(_section(f"📄 {mrkdwn_link(url=link[0], label=link[1])}"))
    blocks.append(_context(_queue_line(card=card)))
    value = ids.encode_post_id(post_id=card.post_id)
    blocks.append(_vote_buttons(votes=card.votes, value=value))
    text = f"Today's paper: {clip_escaped(text=title, limit=TITLE_MAX)}"
    return (f"{text} — {link[0]}" if link else text), blocks


def notice(*, text: str) -> list[Block]:
    """One mrkdwn section for a simple reply; `text` is mrkdwn, so escape what users typed."""
    return [_section(text if text.strip() else ELLIPSIS)]
