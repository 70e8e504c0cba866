"""The Discord renderer: hostile data through every message and the daily post, read back by a
test-side model of how Discord reads a message, so a test can assert that nothing pings,
formats, unfurls or hides a link, that every character typed is still shown, and that
Discord's limits hold for any input.

The model (an assumption, stated in full; Discord publishes no grammar):

Server side, on the raw text, markdown or not: "@everyone" and "@here" are pings, so are
`<@id>`, `<@!id>` and `<@&id>`; an http(s) or steam URL not right after "<" is unfurled into a
preview; "discord.gg/…", "discord.gift/…", "discord.new/…" and "discord(app).com/invite|gifts|
template/…" are invites.

Client side, left to right: a backslash before a character that is neither a letter, a digit
nor whitespace shows that character and nothing else. A run of n backticks opens a code span
closed by the next run of exactly n; inside it nothing is parsed. `<@id>`, `<@!id>`, `<@&id>`
are mentions; `<#id>`, `<t:…>`, `<:name:id>`, `<a:name:id>`, `</name:id>` and `<id:…>` tokens;
`<scheme:/…>` an autolink showing its URL, without preview. `[label](url)` and `[label](<url>)`
are masked links showing the label (parsed the same way); the first unfurls. A bare URL is a
link showing itself. At a line start "# ", "## ", "### " make a heading, "-# " subtext,
"> " and ">>> " a quote, "- ", "* ", "+ " and "1. " (spaces before allowed) a list item.
Unescaped `**`, `__`, `~~`, `||` pairs are bold, underline, strike, spoiler; `*x*` and `_x_`
italic (over-approximated: any later unescaped marker closes, across lines too). Zero-width
spaces are invisible. Not modelled: emoji shortcodes, nested brackets in labels, tables.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.discord import embeds, render
from bot.discord.links import is_ours, safe_url
from bot.discord.markdown import boundary, clip, data, escape, size
from bot.domain import (
    HIGHLIGHT_CLOSE,
    HIGHLIGHT_OPEN,
    ChannelKey,
    PaperCard,
    Recap,
    SearchHit,
    SearchPage,
    TopEntry,
    VoteCount,
)
from bot.messages import (
    Button,
    Buttons,
    ChannelRef,
    Code,
    Divider,
    Link,
    Listing,
    Message,
    Paragraph,
    PersonRef,
    Run,
    Strong,
    When,
    line,
    message,
    runs,
)
from bot.wording import archive, replies
from bot.wording import post as post_words
from tests import cards
from tests.cards import make_paper
from tests.hostile.archive import COMMENT, HOSTILE, LONG_WORD, TITLES
from tests.hostile.slack_view import Link as SeenLink
from tests.hostile.slack_view import View, disguised, links_to, shows

PROPERTY = settings(
    database=None,
    deadline=None,
    derandomize=True,
    max_examples=120,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ZWSP = "\u200b"
SOFT_HYPHEN = "\xad"  # invisible, and dropped by shows() from what was typed
SNOWFLAKE = "123456789012345678"
PERMALINK = f"https://discord.com/channels/{SNOWFLAKE}/{SNOWFLAKE}/1"
CHANNEL = ChannelKey(platform="discord", workspace=SNOWFLAKE, channel=SNOWFLAKE)
DISCORD_HOSTILE = (
    "@everyone @here @Everyone <@123456789012345678> <@!123456789012345678> "
    "<@&123456789012345678> <#123456789012345678> <t:1700000000:R> <:wave:123456789012345678> "
    "<a:wave:1234> </paperclub add:1234> <id:home> https://evil.example/x steam://run/1 "
    "<https://evil.example> [x](https://evil.example) [x](<https://evil.example>) "
    "discord.gg/evil https://discord.gg/evil discord.com/invite/evil discordapp.com/invite/e "
    "**b** __u__ ~~s~~ ||spoiler|| *i* _i_ `c` ``c`` ```py x``` \\*not\\* a\\ "
)
LINE_STARTS = (
    "# h1",
    "## h2",
    "### h3",
    "-# sub",
    "> quote",
    ">>> quote",
    "- item",
    "* item",
    "+ item",
    "1. item",
    "10. item",
    "  2. item",
)
VALUES = (
    HOSTILE,
    *TITLES,
    COMMENT,
    LONG_WORD,
    f"Study 0: {HOSTILE} {LONG_WORD}",
    DISCORD_HOSTILE,
    *LINE_STARTS,
    "\n".join(LINE_STARTS),
    "\\",
    "🇩🇪👨‍👩‍👧‍👦 é́ <@1>",
    # Found by fuzzing: backticks at a code span's ends, invisible characters, heavy escaping.
    "`",
    "a` `b",
    "# \xad",
    "\u200b@everyone",
    "@everyone@everyone@everyone@here``````# @everyone@everyone<@1><@1>https://evil.example/x",
)
OUR_KINDS = {"bold", "code", "italic", "subtext"}


# --- the model of Discord -------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """What Discord makes of a text: what a reader sees and what in it is more than text."""

    text: str
    pings: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    links: tuple[SeenLink, ...] = ()
    previews: tuple[str, ...] = ()
    formatted: tuple[tuple[str, str], ...] = ()
    loose: tuple[str, ...] = ()  # unescaped markup characters nothing consumed


@dataclass(frozen=True)
class _Item:
    """One visible piece: a character (escaped or not) or a parsed segment."""

    shown: str
    raw: bool = False  # an unescaped character, which may be markup


_SERVER_PINGS = re.compile(r"@(?:everyone|here)|<@[!&]?\d+>")
_SERVER_URL = re.compile(r"(?<!<)(?:https?|steam)://\S+", re.IGNORECASE)
_INVITE = re.compile(
    r"discord(?:app)?\.(?:gg|gift|new|com/(?:invite|gifts?|template))/", re.IGNORECASE
)
_ESCAPE = re.compile(r"\\([^0-9A-Za-z\s])")
_MENTION = re.compile(r"<@[!&]?\d+>")
_TOKEN = re.compile(r"<#\d+>|<t:-?\d+(?::[tTdDfFR])?>|<a?:\w+:\d+>|</[\w -]+:\d+>|<id:\w+>")
_AUTOLINK = re.compile(r"<([^: >]+:/[^ >]+)>")
_MASKED = re.compile(r"\[((?:\\[\s\S]|[^\\\[\]])*)\]\(\s*(<)?([^\s<>()]+?)(?(2)>)\s*\)")
_BARE = re.compile(r"(?:https?|steam)://[^\s<]+[^<.,:;\"')\]\s]", re.IGNORECASE)
_EVERYONE = re.compile(r"@(?:everyone|here)")
_BLOCK = re.compile(r"(>>> |> |#{1,3} |-# |[ \t]*(?:[-*+]|\d+\.) )")
_BLOCK_KINDS = {">": "quote", "#": "heading", "-#": "subtext"}
_PAIRS = (
    ("bold", re.compile(r"\*\*(?=[^*])(.+?)\*\*", re.DOTALL)),
    ("underline", re.compile(r"__(.+?)__", re.DOTALL)),
    ("strike", re.compile(r"~~(.+?)~~", re.DOTALL)),
    ("spoiler", re.compile(r"\|\|(.+?)\|\|", re.DOTALL)),
    ("italic", re.compile(r"\*(?=\S)(.+?)(?<=\S)\*", re.DOTALL)),
    ("italic", re.compile(r"_(.+?)_", re.DOTALL)),
)
_LOOSE = set("*_~|`<>[]")


def _visible(text: str) -> str:
    """Text without the characters a reader cannot see."""
    return text.replace(ZWSP, "").replace(SOFT_HYPHEN, "")


def server(*, raw: str) -> tuple[list[str], list[str], list[str]]:
    """(pings, previews, invites) Discord's server finds in the raw text."""
    return (
        _SERVER_PINGS.findall(raw),
        _SERVER_URL.findall(raw),
        [m.group(0) for m in _INVITE.finditer(raw)],
    )


