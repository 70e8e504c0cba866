"""A post's discussion as the HTML of a Zotero child note: the paper, where and when it was
posted, the votes, a link to the thread, and who said what.

Everything said is data, never markup: every text is HTML-escaped (a comment "<script>" shows as
typed), line breaks become <br>, platform mentions ("<@U123>", "<!channel>") stay as the
literal text they were and ping nobody, and a link is written only for an http(s) permalink
(a "javascript:" one is dropped). Zotero keeps the note's HTML as sent, up to NOTE_MAX
characters: a thread longer than that keeps its first comments and says how many more there are.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from urllib.parse import urlsplit

from bot.domain import PostView
from bot.zotero.mapping import plain

FOOTER = "Kept by Paper Club: edits made here are replaced at the next sync."
NOTE_MAX = (
    500_000  # characters of a note Zotero takes (dataserver's Zotero_Notes::$MAX_NOTE_LENGTH)
)
_ROOM = 2_000  # characters kept for the closing tags, the footer and the "more" line


def _text(*, value: str) -> str:
    """Escaped text, line breaks kept as <br>."""
    return "<br>".join(escape(plain(text=line), quote=True) for line in value.splitlines() or [""])


def _link(*, url: str | None, label: str) -> str:
    """An <a> to an http(s) URL, "" for anything else."""
    if not url:
        return ""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return ""
    return f'<a href="{escape(url.strip(), quote=True)}">{escape(label)}</a>'


def discussion_html(
    *,
    title: str,
    post: PostView,
    channel_name: str,
    names: Mapping[str, str] | None = None,
) -> str:
    """The note for `post` of the paper `title` in the channel shown as `channel_name`;
    `names` turns a comment's user id into the name shown (the id itself otherwise)."""
    who = names or {}
    thread = _link(url=post.permalink, label="the thread")
    facts = [
        f"Posted in {_text(value=channel_name)} on {post.date.isoformat()}",
        f"👍 {post.votes.up} · 👎 {post.votes.down}",
    ]
    if thread:
        facts.append(thread)
    parts = [
        f"<h1>Discussion: {_text(value=title)}</h1>",
        f"<p>{' · '.join(facts)}</p>",
    ]
    if post.comments:
        items: list[str] = []
        size = sum(len(part) for part in parts)
        for comment in post.comments:
            name = _text(value=who.get(comment.user, comment.user))
            edited = " <em>(edited)</em>" if comment.edited else ""
            item = f"<li><strong>{name}</strong>: {_text(value=comment.text)}{edited}</li>"
            if size + len(item) > NOTE_MAX - _ROOM:
                more = len(post.comments) - len(items)
                items.append(f"<li><em>{more} more comments: see the thread.</em></li>")
                break
            items.append(item)
            size += len(item)
        parts.append(f"<ul>{''.join(items)}</ul>")
    else:
        parts.append("<p>No comments yet.</p>")
    parts.append(f"<p><em>{escape(FOOTER)}</em></p>")
    return f"<div>{''.join(parts)}</div>"


def discussion_note(*, parent: str, html: str) -> dict[str, str]:
    """The editable JSON of a new child note of the item `parent` (no key: the client adds
    one). Tags are not set: a note's tags would show in the library's tag pane."""
    return {"itemType": "note", "parentItem": parent, "note": html}
