"""Pure Block Kit for search results: five hits at a time, snippets bold where they matched,
and a button for more."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.domain import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, SearchHit
from bot.services.search import NO_HITS_TIPS, SearchResult
from bot.slack import ids
from bot.slack.blocks import (
    SECTION_MAX,
    UNTITLED,
    authors_line,
    clip,
    clip_escaped,
    count_text,
    escape_mrkdwn,
    mrkdwn_link,
    safe_url,
    squash,
)

Block = dict[str, Any]
SNIPPET_MAX = 600
QUERY_SHOWN = 200
# A button value holds at most 2,000 characters; the query rides in it, clipped.
QUERY_IN_BUTTON = 1800
_MARKED = re.compile(f"{HIGHLIGHT_OPEN}([^{HIGHLIGHT_CLOSE}]*){HIGHLIGHT_CLOSE}")


def highlighted(*, snippet: str) -> str:
    """A snippet escaped for mrkdwn, matched words in bold (markers from the search engine)."""
    escaped = escape_mrkdwn(text=clip(text=squash(snippet), limit=SNIPPET_MAX))
    bold = _MARKED.sub(lambda m: f"*{m.group(1).strip()}*" if m.group(1).strip() else "", escaped)
    # A clip can cut a pair in half: a lone marker is dropped, never shown.
    return bold.replace(HIGHLIGHT_OPEN, "").replace(HIGHLIGHT_CLOSE, "")


def hit_block(*, hit: SearchHit) -> Block:
    """One hit: title (linked to its thread), authors, where and when, counts, the snippet."""
    title = squash(hit.paper.title) or UNTITLED
    thread = safe_url(hit.permalink)
    head = (
        f"*{mrkdwn_link(url=thread, label=title, limit=200)}*"
        if thread
        else f"*{clip_escaped(text=title, limit=200)}*"
    )
    where = (
        f"{hit.post_date:%a %d %b %Y} in <#{hit.channel}>"
        if hit.post_date and hit.channel
        else hit.paper.status.value
    )
    votes, comments = hit.votes, count_text(hit.comments)
    counts = f"👍 {count_text(votes.up)} · 👎 {count_text(votes.down)} · 💬 {comments}"
    meta = " · ".join(filter(None, [authors_line(authors=hit.paper.authors), where, counts]))
    said = f"<@{hit.comment_user}>: " if hit.from_comment and hit.comment_user else ""
    snippet = highlighted(snippet=hit.snippet)
    text = f"{head}\n{meta}" + (f"\n>{said}{snippet}" if snippet else "")
    return {
        "type": "section",
        "text": {"type": "mrkdwn", "text": clip(text=text, limit=SECTION_MAX)},
    }


def more_value(*, text: str, offset: int) -> str:
    """The 'more' button's value: the query and where the next page starts."""
    return json.dumps({"q": text[:QUERY_IN_BUTTON], "o": offset}, ensure_ascii=False)[:2000]


def read_more_value(*, value: object) -> tuple[str, int] | None:
    """The query and offset a 'more' button carries; None for anything malformed."""
    try:
        data = json.loads(str(value))
        text, offset = str(data["q"]), int(data["o"])
    except (ValueError, TypeError, KeyError):
        return None
    return (text, offset) if offset >= 0 else None


def search_message(*, result: SearchResult) -> tuple[str, list[Block]]:
    """(fallback text, blocks) for a page of search results."""
    page = result.page
    query = clip_escaped(text=squash(result.text), limit=QUERY_SHOWN)
    blocks: list[Block] = []
    if not page.hits:
        text = f"No papers or comments match “{query}”. {NO_HITS_TIPS}"
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": text}})
    else:
        first, last = page.offset + 1, page.offset + len(page.hits)
        text = f"*{first}–{last} of {page.total}* for “{query}”"
        if page.relaxed:
            text += " (no paper has all the words; these have some of them)"
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": text}})
        for hit in page.hits:
            blocks += [{"type": "divider"}, hit_block(hit=hit)]
    if result.notes:
        notes = clip_escaped(text=" ".join(result.notes), limit=500)
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": notes}]})
    if result.next_offset is not None:
        button = {
            "type": "button",
            "action_id": ids.SEARCH_MORE,
            "text": {"type": "plain_text", "text": "More results", "emoji": True},
            "value": more_value(text=result.text, offset=result.next_offset),
        }
        blocks.append({"type": "actions", "elements": [button]})
    return text, blocks
