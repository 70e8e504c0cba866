"""What a Slack user sees of a message the bot posts: a test-side model of Slack's mrkdwn, so a
test can assert, on what a fake Slack server received, that nothing pings, no disguised link
renders and every character a person typed is still visible.

Slack publishes no grammar for mrkdwn; this model is an assumption, stated here in full.

Entities and tokens
  `&amp;`, `&lt;` and `&gt;` are decoded exactly once (`&amp;lt;` shows "&lt;"); no other
  entity is decoded. A literal `<…>` with no `<` or `>` inside is a token, shown as:
  `<#C1>` "#C1" (placeholder for the channel's name; `<#C1|name>` "#name"); `<@U1>` "@U1",
  a ping (any `@` id: users, `W` ids, bots); `<!here>`, `<!channel>`, `<!everyone>` and
  `<!subteam^S1>` "@here", "@channel", "@everyone", "@S1", pings; other `<!…|fallback>`
  (dates) their fallback; anything else a link, `<url|label>` showing its label and `<url>`
  its URL. Escaped brackets are never tokens: `&lt;!channel&gt;` shows "<!channel>" and pings
  nobody. Bare http(s) URLs outside tokens and code are auto-linked (label None); one ends at
  whitespace, `<`, `>` or U+200B, without trailing `.,:;!?)]}'"`.

Formatting
  `*x*` bold, `_x_` italic, `~x~` strike, `` `x` `` code, each within one line. An opening
  marker counts only when preceded by start of text, whitespace, U+200B or a BOUNDARY
  character and followed by a character that is not whitespace; a closing marker only when
  preceded by a character that is not whitespace and followed by end of text, whitespace,
  U+200B or a BOUNDARY character. U+200B is a word boundary that lets formatting start
  mid-word (jsx-slack's "exact mode" relies on it), so fencing a marker with U+200B does NOT
  neutralise it; the bot shows a literal marker as a date token's fallback instead, which
  Slack renders as plain text. Code spans are found first, left to right together with
  tokens: inside one nothing is formatted and no token is parsed, only entities are decoded.
  ```` ```x``` ```` is preformatted ("pre", may span lines). Consumed markers are not in the
  visible text.

Quotes
  A line starting with `&gt;` (or `>`, or three of either) followed by something is a quote:
  the marker and one space after it are consumed ("quote", the rest of the line). This is how
  a typed ">" reaches Slack, so it is how Slack reads the bot's escaped `&gt;` too.

Not modelled: emoji shortcodes, full-width markers ("＊", "＿", "｀", the quote "＞"), lists,
a `&gt;&gt;&gt;` quote running past its line, and whatever else Slack's clients do beyond the
above. U+200B is invisible and dropped from every visible text, and so is the soft hyphen
U+00AD.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

ZWSP = "\u200b"
SOFT_HYPHEN = "\u00ad"  # invisible too: the bot puts one before a ">" that could start a quote
ELLIPSIS = "…"
CLIP_MIN = 40  # a clipped text must show at least this much of itself (or all of it)
KINDS = {"*": "bold", "_": "italic", "~": "strike"}
BOUNDARY = frozenset("()[]{}\"',.:;!?-/&<>|*_~`")
SPECIAL_PINGS = frozenset({"here", "channel", "everyone", "subteam"})

_ENTITY = re.compile(r"&(amp|lt|gt);")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">"}
_TOKEN = re.compile(r"<([^<>]+)>")
_QUOTE = re.compile(r"(?:&gt;&gt;&gt;|>>>|&gt;|>) ?")
_BARE_URL = re.compile(r"https?://[^\s<>\u200b]+", re.IGNORECASE)
_URL_TAIL = ".,:;!?)]}'\""
_SCHEME_HOST = re.compile(r"[a-z][\w+.-]*://[^\s/?#<>|]+", re.IGNORECASE)
# A domain in a label; not one inside a path or an address ("doi:10.1016/j.cell" is no domain).
_DOMAIN = re.compile(r"(?<![\w/.@%-])((?:[\w-]+\.)+[a-z]{2,})(?![\w-])", re.IGNORECASE)
_MENTION = re.compile(r"(?<![\w@.])@(\w[\w.-]*\w|\w)")
_SPECIAL_MENTION = re.compile(r"(?<![\w@.])@(here|channel|everyone)\b")
_FALSE = frozenset({"", "0", "false", "none", "no"})


@dataclass(frozen=True)
class Link:
    """A link Slack renders: its target and, when it has one, the label shown instead."""

    url: str
    label: str | None = None


@dataclass(frozen=True)
class View:
    """What a reader sees of a message: the text, and what in it pings, links and formats."""

    text: str
    pings: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    formatted: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class _Seg:
    """A stretch of the raw mrkdwn: plain text, a token, a code span or a quote marker."""

    start: int
    end: int
    kind: str  # "text", "token", "code", "pre" or "quote"
    shown: str = ""  # what a token or code span shows; text is rendered from the raw string
    ping: str | None = None
    link: Link | None = None


def _decode(text: str) -> str:
    """Slack's three entities decoded, once."""
    return _ENTITY.sub(lambda m: _ENTITIES[m.group(1)], text)


