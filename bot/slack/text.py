"""Text helpers for Slack: mrkdwn escaping, clipping within limits, safe URLs, counts."""

from __future__ import annotations

import re
from urllib.parse import quote

URL_MAX = 2000
COUNT_MAX = 999_999
ELLIPSIS = "…"

# Characters a URL keeps as they are; everything else (spaces, < > |, non-ASCII) is %-encoded.
_URL_SAFE = "!#$%&'()*+,/:;=?@[]~"
_PARTIAL_ENTITY = re.compile(r"&[a-z]{0,3}$")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_SLACK_TOKEN = re.compile(r"<([^<>]*)>")


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


def paragraphs(text: str) -> str:
    """Paragraphs kept apart by one blank line, each with its whitespace squashed."""
    kept = (squash(p) for p in _PARAGRAPH_BREAK.split(text))
    return "\n\n".join(p for p in kept if p)


def safe_url(raw: str | None) -> str | None:
    """An http(s) URL made safe inside mrkdwn <…>; None when absent, another scheme or too long."""
    if not raw or not (raw := raw.strip()).lower().startswith(("http://", "https://")):
        return None
    if not raw.split("://", 1)[1].split("/", 1)[0].strip("?#"):
        return None  # no host: nothing to link to
    url = escape_mrkdwn(text=quote(raw, safe=_URL_SAFE, errors="replace"))
    return url if len(url) <= URL_MAX else None


def count_text(n: int) -> str:
    """A vote or comment count for display: never negative, never absurdly long."""
    return f"{COUNT_MAX:,}+" if n > COUNT_MAX else str(max(n, 0))


def unescape(text: str) -> str:
    """Slack's three entities undone, once (&amp;lt; stays &lt;)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _token(match: re.Match[str]) -> str:
    """One of Slack's <…> tokens as the words a person sees for it."""
    body = match.group(1)
    target, _, label = body.partition("|")
    if target.startswith("#"):
        return target  # the channel id, so `in:#C0123` finds it
    if target.startswith("@"):
        return "@" + label if label else target
    if target.startswith("!"):
        special = target[1:].split("^")[0]
        return label or "@" + (target.split("^")[1] if special == "subteam" else special)
    bare = target.removeprefix("mailto:")
    if not label or label in (target, bare) or target.endswith("//" + label):
        return bare
    return f"{label} ({bare})"


def typed(text: str) -> str:
    """Text Slack sent (slash-command text, messages) as the person typed it, once, here at the
    edge: Slack turns mentions and links into <…> tokens and escapes & < > as entities (typed
    brackets arrive as entities, so every real bracket is a token). The archive holds this."""
    return unescape(_SLACK_TOKEN.sub(_token, text))