def _block(*, raw: str, i: int) -> tuple[str, int] | None:
    """The line-start marker at i, as (kind, end), if one is there."""
    if i and raw[i - 1] != "\n":
        return None
    found = _BLOCK.match(raw, i)
    if not found:
        return None
    mark = found.group(1).strip()
    kind = _BLOCK_KINDS.get(mark, "heading" if mark.startswith("#") else "")
    return (kind or ("quote" if mark.startswith(">") else "list")), found.end()


def _segment(*, raw: str, i: int) -> tuple[Seen, int] | None:
    """The code span, mention, token or link at i, as what it shows and where it ends."""
    if raw[i] == "`":
        n = len(re.match(r"`+", raw[i:]).group(0))  # type: ignore[union-attr]
        close = re.compile(r"(?<!`)" + "`" * n + r"(?!`)").search(raw, i + n)
        if close and close.start() > i + n:
            # simple-markdown drops a space that only keeps a backtick off the fence
            inner = re.sub(r"^ (?= *`)|(` *) $", r"\1", raw[i + n : close.start()])
            return Seen(text=inner, formatted=(("code", inner),)), close.end()
        return None
    if found := _MENTION.match(raw, i):
        return Seen(text="@" + found.group(0).strip("<@!&>"), pings=(found.group(0),)), found.end()
    if found := _TOKEN.match(raw, i):
        return Seen(text=found.group(0), tokens=(found.group(0),)), found.end()
    if found := _AUTOLINK.match(raw, i):
        url = found.group(1)
        return Seen(text=url, links=(SeenLink(url=url),)), found.end()
    if found := _MASKED.match(raw, i):
        label, url = view(raw=found.group(1)), found.group(3)
        seen = replace(label, links=(*label.links, SeenLink(url=url, label=label.text)))
        return replace(seen, previews=(url,) * (found.group(2) is None)), found.end()
    if found := _BARE.match(raw, i):
        url = found.group(0)
        return Seen(text=url, links=(SeenLink(url=url),), previews=(url,)), found.end()
    if found := _EVERYONE.match(raw, i):
        return Seen(text=found.group(0), pings=(found.group(0),)), found.end()
    return None