def _opens(raw: str, i: int) -> bool:
    """Whether the marker at i may open a span."""
    before = raw[i - 1] if i else " "
    after = raw[i + 1] if i + 1 < len(raw) else " "
    return (before.isspace() or before in BOUNDARY or before == ZWSP) and not after.isspace()


def _closes(raw: str, j: int) -> bool:
    """Whether the marker at j may close a span."""
    before = raw[j - 1] if j else " "
    after = raw[j + 1] if j + 1 < len(raw) else " "
    return not before.isspace() and (after.isspace() or after in BOUNDARY or after == ZWSP)


def _closing(raw: str, i: int, plain: Sequence[bool] | None = None) -> int | None:
    """Where the span opened at i closes on the same line (at a plain position), if anywhere."""
    for j in range(i + 2, len(raw)):
        if raw[j] == "\n":
            return None
        if raw[j] == raw[i] and (plain is None or plain[j]) and _closes(raw, j):
            return j
    return None


def _special(*, name: str, rest: str, label: str) -> tuple[str, bool]:
    """What a `<!name^rest|label>` token shows, and whether it pings."""
    if name.lower() not in SPECIAL_PINGS:
        return label, False
    who = label or (rest.split("^")[0] if name.lower() == "subteam" else name)
    return "@" + who.removeprefix("@"), True


def _token(match: re.Match[str]) -> _Seg:
    """One `<…>` token as Slack shows it."""
    token = match.group(0)
    target, _, raw_label = match.group(1).partition("|")
    label = _decode(raw_label)
    seg = _Seg(match.start(), match.end(), "token")
    if target.startswith("#"):
        return replace(seg, shown="#" + (label or target[1:]))
    if target.startswith("@"):
        return replace(seg, shown="@" + (label or target[1:]).removeprefix("@"), ping=token)
    if target.startswith("!"):
        name, _, rest = target[1:].partition("^")
        shown, pings = _special(name=name, rest=rest, label=label)
        return replace(seg, shown=shown, ping=token if pings else None)
    url = _decode(target)
    return replace(seg, shown=label or url, link=Link(url=url, label=label or None))


def _line_end(raw: str, i: int) -> int:
    """Index of the newline ending the line at i, or the end of the text."""
    end = raw.find("\n", i)
    return len(raw) if end == -1 else end


def _at(raw: str, i: int) -> _Seg | None:
    """The quote marker, token or code span starting at i, if one does."""
    quote = _QUOTE.match(raw, i) if i == 0 or raw[i - 1] == "\n" else None
    if quote and raw[quote.end() : _line_end(raw, i)].strip():
        return _Seg(i, quote.end(), "quote")
    if raw[i] == "<" and (token := _TOKEN.match(raw, i)):
        return _token(token)
    if raw.startswith("```", i) and (end := raw.find("```", i + 3)) != -1:
        return _Seg(i, end + 3, "pre", shown=_decode(raw[i + 3 : end]))
    if raw[i] == "`" and _opens(raw, i) and (close := _closing(raw, i)) is not None:
        return _Seg(i, close + 1, "code", shown=_decode(raw[i + 1 : close]))
    return None


def _lex(raw: str) -> list[_Seg]:
    """The raw mrkdwn as segments, left to right."""
    segs: list[_Seg] = []
    i = text_start = 0
    while i < len(raw):
        seg = _at(raw, i)
        if seg is None:
            i += 1
            continue
        if text_start < seg.start:
            segs.append(_Seg(text_start, seg.start, "text"))
        segs.append(seg)
        i = text_start = seg.end
    if text_start < len(raw):
        segs.append(_Seg(text_start, len(raw), "text"))
    return segs


def _pairs(raw: str, segs: Sequence[_Seg]) -> list[tuple[str, int, int]]:
    """(kind, opening index, closing index) of each bold, italic and strike span."""
    plain = [False] * len(raw)
    for seg in segs:
        if seg.kind == "text":
            plain[seg.start : seg.end] = [True] * (seg.end - seg.start)
    found: list[tuple[str, int, int]] = []
    for marker, kind in KINDS.items():
        i = 0
        while i < len(raw):
            opens = plain[i] and raw[i] == marker and _opens(raw, i)
            j = _closing(raw, i, plain) if opens else None
            if j is not None:
                found.append((kind, i, j))
            i = i + 1 if j is None else j + 1
    return found


