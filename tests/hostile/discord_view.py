"""What a Discord user sees of a message the bot sends: a test-side model of how Discord reads
a message payload (content, embeds, components), so a test can assert, on what a fake Discord
received, that nothing pings, no masked link hides a target that is not ours, no invite or
preview comes of data, and every character a person typed is still visible.

Discord publishes no grammar for its markdown; this model is an assumption, stated in full.

Where text is read
  Markdown: the content, an embed's title, description, field names and values (Discord draws
  less in titles; reading them as full markdown over-approximates). Plain text, shown as it
  is: an embed's footer and author name, button and select labels. An embed's `url` links its
  title (a masked link labelled with the title), `author.url` the author's name, a link button
  (style 5) its label. Any other embed key or component type is an error, not unseen text.

Server side, on the raw text of every part (a backslash means nothing there)
  Pings: "@everyone" and "@here" (any case: over-approximated), `<@id>`, `<@!id>`, `<@&id>`.
  Invites: "discord.gg/", "discord.gift/", "discord.new/" and "discord(app).com/invite/",
  "/gifts/", "/template/" anywhere. Previews: an http(s) or steam URL not right after "<"
  (ending at whitespace, "<" or ">", without trailing `.,:;!?)]}'"`), in the content only
  (embeds never unfurl). allowed_mentions `{"parse": []}` stops every
  notification, but a role or a stranger drawn as a mention is still a ping to the reader:
  pings() lets only the people the caller names through, as `<@id>` (the bot's PersonRef).

Client side, markdown, left to right
  A backslash before a character that is neither a letter, a digit nor whitespace shows that
  character and nothing else. A run of n backticks opens a code span closed by the next run
  of exactly n; inside it nothing is parsed, and a space that only keeps a backtick off the
  fence is dropped. `<@id>`, `<@!id>`, `<@&id>` are mentions, shown "@id"; `<#id>`, `<t:…>`,
  `<:name:id>`, `<a:name:id>`, `</name:id>`, `<id:…>` tokens, shown as they are; `<url>` (an
  http(s) or steam URL) an autolink showing its URL; `[label](url)` and `[label](<url>)` with
  an http(s) URL masked links showing the label (itself parsed); a bare URL a link showing
  itself. At a line start "# ", "## ", "### " make a heading, "-# " subtext, "> " and ">>> " a
  quote, "- ", "* ", "+ " and "1. " (spaces before allowed) a list item: the marker is not
  seen. Unescaped `**`, `__`, `~~`, `||` pairs are bold, underline, strike and spoiler, `*x*`
  and `_x_` italic (over-approximated: any later unescaped marker closes, across lines too);
  their markers are not seen. Unescaped markup characters nothing consumed are "loose".

Not modelled: emoji shortcodes, nested brackets in labels, tables, and names: a mention shows
its id. U+200B and the soft hyphen are invisible and dropped from every visible text.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from tests.hostile import slack_view
from tests.hostile.slack_view import Link, shows

__all__ = [
    "Link",
    "View",
    "disguised",
    "hidden",
    "links_to",
    "locked",
    "payload_view",
    "pings",
    "plain",
    "shows",
    "view",
]

ZWSP = "\u200b"
SOFT_HYPHEN = "\u00ad"
LINK_BUTTON = 5
# The URLs the bot may hide behind words (bot/discord/links.py), restated here so the check
# does not trust the code it checks: host -> the path every such URL starts with.
OURS = {"arxiv.org": "/abs/", "doi.org": "/", "discord.com": "/channels/"}
EMBED_KEYS = frozenset(
    {"title", "description", "url", "footer", "author", "fields", "type", "color", "timestamp"}
    | {"image", "thumbnail", "video", "provider"}
)

_SERVER_PING = re.compile(r"@(?:everyone|here)|<@[!&]?\d+>", re.IGNORECASE)
_SERVER_URL = re.compile(r"(?<!<)(?:https?|steam)://[^\s<>]+", re.IGNORECASE)
_URL_TAIL = ".,:;!?)]}'\""
_INVITE = re.compile(
    r"discord(?:app)?\.(?:gg|gift|new|com/(?:invite|gifts?|template))/", re.IGNORECASE
)
_ESCAPE = re.compile(r"\\([^0-9A-Za-z\s])")
_MENTION = re.compile(r"<@[!&]?(\d+)>")
_TOKEN = re.compile(r"<#\d+>|<t:-?\d+(?::[tTdDfFR])?>|<a?:\w+:\d+>|</[\w -]+:\d+>|<id:\w+>")
_AUTOLINK = re.compile(r"<((?:https?|steam)://[^\s>]+)>", re.IGNORECASE)
_MASKED = re.compile(
    r"\[((?:\\[\s\S]|[^\\\[\]])*)\]\(\s*(<)?(https?://[^\s<>()]+?)(?(2)>)\s*\)", re.IGNORECASE
)
_BARE = re.compile(r"(?:https?|steam)://[^\s<]+[^<.,:;\"')\]\s]", re.IGNORECASE)
_EVERYONE = re.compile(r"@(?:everyone|here)", re.IGNORECASE)
_BLOCK = re.compile(r"(>>> |> |#{1,3} |-# |[ \t]*(?:[-*+]|\d+\.) )")
_PAIRS = (
    ("bold", re.compile(r"\*\*(?=[^*])(.+?)\*\*", re.DOTALL)),
    ("underline", re.compile(r"__(.+?)__", re.DOTALL)),
    ("strike", re.compile(r"~~(.+?)~~", re.DOTALL)),
    ("spoiler", re.compile(r"\|\|(.+?)\|\|", re.DOTALL)),
    ("italic", re.compile(r"\*(?=\S)(.+?)(?<=\S)\*", re.DOTALL)),
    ("italic", re.compile(r"_(.+?)_", re.DOTALL)),
)
_MARKERS = "*_~|"
_LOOSE = frozenset("*_~|`<>[]")


@dataclass(frozen=True)
class View:
    """What a reader sees of a message, and what in it is more than text."""

    text: str
    pings: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    previews: tuple[str, ...] = ()
    invites: tuple[str, ...] = ()
    formatted: tuple[tuple[str, str], ...] = ()
    loose: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Item:
    """One visible piece: a character (`raw`: unescaped, so maybe markup) or a parsed segment."""

    shown: str
    raw: bool = False


def _visible(text: str) -> str:
    """Text without the characters nobody sees."""
    return text.replace(ZWSP, "").replace(SOFT_HYPHEN, "")


def _server(raw: str) -> View:
    """The pings, invites and previews Discord's server finds in raw text (nothing visible)."""
    return View(
        text="",
        pings=tuple(_SERVER_PING.findall(raw)),
        invites=tuple(m.group(0) for m in _INVITE.finditer(raw)),
        previews=tuple(m.rstrip(_URL_TAIL) for m in _SERVER_URL.findall(raw)),
    )


