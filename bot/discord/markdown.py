"""Data as Discord markdown: escaped so it shows exactly as typed and formats, links, mentions,
pings and unfurls nothing; clipped within Discord's limits without cutting an escape or a
character a reader sees as one.

Discord reads a message twice, and both readings are defeated here:
- Its client parses markdown. A backslash before ASCII punctuation shows that character as it
  is, so every character that can open or close formatting, a quote, a heading, subtext, a
  list, a masked link, an autolink or a token (backslash * _ ~ ` | < > [ ] ( ) # - +) gets one
  wherever it stands (cheaper to reason about than "only where it would pair"), and so does
  the full stop of a number starting a line ("1. " is a numbered list).
- Its server finds pings (@everyone, @here, <@id>, <@&id>), invites and URLs to unfurl in the
  raw text, where a backslash means nothing. So "@" before everyone/here and "<" before a
  token's second character get a zero-width space after them, the colon of "://" and the dot
  of "discord.gg" (and its siblings) a backslash: the raw text then holds no ping, no URL and
  no invite, while a reader sees every character.
allowed_mentions "none" goes with every message anyway (bot/discord/render.py): this is the
second lock, not the only one.

Lengths are UTF-16 code units, which Discord's JavaScript counts; never fewer than code points,
so a limit holds whichever Discord means.
"""

from __future__ import annotations

import re
import unicodedata

ELLIPSIS = "…"
ZWSP = "\u200b"
ZWJ = "\u200d"

# What follows "<" in a token Discord's server or client reads: <@id> <@&id> <#id> <t:…>
# <:emoji:id> <a:emoji:id> </command:id> <id:home> (and Slack's <!here>, for good measure).
_BRACKETED = r"[@#!&:/]|(?:t|a|id):"
_ESCAPED = re.compile(
    r"(?P<mark>[\\*_~`|<>\[\]()#+\-])"
    r"|(?P<at>@)(?=everyone|here)"
    r"|(?P<colon>:)(?=//)"
    r"|(?P<dot>(?<=discord)\.|(?<=discordapp)\.)",
    re.IGNORECASE,
)
_TOKEN_START = re.compile(_BRACKETED, re.IGNORECASE)
_NUMBERED = re.compile(r"^(\s*\d+)\.(?=\s|$)", re.MULTILINE)
# In raw text (inside a code span, a footer): what Discord's server would read as a ping, an
# invite or a URL to unfurl, or its client as a token.
RAW_RISK = re.compile(rf"@(?:everyone|here)|<(?:{_BRACKETED})|://|discord(?:app)?\.", re.IGNORECASE)
_INERT = re.compile(
    rf"(?<=@)(?=everyone|here)|(?<=<)(?={_BRACKETED})|(?<=:)(?=//)"
    r"|(?<=discord)(?=\.)|(?<=discordapp)(?=\.)",
    re.IGNORECASE,
)
_UNPINGED = re.compile(rf"(?<=@)(?=everyone|here)|(?<=<)(?={_BRACKETED})", re.IGNORECASE)
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_SURROGATE = re.compile("[\ud800-\udfff]")  # lone ones: Python strings never pair them