def _render(raw: str, segs: Iterable[_Seg], consumed: set[int], lo: int, hi: int) -> str:
    """What Slack shows of raw[lo:hi], U+200B kept: markers consumed, entities decoded."""
    out: list[str] = []
    for seg in segs:
        if seg.end <= lo or seg.start >= hi:
            continue
        if seg.kind != "text":
            out.append(seg.shown)
            continue
        kept = (raw[k] for k in range(max(lo, seg.start), min(hi, seg.end)) if k not in consumed)
        out.append(_decode("".join(kept)))
    return "".join(out)


def _bare_urls(text: str) -> list[str]:
    """The http(s) URLs Slack would auto-link in text."""
    return [m.group(0).rstrip(_URL_TAIL) for m in _BARE_URL.finditer(text)]


def _links(raw: str, segs: Sequence[_Seg], consumed: set[int]) -> Iterator[Link]:
    """Token links and auto-linked bare URLs, in order."""
    for seg in segs:
        if seg.link is not None:
            yield seg.link
        elif seg.kind == "text":
            shown = _render(raw, [seg], consumed, seg.start, seg.end)
            yield from (Link(url=url) for url in _bare_urls(shown))


def _spans(
    raw: str, segs: Sequence[_Seg], pairs: Sequence[tuple[str, int, int]]
) -> list[tuple[str, str]]:
    """(kind, inner visible text) of every formatted span, in order of its start."""
    consumed = {k for _, i, j in pairs for k in (i, j)}
    spans = [(i, kind, _render(raw, segs, consumed, i + 1, j)) for kind, i, j in pairs]
    for seg in segs:
        if seg.kind in ("code", "pre"):
            spans.append((seg.start, seg.kind, seg.shown))
        elif seg.kind == "quote":
            inner = _render(raw, segs, consumed, seg.end, _line_end(raw, seg.end))
            spans.append((seg.start, "quote", inner))
    return [
        (kind, inner.replace(ZWSP, "").replace(SOFT_HYPHEN, "")) for _, kind, inner in sorted(spans)
    ]


def view(*, mrkdwn: str) -> View:
    """One mrkdwn string as a Slack reader sees it (see the module docstring for the model)."""
    segs = _lex(mrkdwn)
    pairs = _pairs(mrkdwn, segs)
    consumed = {k for _, i, j in pairs for k in (i, j)}
    return View(
        text=_render(mrkdwn, segs, consumed, 0, len(mrkdwn))
        .replace(ZWSP, "")
        .replace(SOFT_HYPHEN, ""),
        pings=tuple(seg.ping for seg in segs if seg.ping is not None),
        links=tuple(_links(mrkdwn, segs, consumed)),
        formatted=tuple(_spans(mrkdwn, segs, pairs)),
    )


def _plain(*, text: str) -> View:
    """A plain_text object: shown literally (bare URLs still taken for links, to be safe)."""
    return View(
        text=text.replace(ZWSP, "").replace(SOFT_HYPHEN, ""),
        links=tuple(Link(url=u) for u in _bare_urls(text)),
    )


def _text_object(obj: Mapping[str, Any]) -> View:
    """A Block Kit text object as seen."""
    if obj.get("type") == "plain_text":
        return _plain(text=str(obj.get("text", "")))
    return view(mrkdwn=str(obj.get("text", "")))