def _block(*, raw: str, i: int) -> tuple[str, int] | None:
    """The line-start marker at i, as (kind, end), if one is there."""
    if i and raw[i - 1] != "\n":
        return None
    found = _BLOCK.match(raw, i)
    if not found:
        return None
    mark = found.group(1).strip()
    kinds = {">": "quote", ">>>": "quote", "-#": "subtext"}
    kind = kinds.get(mark) or ("heading" if mark.startswith("#") else "list")
    return kind, found.end()


def _code(*, raw: str, i: int) -> tuple[View, int] | None:
    """The code span at i (nothing inside it parsed), if one opens there."""
    n = len(raw[i:]) - len(raw[i:].lstrip("`"))
    close = re.compile(r"(?<!`)" + "`" * n + r"(?!`)").search(raw, i + n)
    if not close or close.start() == i + n:
        return None
    inner = re.sub(r"^ (?= *`)|(` *) $", r"\1", raw[i + n : close.start()])
    return View(text=inner, formatted=(("code", _visible(inner)),)), close.end()


def _segment(*, raw: str, i: int) -> tuple[View, int] | None:
    """The code span, mention, token or link at i: what it shows, and where it ends."""
    if raw[i] == "`":
        return _code(raw=raw, i=i)
    if found := _MENTION.match(raw, i):
        return View(text="@" + found.group(1), pings=(found.group(0),)), found.end()
    if found := _TOKEN.match(raw, i):
        return View(text=found.group(0), tokens=(found.group(0),)), found.end()
    if found := _AUTOLINK.match(raw, i):
        return View(text=found.group(1), links=(Link(url=found.group(1)),)), found.end()
    if found := _MASKED.match(raw, i):
        label = view(markdown=found.group(1))
        masked = Link(url=found.group(3), label=label.text)
        return replace(label, links=(*label.links, masked), previews=()), found.end()
    if found := _BARE.match(raw, i):
        return View(text=found.group(0), links=(Link(url=found.group(0)),)), found.end()
    if found := _EVERYONE.match(raw, i):
        return View(text=found.group(0), pings=(found.group(0),)), found.end()
    return None