def view(*, raw: str) -> Seen:
    """What Discord's client makes of a text (see the module docstring)."""
    items: list[_Item] = []
    parts: list[Seen] = []
    blocks: list[tuple[str, str]] = []
    i = 0
    while i < len(raw):
        if block := _block(raw=raw, i=i):
            end = raw.find("\n", block[1])
            blocks.append((block[0], view(raw=raw[block[1] : None if end < 0 else end]).text))
            i = block[1]
            continue
        if escaped := _ESCAPE.match(raw, i):
            items.append(_Item(escaped.group(1)))
            i = escaped.end()
        elif segment := _segment(raw=raw, i=i):
            parts.append(segment[0])
            items.append(_Item(segment[0].text))
            i = segment[1]
        else:
            items.append(_Item(raw[i], raw=True))
            i += 1
    marks = "".join(
        it.shown if it.raw and it.shown in "*_~|" else " " if it.shown.isspace() else "x"
        for it in items
    )
    used: set[int] = set()
    formatted: list[tuple[str, str]] = []
    for kind, pattern in _PAIRS:
        for pair in pattern.finditer(marks):
            opened, closed = pair.start(1), pair.end(1)
            width = opened - pair.start()
            inner = "".join(it.shown for it in items[opened:closed])
            formatted.append((kind, inner))
            used.update(range(pair.start(), opened))
            used.update(range(closed, closed + width))
        marks = "".join("m" if k in used else c for k, c in enumerate(marks))
    shown = "".join(it.shown for k, it in enumerate(items) if k not in used)
    return Seen(
        text=_visible(shown),
        pings=tuple(p for s in parts for p in s.pings),
        tokens=tuple(t for s in parts for t in s.tokens),
        links=tuple(link for s in parts for link in s.links),
        previews=tuple(p for s in parts for p in s.previews),
        formatted=tuple(
            (kind, _visible(inner))
            for kind, inner in (*blocks, *formatted, *(f for s in parts for f in s.formatted))
        ),
        loose=tuple(
            it.shown
            for k, it in enumerate(items)
            if it.raw and it.shown in _LOOSE and k not in used
        )
        + tuple(loose for s in parts for loose in s.loose),
    )


def test_the_model_sees_what_discord_would_act_on() -> None:
    """The checker is not blind: raw markup pings, formats, links and unfurls in it."""
    seen = view(raw="**b** <@1> [x](https://evil.example) `@everyone` # h")
    assert ("bold", "b") in seen.formatted and ("code", "@everyone") in seen.formatted
    assert seen.pings == ("<@1>",)
    assert seen.links == (SeenLink(url="https://evil.example", label="x"),)
    assert seen.previews == ("https://evil.example",)
    assert server(raw="`@everyone` \\<@1> discord.gg/x https://e.org")[0] == ["@everyone", "<@1>"]
    assert server(raw="discord.gg/x <https://e.org>")[1:] == ([], ["discord.gg/"])
    assert view(raw="# h").formatted == (("heading", "h"),)
    assert view(raw="a *b c* ~ | _").loose == ("~", "|", "_")
    assert view(raw="\\*\\*b\\*\\* \\<@1\\>") == Seen(text="**b** <@1>")
    assert view(raw="[a](<https://arxiv.org/abs/1>)").previews == ()