def _block_texts(block: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The text objects of one block that a reader sees; an unknown block type is an error."""
    kind = block.get("type")
    if kind == "section":
        accessory = block.get("accessory") or {}
        found = [block.get("text"), *block.get("fields", ()), accessory.get("text")]
        return [obj for obj in found if obj]
    if kind == "context":
        return [e for e in block.get("elements", ()) if e.get("type") in ("mrkdwn", "plain_text")]
    if kind == "header":
        return [block["text"]]
    if kind == "actions":
        return [e["text"] for e in block.get("elements", ()) if e.get("text")]
    if kind in ("divider", "image"):
        return [block["title"]] if block.get("title") else []
    raise ValueError(f"slack_view has no model of a {kind!r} block")


def _union(views: Sequence[View]) -> View:
    """Views shown one after another: texts on separate lines, everything else combined."""
    return View(
        text="\n".join(v.text for v in views),
        pings=tuple(dict.fromkeys(p for v in views for p in v.pings)),
        links=tuple(dict.fromkeys(link for v in views for link in v.links)),
        formatted=tuple(dict.fromkeys(f for v in views for f in v.formatted)),
    )


def blocks_view(*, blocks: Sequence[Mapping[str, Any]], text: str | None) -> View:
    """A Block Kit message (blocks and the mrkdwn `text` fallback) as seen, all of it at once."""
    views = [_text_object(obj) for block in blocks for obj in _block_texts(block)]
    if text:
        views.append(view(mrkdwn=text))
    return _union(views)


def _blocks_of(payload: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A payload's blocks, whether sent as a list or as a JSON string (form-encoded calls)."""
    blocks = payload.get("blocks") or []
    return list(json.loads(blocks) if isinstance(blocks, str) else blocks)


def _truthy(value: object) -> bool:
    """Whether Slack takes a flag as set (True, 1, "1", "true")."""
    return value is not None and str(value).strip().lower() not in _FALSE


def _parsed_objects(blocks: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The mrkdwn text objects without `verbatim: true`, which Slack parses for mentions."""
    return [
        obj
        for block in blocks
        for obj in _block_texts(block)
        if obj.get("type") == "mrkdwn" and not obj.get("verbatim")
    ]


def payload_pings(*, payload: Mapping[str, Any]) -> list[str]:
    """Everything a chat.postMessage-style payload pings: its tokens and, with `link_names` or
    `parse: "full"`, any plain "@name" (also "@here", "@channel", "@everyone" in mrkdwn objects
    without `verbatim: true`, which Slack may parse)."""
    blocks = _blocks_of(payload)
    seen = blocks_view(blocks=blocks, text=payload.get("text"))
    pings = list(seen.pings)
    if _truthy(payload.get("link_names")) or payload.get("parse") == "full":
        pings += ["@" + m.group(1) for m in _MENTION.finditer(seen.text)]
    for obj in _parsed_objects(blocks):
        pings += ["@" + m.group(1) for m in _SPECIAL_MENTION.finditer(_text_object(obj).text)]
    return list(dict.fromkeys(pings))


def _host(url: str) -> str | None:
    """The host a URL points at (one without a scheme is read as http), lower-case."""
    url = url.strip()
    try:
        return urlsplit(url if "://" in url else "http://" + url).hostname or None
    except ValueError:
        return None


def _within(host: str, site: str) -> bool:
    """Whether host is site or one of its subdomains."""
    return host == site or host.endswith("." + site)


def _label_hosts(label: str) -> list[str | None]:
    """The hosts a label names, as URLs (`scheme://host…`) or as domains ("evil.example")."""
    hosts = [_host(m.group(0)) for m in _SCHEME_HOST.finditer(label)]
    return hosts + [m.group(1).lower() for m in _DOMAIN.finditer(label)]


def _disguises(link: Link) -> bool:
    """Whether a link's label reads as a URL or domain elsewhere than where it goes."""
    if link.label is None or link.label == link.url:
        return False
    hosts = _label_hosts(link.label)
    if "://" not in link.label and not hosts:
        return False
    target = _host(link.url)
    return not hosts or any(
        host is None or target is None or not (_within(host, target) or _within(target, host))
        for host in hosts
    )


def disguised(*, view: View) -> list[Link]:
    """Links whose label looks like a URL or domain with another host than the link's own."""
    return [link for link in view.links if _disguises(link)]


def links_to(*, view: View, host: str) -> list[Link]:
    """Links that go to host or one of its subdomains."""
    site = host.lower()
    return [link for link in view.links if (h := _host(link.url)) and _within(h, site)]


def _squash(text: str) -> str:
    """Whitespace runs as single spaces, ends trimmed (as the bot squashes titles)."""
    return " ".join(text.split())


def _clipped_at(*, want: str, seen: str, end: int, least: int) -> bool:
    """Whether a prefix of want, at least `least` long, ends right at seen[end]."""
    return any(seen[end - k : end] == want[:k] for k in range(least, min(len(want), end) + 1))


def shows(*, typed: str, visible: str) -> bool:
    """Whether what a person typed is visible: whitespace runs squashed on both sides (U+200B,
    invisible anyway, dropped from typed), typed is in visible, or it was clipped: a prefix of
    it, intact and at least min(len(typed), CLIP_MIN) characters long, appears right before an
    "…". Only that prefix is checked; what precedes it in visible may be anything."""
    want = _squash(typed.replace(ZWSP, "").replace(SOFT_HYPHEN, ""))
    seen = _squash(visible)
    if want in seen:
        return True
    least = min(len(want), CLIP_MIN)
    ends = (i for i, ch in enumerate(seen) if ch == ELLIPSIS)
    return any(_clipped_at(want=want, seen=seen, end=end, least=least) for end in ends)