def size(text: str) -> int:
    """Text's length in UTF-16 code units (an emoji outside the BMP counts two)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def clean(text: str) -> str:
    """Text without lone surrogates (U+FFFD instead: JSON cannot carry them) and without control
    characters other than whitespace."""
    fixed = _SURROGATE.sub("\ufffd", text)
    return "".join(ch for ch in fixed if ch.isspace() or unicodedata.category(ch) != "Cc")


def squash(text: str) -> str:
    """Whitespace runs (newlines included) as single spaces, ends trimmed."""
    return " ".join(text.split())


def squash_inside(text: str) -> str:
    """Whitespace runs as single spaces, keeping one at either end (runs are joined: the space
    in "Yesterday: " separates it from the next run)."""
    inner = squash(text)
    if not inner:
        return " " if text else ""
    head = " " if text[0].isspace() else ""
    tail = " " if text[-1].isspace() else ""
    return head + inner + tail


def paragraphs(text: str) -> str:
    """Paragraphs kept apart by one blank line, each with its whitespace squashed."""
    kept = (squash(p) for p in _PARAGRAPH_BREAK.split(text))
    return "\n\n".join(p for p in kept if p)


def _extends(ch: str) -> bool:
    """Whether a character belongs to the grapheme before it: combining marks, ZWJ, variation
    selectors, skin tones, emoji tags, Hangul vowel and final jamo."""
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or ch == ZWJ
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0100 <= cp <= 0xE01EF
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
        or 0x1160 <= cp <= 0x11FF
        or 0xD7B0 <= cp <= 0xD7FF
    )


def _regional(ch: str) -> bool:
    """Whether a character is a regional indicator (two make a flag)."""
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def boundary(*, text: str, at: int) -> bool:
    """Whether text may be cut before index `at` without splitting a grapheme (an approximation
    of Unicode's extended grapheme clusters that covers emoji sequences, flags and accents)."""
    if at <= 0 or at >= len(text):
        return True
    before, after = text[at - 1], text[at]
    if _extends(after) or before == ZWJ or (before, after) == ("\r", "\n"):
        return False
    if _regional(before) and _regional(after):
        run = 0
        while at - run - 1 >= 0 and _regional(text[at - run - 1]):
            run += 1
        return run % 2 == 0
    return True


def _trim_end(text: str) -> str:
    """Text without trailing whitespace and commas, which read badly before "…"."""
    trimmed = text.rstrip()
    while trimmed.endswith(","):
        trimmed = trimmed[:-1].rstrip()
    return trimmed


def clip(*, text: str, limit: int) -> str:
    """At most `limit` units, cut at a word boundary (or at least a grapheme's) and ended with
    "…" when cut."""
    if size(text) <= limit:
        return text
    if limit <= 1:
        return ELLIPSIS[: max(limit, 0)]
    end = used = 0
    for ch in text:
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > limit - 1:
            break
        end += 1
    while end > 0 and not boundary(text=text, at=end):
        end -= 1
    head = text[:end]
    if not text[end].isspace():
        cut = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
        if cut >= end // 2 and boundary(text=text, at=cut):  # not too far back; else cut the word
            head = head[:cut]
    return _trim_end(head) + ELLIPSIS


def _escape_one(match: re.Match[str]) -> str:
    """One character as Discord shows it literally (see the module docstring)."""
    if match.group("at"):
        return "@" + ZWSP
    mark = match.group(0)
    if mark == "<" and _TOKEN_START.match(match.string, match.end()):
        return "\\<" + ZWSP
    return "\\" + mark


def escape(text: str) -> str:
    """Text as inert Discord markdown: every character shown, none of it markup, ping, token,
    link or invite (no clipping, no cleaning: see data())."""
    return _NUMBERED.sub(r"\1\\.", _ESCAPED.sub(_escape_one, text))


def inert(text: str) -> str:
    """Text for a field Discord shows without markdown (a footer): only what its server reads
    in raw text is broken up, by zero-width spaces, since a backslash would show there."""
    return _INERT.sub(ZWSP, text)


def unpinged(text: str) -> str:
    """Text for a field Discord shows as typed and never pings from (a scheduled event's name
    or location): only mentions and tokens are broken up, by zero-width spaces; links stay
    whole, since a meeting's place is often one."""
    return _UNPINGED.sub(ZWSP, text)


def data(*, text: str, limit: int, squashed: bool = True) -> str:
    """Data as inert markdown within `limit` units: cleaned, whitespace squashed unless told,
    clipped before it is escaped, so no cut ever falls inside an escape."""
    raw = clean(text)
    raw = squash_inside(raw) if squashed else raw
    budget = limit
    while budget > 0:
        out = escape(clip(text=raw, limit=budget))
        if size(out) <= limit:
            return out
        # Escapes grow the text unevenly (a backslash here, a zero-width space there).
        budget = min(budget - 1, budget * limit // size(out))
    return ""