# --- checks ----------------------------------------------------------------------------


def assert_inert(raw: str) -> Seen:
    """Markdown made of data only: nothing but text, and no ping or invite for the server."""
    seen = view(raw=raw)
    assert (seen.pings, seen.tokens, seen.links, seen.previews) == ((), (), (), ()), raw
    assert (seen.formatted, seen.loose) == ((), ()), raw
    assert server(raw=raw) == ([], [], []), raw
    return seen


def _strong_texts(msg: Message) -> list[str]:
    """The squashed texts of a message's Strong and Code runs: all the formatting it may have."""
    items: list[tuple[Run, ...]] = []
    for block in msg.blocks:
        if isinstance(block, Paragraph):
            items.append(block.runs)
        elif isinstance(block, Listing):
            items.extend(block.items)
    texts = (r.text for item in items for r in item if isinstance(r, Strong | Code))
    return [" ".join(_visible(text).split()) for text in texts]


def assert_safe(*, raw: str, allowed: list[str], vouched: tuple[str, ...] = ()) -> Seen:
    """The bot's markdown: no ping, preview, invite or stray markup; every masked link is ours
    and honest; formatting only around texts in `allowed` (clipped ones end with "…")."""
    seen = view(raw=raw)
    assert seen.pings == (), raw
    assert set(seen.tokens) <= {f"<#{SNOWFLAKE}>"}, raw
    assert (seen.previews, seen.loose) == ((), ()), raw
    assert server(raw=raw) == ([], [], []), raw
    for link in seen.links:
        assert link.label is None or is_ours(url=link.url, vouched=vouched), link
    assert disguised(view=View(text=seen.text, links=seen.links)) == [], raw
    # A label on a link to evil.example only for the paper's own URL, which it names honestly.
    evil = links_to(view=View(text="", links=seen.links), host="evil.example")
    assert [x for x in evil if x.label and x.url not in vouched] == []
    for kind, inner in seen.formatted:
        assert kind in OUR_KINDS, (kind, inner)
        if kind in ("bold", "code"):
            shown = " ".join(inner.removesuffix("…").split())
            assert any(a.startswith(shown) for a in allowed), (inner, allowed)
    return seen


def assert_within_limits(payload: dict[str, Any]) -> None:
    """Discord's limits on a message with embeds and buttons, and clean JSON."""
    text = json.dumps(payload, ensure_ascii=False)
    text.encode("utf-8")  # strict: a lone surrogate raises
    assert 0 < size(payload["content"]) <= 2000
    [embed] = payload["embeds"]
    assert 0 < size(embed["title"]) <= 256 and "\n" not in embed["title"]
    assert 0 < size(embed["description"]) <= 4096
    assert len(embed.get("fields", ())) <= 25
    assert 0 < size(embed["footer"]["text"]) <= 2048
    total = sum(size(embed[k]) for k in ("title", "description")) + size(embed["footer"]["text"])
    assert total <= 6000, text
    assert "url" not in embed or embed["url"].startswith(("https://", "http://"))
    assert_components(payload["components"])


def assert_components(rows: list[dict[str, Any]]) -> None:
    """At most five rows of at most five buttons, labels 1-80, custom ids 1-100 and unique."""
    assert len(rows) <= 5
    ids = [b["custom_id"] for row in rows for b in row["components"]]
    assert len(ids) == len(set(ids))
    for row in rows:
        assert row["type"] == 1 and 0 < len(row["components"]) <= 5
        for button in row["components"]:
            assert button["type"] == 2 and 0 < size(button["label"]) <= 80
            assert 0 < size(button["custom_id"]) <= 100 and button["custom_id"].startswith(
                "paperclub:"
            )


# --- cards -----------------------------------------------------------------------------


def make_card(**changes: Any) -> PaperCard:
    """The shared typical card, its recap linking to this platform's yesterday's post."""
    return cards.make_card(recap_permalink=PERMALINK, **changes)