def _pair(items: Sequence[_Item]) -> tuple[set[int], list[tuple[str, str]]]:
    """(indexes of consumed markers, (kind, inner text) of each span) of the emphasis pairs."""
    marks = "".join(
        it.shown if it.raw and it.shown in _MARKERS else " " if it.shown.isspace() else "x"
        for it in items
    )
    used: set[int] = set()
    spans: list[tuple[str, str]] = []
    for kind, pattern in _PAIRS:
        for pair in pattern.finditer(marks):
            opened, closed = pair.start(1), pair.end(1)
            width = opened - pair.start()
            spans.append((kind, _visible("".join(it.shown for it in items[opened:closed]))))
            used.update(range(pair.start(), opened))
            used.update(range(closed, closed + width))
        marks = "".join("m" if k in used else c for k, c in enumerate(marks))
    return used, spans


def _joined(parts: Iterable[View], *, text: str) -> View:
    """Views combined: `text` as given, everything else in order."""
    seen = list(parts)
    return View(
        text=text,
        pings=tuple(p for v in seen for p in v.pings),
        tokens=tuple(t for v in seen for t in v.tokens),
        links=tuple(link for v in seen for link in v.links),
        previews=tuple(p for v in seen for p in v.previews),
        invites=tuple(i for v in seen for i in v.invites),
        formatted=tuple(f for v in seen for f in v.formatted),
        loose=tuple(x for v in seen for x in v.loose),
    )


def view(*, markdown: str) -> View:
    """One markdown text as a Discord reader sees it, and what its server reads in it."""
    items: list[_Item] = []
    parts: list[View] = []
    blocks: list[tuple[str, str]] = []
    i = 0
    while i < len(markdown):
        if block := _block(raw=markdown, i=i):
            end = markdown.find("\n", block[1])
            inner = view(markdown=markdown[block[1] : None if end < 0 else end]).text
            blocks.append((block[0], inner))
            i = block[1]
        elif escaped := _ESCAPE.match(markdown, i):
            items.append(_Item(escaped.group(1)))
            i = escaped.end()
        elif segment := _segment(raw=markdown, i=i):
            parts.append(replace(segment[0], previews=()))
            items.append(_Item(segment[0].text))
            i = segment[1]
        else:
            items.append(_Item(markdown[i], raw=True))
            i += 1
    used, spans = _pair(items)
    shown = "".join(it.shown for k, it in enumerate(items) if k not in used)
    loose = tuple(
        it.shown for k, it in enumerate(items) if it.raw and it.shown in _LOOSE and k not in used
    )
    server = _server(markdown)
    client = _joined(parts, text="")
    return replace(
        client,
        text=_visible(shown),
        pings=tuple(dict.fromkeys((*client.pings, *server.pings))),
        invites=server.invites,
        previews=server.previews,
        formatted=(*blocks, *spans, *client.formatted),
        loose=(*loose, *client.loose),
    )


def plain(*, text: str) -> View:
    """A text Discord shows as it is (a footer, a label, a thread name): no markup, no links;
    what its server would read in it is still reported, previews aside."""
    return replace(_server(text), text=_visible(text), previews=())