def test_a_normal_card_renders_exactly() -> None:
    assert embeds.daily_post(card=make_card()) == {
        "content": f"Yesterday: [BERT](<{PERMALINK}>) — 👍 3 · 👎 1 · 💬 4 comments\n"
        "Today's paper: Attention Is All You Need",
        "embeds": [
            {
                "title": "Attention Is All You Need",
                "url": "https://arxiv.org/abs/1706.03762",
                "description": "*Ashish Vaswani, Noam Shazeer, Niki Parmar*\n\n"
                "The dominant sequence transduction models are based on recurrent networks.\n\n"
                "📄 [arXiv:1706.03762](<https://arxiv.org/abs/1706.03762>) · "
                "[doi:10.48550/arXiv.1706.03762](<https://doi.org/10.48550/arXiv.1706.03762>) · "
                "[papers.example.org/attention](<https://papers.example.org/attention>)",
                "footer": {"text": "Added by Ana · 5 more in the queue · Thu 2 May 2024"},
            }
        ],
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 2, "label": "👍 3", "custom_id": "paperclub:vote:up:42"},
                    {"type": 2, "style": 2, "label": "👎 1", "custom_id": "paperclub:vote:down:42"},
                ],
            }
        ],
    }
    assert embeds.thread_name(card=make_card()) == "Attention Is All You Need"


def test_a_bare_card_says_what_slack_says() -> None:
    """No recap, link, authors, abstract or name: the placeholders Slack shows."""
    paper = make_paper(
        title=" \n", abstract=" ", authors=("", " "), url=None, arxiv_id=None, doi=""
    )
    post = embeds.daily_post(
        card=make_card(paper=paper, recap=None, added_by_name=None, remaining=0)
    )
    [embed] = post["embeds"]
    assert post["content"] == "Today's paper: Untitled paper"
    assert embed == {
        "title": "Untitled paper",
        "description": f"*{escape(post_words.NO_ABSTRACT)}*",
        "footer": {"text": "Last paper in the queue · Thu 2 May 2024"},
    }
    assert embeds.thread_name(card=make_card(paper=paper)) == "Untitled paper"


def test_a_long_abstract_is_clipped_with_read_more() -> None:
    [embed] = embeds.daily_post(card=make_card(paper=make_paper(abstract="word & " * 2000)))[
        "embeds"
    ]
    assert "… [Read more](<https://arxiv.org/abs/1706.03762>)\n\n📄 " in embed["description"]
    assert_within_limits(embeds.daily_post(card=make_card(paper=make_paper(abstract="x" * 10_000))))


def test_many_authors_are_clipped_with_et_al() -> None:
    many = tuple(f"Author {i}" for i in range(500))
    [embed] = embeds.daily_post(card=make_card(paper=make_paper(authors=many)))["embeds"]
    assert embed["description"].startswith("*Author 0, Author 1, Author 2 et al.*\n\n")


def test_an_unsafe_or_foreign_paper_url_is_never_a_disguised_link() -> None:
    """javascript: is dropped; a URL whose label names another host links through "↗"."""
    paper = make_paper(arxiv_id=None, doi=None, url="javascript:alert(1)")
    [embed] = embeds.daily_post(card=make_card(paper=paper))["embeds"]
    assert "url" not in embed and "📄" not in embed["description"]
    paper = make_paper(arxiv_id=None, doi=None, url="https://arxiv.org@evil.example/x")
    [embed] = embeds.daily_post(card=make_card(paper=paper))["embeds"]
    shown = "📄 arxiv.org@evil.example/x (<https://arxiv.org@evil.example/x>)"
    assert embed["description"].endswith(shown) and "url" not in embed
    assert_safe(raw=embed["description"], allowed=[], vouched=("https://arxiv.org@evil.example/x",))


# --- hostile data ----------------------------------------------------------------------


@pytest.mark.parametrize("value", VALUES)
def test_data_is_inert_and_shown(value: str) -> None:
    seen = assert_inert(data(text=value, limit=10**6, squashed=False))
    assert shows(typed=value, visible=seen.text)


def _hostile_messages(value: str) -> list[Message]:
    """Every kind of message the archive sends, carrying `value` wherever data goes."""
    entry = TopEntry(
        title=value,
        channel=CHANNEL,
        date=date(2024, 5, 2),
        permalink=PERMALINK,
        votes=VoteCount(up=2),
        comments=1,
    )
    foreign = replace(entry, permalink="https://evil.example/thread")
    found = SearchHit(
        paper=make_paper(title=value, authors=(value,)),
        from_comment=True,
        score=1.0,
        snippet=f"{value} {HIGHLIGHT_OPEN}quokka{HIGHLIGHT_CLOSE} {value}",
        comment_user=value,
        channel=CHANNEL,
        post_date=date(2024, 5, 2),
        permalink=PERMALINK,
    )
    page = SearchPage(hits=(found, replace(found, permalink=None)), total=9, offset=0)
    return [
        message(value),
        message(line(value, quiet=True)),
        replies.queue(titles=[value] * 3, total=9),
        replies.added(title=value, position=2, note=""),
        replies.skipped(title=value, next_title=value, next_post="Tue"),
        replies.unknown_zone(zone=value),
        archive.top(voted=[entry, foreign], talked=[entry], span="this month"),
        archive.weekly_recap(entries=[entry]),
        archive.search_page(text=value, page=page, notes=(value,), next_offset=5),
    ]