def _embed(embed: Mapping[str, Any]) -> list[View]:
    """The views of one embed's texts, its title and author links included."""
    unknown = set(embed) - EMBED_KEYS
    if unknown:
        raise ValueError(f"discord_view has no model of embed keys {sorted(unknown)}")
    found: list[View] = []
    if "title" in embed:
        title = view(markdown=str(embed["title"]))
        links = (Link(url=str(embed["url"]), label=title.text),) if embed.get("url") else ()
        found.append(replace(title, links=(*title.links, *links)))
    if "description" in embed:
        found.append(view(markdown=str(embed["description"])))
    for field in embed.get("fields") or ():
        found += [view(markdown=str(field.get("name", ""))), view(markdown=str(field["value"]))]
    if author := embed.get("author"):
        name = plain(text=str(author.get("name", "")))
        links = (Link(url=str(author["url"]), label=name.text),) if author.get("url") else ()
        found.append(replace(name, links=links))
    if footer := embed.get("footer"):
        found.append(plain(text=str(footer.get("text", ""))))
    return [replace(v, previews=()) for v in found]  # embeds never unfurl


def _component(item: Mapping[str, Any]) -> list[View]:
    """The views of one component (an action row: of each item in it)."""
    kind = item.get("type")
    if kind == 1:
        return [v for inner in item.get("components") or () for v in _component(inner)]
    if kind == 2:
        label = plain(text=str(item.get("label") or ""))
        if item.get("style") == LINK_BUTTON:
            return [replace(label, links=(Link(url=str(item["url"]), label=label.text),))]
        return [label]
    if kind == 3:
        texts = [item.get("placeholder") or ""]
        texts += [
            o.get(k) or "" for o in item.get("options") or () for k in ("label", "description")
        ]
        return [plain(text=str(t)) for t in texts if t]
    raise ValueError(f"discord_view has no model of a component of type {kind!r}")


def payload_view(*, payload: Mapping[str, Any]) -> View:
    """A message payload (a request body or a stored message) as seen, all of it at once: its
    parts' texts on separate lines, in order: content, embeds, components."""
    parts: list[View] = []
    if payload.get("content"):
        parts.append(view(markdown=str(payload["content"])))
    for embed in payload.get("embeds") or ():
        parts += _embed(embed)
    for row in payload.get("components") or ():
        parts += _component(row)
    return _joined(parts, text="\n".join(v.text for v in parts))


def locked(*, payload: Mapping[str, Any]) -> bool:
    """Whether a request body's allowed_mentions lets nobody be notified: parse empty, no
    listed users or roles, no ping of a replied-to author."""
    allowed = payload.get("allowed_mentions")
    if not isinstance(allowed, Mapping) or allowed.get("parse") != []:
        return False
    return not (allowed.get("users") or allowed.get("roles") or allowed.get("replied_user"))


def pings(*, view: View, people: Collection[str] = ()) -> list[str]:
    """What pings (or is drawn as a mention): everything but `<@id>` of the people named."""
    return [p for p in view.pings if p.removeprefix("<@").removesuffix(">") not in people]


def _ours(url: str) -> bool:
    """Whether a URL is one the bot may hide behind words (see OURS)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return False
    prefix = OURS.get(parts.hostname or "")
    return (
        parts.scheme == "https"
        and prefix is not None
        and port is None
        and not parts.username
        and parts.path.startswith(prefix)
    )


def hidden(*, view: View, vouched: Collection[str] = ()) -> list[Link]:
    """Masked links (a label other than the URL itself) to a target that is neither ours nor
    one of the `vouched` URLs (a daily post's own paper URL)."""
    return [
        link
        for link in view.links
        if link.label is not None
        and link.label != link.url
        and not (_ours(link.url) or link.url in vouched)
    ]


def disguised(*, view: View) -> list[Link]:
    """Links whose label reads as a URL or domain on another host than the link's own."""
    return slack_view.disguised(view=slack_view.View(text=view.text, links=view.links))


def links_to(*, view: View, host: str) -> list[Link]:
    """Links that go to host or one of its subdomains."""
    return slack_view.links_to(view=slack_view.View(text=view.text, links=view.links), host=host)