@pytest.mark.parametrize("value", VALUES)
def test_hostile_messages_ping_nothing_and_show_everything(value: str) -> None:
    for msg in _hostile_messages(value):
        raw = render.render(message=msg)
        assert 0 < size(raw) <= 2000
        seen = assert_safe(raw=raw, allowed=_strong_texts(msg))
        assert shows(typed=value, visible=seen.text), raw
        assert_components(render.components(message=msg))


def _hostile_card(value: str) -> PaperCard:
    """A card with `value` in every text a person wrote."""
    paper = make_paper(
        title=value,
        abstract="\n\n".join(LINE_STARTS) + f"\n\nStudy 0: {HOSTILE} {LONG_WORD}",
        authors=(HOSTILE, DISCORD_HOSTILE, value),
        arxiv_id=value[:40],
        doi=value[:40],
        url="https://example.org/paper/0",
    )
    recap = Recap(title=value, permalink=PERMALINK, votes=VoteCount(), comments=0)
    return make_card(paper=paper, recap=recap, added_by_name=value)


@pytest.mark.parametrize("value", VALUES)
def test_a_hostile_daily_post_pings_nothing_and_shows_the_title(value: str) -> None:
    card = _hostile_card(value)
    post = embeds.daily_post(card=card)
    assert_within_limits(post)
    [embed] = post["embeds"]
    vouched = ("https://example.org/paper/0",)
    content = assert_safe(raw=post["content"], allowed=[" ".join(value.split())])
    title = assert_inert(embed["title"])
    description = assert_safe(raw=embed["description"], allowed=[], vouched=vouched)
    footer = embed["footer"]["text"]
    assert server(raw=footer) == ([], [], [])
    assert shows(typed=value, visible=content.text) and shows(typed=value, visible=title.text)
    assert shows(typed=HOSTILE, visible=description.text)
    assert all(shows(typed=start, visible=description.text) for start in LINE_STARTS)
    assert _visible(footer).startswith("Added by " + " ".join(_visible(value).split())[:30])
    name = embeds.thread_name(card=card)
    assert 0 < size(name) <= 100 and "\n" not in name and shows(typed=value, visible=name)


# --- limits ----------------------------------------------------------------------------

CLUSTERS = ("👍🏽", "👨‍👩‍👧‍👦", "🇩🇪", "é́", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "각")


@pytest.mark.parametrize("cluster", CLUSTERS)
def test_clipping_keeps_graphemes_whole(cluster: str) -> None:
    text = cluster * 5000
    for limit in (1, 2, 7, 100, 256, 4095):
        clipped = clip(text=text, limit=limit)
        assert size(clipped) <= limit and clipped.endswith("…")
        body = clipped.removesuffix("…")
        assert body == cluster * (len(body) // len(cluster)), (cluster, limit)
    assert boundary(text="🇩🇪🇫🇷", at=2) and not boundary(text="🇩🇪🇫🇷", at=1)


HUGE = (
    "x" * 10_000,
    "Deep learning " * 1000,
    *(c * 5000 for c in CLUSTERS),
    "*" * 10_000,
    "<@1>" * 3000,
    "\\" * 10_000,
    "@everyone " * 1000,
    "\ud800" * 300,
)


@pytest.mark.parametrize("text", HUGE, ids=lambda t: f"{t[:4]!r}x{len(t)}")
def test_limits_hold_for_huge_and_emoji_heavy_text(text: str) -> None:
    paper = make_paper(title=text, abstract=text, authors=(text,) * 9, url="https://e.org/" + text)
    recap = Recap(title=text, permalink=PERMALINK, votes=VoteCount(10**15, -3), comments=10**15)
    card = make_card(paper=paper, recap=recap, added_by_name=text, votes=VoteCount(10**15, -1))
    post = embeds.daily_post(card=card)
    assert_within_limits(post)
    title = post["embeds"][0]["title"]
    assert title.endswith("…") and view(raw=title).text.removesuffix("…") in text.replace(
        "\ud800", "\ufffd"
    )
    assert [b["label"] for b in post["components"][0]["components"]] == ["👍 999,999+", "👎 0"]
    name = embeds.thread_name(card=card)
    assert 0 < size(name) <= 100 and "\n" not in name
    raw = render.render(message=message(line(Strong(text), " ", Code(text), " ", text), line(text)))
    assert 0 < size(raw) <= 2000


# --- render ----------------------------------------------------------------------------


def test_runs_render_as_discord_markdown() -> None:
    msg = message(
        line(
            "Hi ",
            Strong("there"),
            Strong("again"),
            " ",
            Code("/paperclub add <arXiv id>"),
            " ",
            Code("a`b"),
            " ",
            Code("<@1>"),
            " ",
            PersonRef(SNOWFLAKE),
            " ",
            PersonRef("<@U1>"),
            " ",
            ChannelRef(SNOWFLAKE),
            " ",
            ChannelRef("general"),
            " ",
            When(day=date(2024, 5, 2)),
        ),
        line(
            Link(url=PERMALINK, label="Read the thread."),
            " ",
            Link(url="https://evil.example/x", label="click"),
            " ",
            Link(url="https://discord.gg/evil", label="join"),
            " ",
            Link(url=PERMALINK, label="see evil.example"),
            " ",
            Link(url="ftp://x.org", label="f"),
        ),
        line("quiet", quiet=True),
        Divider(),
        Listing(items=(runs("one"), runs("two")), start=9),
        Listing(items=(runs("a"),), ordered=False),
        Buttons(buttons=(Button(label="More", action="search_more", value="x"),)),
    )
    assert render.render(message=msg).split("\n") == [
        f"Hi **there**{ZWSP}**again** `/paperclub add <arXiv id>` ``a`b`` \\<{ZWSP}@1\\> "
        f"<@{SNOWFLAKE}> \\<{ZWSP}@U1\\> <#{SNOWFLAKE}> \\#general Thu 2 May 2024",
        f"[Read the thread.](<{PERMALINK}>) click (<https://evil.example/x>) "
        f"join (https\\://discord\\.gg/evil) see evil.example [↗](<{PERMALINK}>) f",
        "-# quiet",
        "",
        "9\\. one",
        "10\\. two",
        "• a",
    ]


def test_an_empty_or_buttons_only_message_still_has_content() -> None:
    assert render.render(message=Message(blocks=())) == "…"
    assert render.render(message=message(Divider(), Buttons(buttons=()))) == "…"


def test_a_long_message_is_cut_between_lines_with_an_ellipsis() -> None:
    raw = render.render(
        message=replies.queue(titles=[f"Paper {n} " * 20 for n in range(100)], total=100)
    )
    assert size(raw) <= 2000 and raw.endswith("…")
    assert_safe(raw=raw, allowed=["Next in the queue"])


def test_allowed_mentions_pings_nobody() -> None:
    assert render.ALLOWED_MENTIONS == {"parse": [], "replied_user": False}


# --- buttons ---------------------------------------------------------------------------


def test_buttons_become_rows_with_custom_ids_within_limits() -> None:
    query = "a very long query " * 200
    value = archive.more_value(text=query, offset=5)
    many = tuple(Button(label=f"{n} " + "🎉" * 100, action="pick", value=str(n)) for n in range(30))
    msg = message(
        Buttons(buttons=(Button(label="More results", action="search_more", value=value),)),
        Buttons(buttons=many),
    )
    rows = render.components(message=msg)
    assert_components(rows)
    more = rows[0]["components"][0]
    assert more["label"] == "More results"
    assert more["custom_id"] == "paperclub:search_more:" + render.value_key(value=value)
    assert render.read_custom_id(custom_id=rows[1]["components"][2]["custom_id"]) == ("pick", "2")
    assert [len(row["components"]) for row in rows] == [1, 5, 5, 5, 5]
    kept = render.components(message=msg, key=lambda *, value: "k1")
    assert kept[0]["components"][0]["custom_id"] == "paperclub:search_more:k1"


@pytest.mark.parametrize("action", ["", "Vote", "a:b", "x" * 41, "vote up"])
def test_a_bad_action_is_refused(action: str) -> None:
    with pytest.raises(ValueError):
        render.custom_id(action=action, value="1")


@pytest.mark.parametrize("post_id", [0, -1, 2**63, True])
def test_vote_ids_refuse_non_ids(post_id: int) -> None:
    with pytest.raises(ValueError):
        embeds.vote_custom_id(post_id=post_id, up=True)


@given(post_id=st.integers(min_value=1, max_value=2**63 - 1), up=st.booleans())
@PROPERTY
def test_vote_ids_round_trip(post_id: int, up: bool) -> None:
    cid = embeds.vote_custom_id(post_id=post_id, up=up)
    assert size(cid) <= 100
    action, value = render.read_custom_id(custom_id=cid) or ("", "")
    assert action == "vote" and embeds.read_vote(value=value) == (1 if up else -1, post_id)


@pytest.mark.parametrize(
    "value",
    ["", "up", "up:", "up:0", "up:01", "up:-1", "sideways:1", "up:1 ", "up:١", "up:" + "9" * 19],
)
def test_garbage_votes_read_as_none(value: str) -> None:
    assert embeds.read_vote(value=value) is None


@pytest.mark.parametrize(
    "cid", [None, 12, "", "paperclub", "paperclub:", "other:vote:1", "paperclub:Vote:1", "x" * 101]
)
def test_garbage_custom_ids_read_as_none(cid: object) -> None:
    assert render.read_custom_id(custom_id=cid) is None


# --- properties ------------------------------------------------------------------------

_NASTY = st.sampled_from(
    [
        "@everyone",
        "@here",
        "<@1>",
        "<@&1>",
        "<#1>",
        "<t:1:R>",
        "<:e:1>",
        "</c:1>",
        "https://evil.example/x",
        "discord.gg/x",
        "[x](https://evil.example)",
        "**",
        "__",
        "~~",
        "||",
        "*",
        "_",
        "`",
        "```",
        "\\",
        "# ",
        "-# ",
        "> ",
        "- ",
        "1. ",
        "\n",
        "\n\n",
        " ",
        ZWSP,
        "…",
        "👨‍👩‍👧‍👦",
        "🇩🇪",
        "\u0301",
        "\ud800",
    ]
)
_TEXT = st.lists(st.one_of(_NASTY, st.text(max_size=8)), max_size=14).map("".join)
_BASES = st.sampled_from(["https://e.org/", "https://e.org?u=", "https://", "http://a@"])
_LONG = st.builds(lambda s, n: s * n, _TEXT.filter(bool), st.integers(1, 800))


@PROPERTY
@given(text=_TEXT)
@example(text="1. x")
@example(text="a\\")
def test_any_data_is_inert_and_shown(text: str) -> None:
    seen = assert_inert(data(text=text, limit=10**6, squashed=False))
    typed = "".join(c for c in text if c.isspace() or unicodedata.category(c) != "Cc")
    assert shows(typed=typed.replace("\ud800", "\ufffd"), visible=seen.text)


@PROPERTY
@given(
    title=_TEXT | _LONG,
    abstract=_TEXT | _LONG,
    author=_TEXT,
    name=st.none() | _TEXT,
    url=st.none() | _TEXT | st.builds(str.__add__, _BASES, _TEXT),
)
# Found by this property: invites and second URLs hiding in the paper's own URL.
@example(title="discord.gg/x", abstract="", author="", name=None, url=None)
@example(title="", abstract="", author="", name=None, url="https://discord.gg/x")
@example(title="", abstract="", author="", name=None, url="https://@everyonediscord.gg/x")
@example(title="", abstract="", author="", name=None, url="https://https://evil.example/x")
@example(title="", abstract="", author="", name=None, url="https://e.org?u=https://evil.example")
def test_any_card_is_safe_and_within_limits(
    title: str, abstract: str, author: str, name: str | None, url: str | None
) -> None:
    paper = make_paper(
        title=title, abstract=abstract, authors=(author,), url=url, arxiv_id=title[:20]
    )
    recap = Recap(title=title, permalink=PERMALINK, votes=VoteCount(), comments=1)
    post = embeds.daily_post(card=make_card(paper=paper, recap=recap, added_by_name=name))
    assert_within_limits(post)
    [embed] = post["embeds"]
    vouched = tuple(u for u in (safe_url(url),) if u)
    assert_safe(raw=post["content"], allowed=[" ".join(title.split())])
    assert_inert(embed["title"])
    assert_safe(raw=embed["description"], allowed=[], vouched=vouched)
    assert server(raw=embed["footer"]["text"]) == ([], [], [])
