"""Self-tests of the Discord view model: each rule seen to pass and to fail, and properties of
the bot's own data escaping (bot.discord.markdown.data) and links (bot.discord.links.link)
against it."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.discord.links import link, safe_url
from bot.discord.markdown import data
from tests.hostile.discord_view import (
    Link,
    View,
    disguised,
    hidden,
    links_to,
    locked,
    payload_view,
    pings,
    plain,
    shows,
    view,
)

Z = "\u200b"
ID = "123456789012345678"
PROPERTY = settings(
    database=None,
    deadline=None,
    derandomize=True,
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_everyone_and_here_ping_even_escaped() -> None:
    """The server reads raw text: a backslash does not stop "@everyone"; a zero-width space
    after the "@" does, and the reader still sees "@everyone"."""
    assert view(markdown="hi @everyone").pings == ("@everyone",)
    assert view(markdown="\\@here").pings == ("@here",)
    assert view(markdown="@Everyone").pings == ("@Everyone",)
    seen = view(markdown=f"@{Z}everyone @{Z}here")
    assert (seen.pings, seen.text) == ((), "@everyone @here")


def test_a_mention_shows_its_id_and_pings_unless_its_person_is_named() -> None:
    """`<@id>` is drawn as "@id"; pings() lets through only the people the caller names."""
    seen = view(markdown=f"by <@{ID}>")
    assert (seen.text, seen.pings) == (f"by @{ID}", (f"<@{ID}>",))
    assert pings(view=seen) == [f"<@{ID}>"]
    assert pings(view=seen, people={ID}) == []
    assert pings(view=seen, people={"1"}) == [f"<@{ID}>"]


def test_role_and_nickname_mentions_always_ping() -> None:
    """`<@&id>` (a role; the guild's id is @everyone's) and `<@!id>` are never a PersonRef."""
    seen = view(markdown=f"<@&{ID}> <@!{ID}>")
    assert pings(view=seen, people={ID}) == [f"<@&{ID}>", f"<@!{ID}>"]


def test_a_broken_up_mention_is_text() -> None:
    """An escaped "<" and a zero-width space before the "@" leave a literal "<@id>"."""
    seen = view(markdown=f"\\<{Z}@{ID}\\>")
    assert seen == View(text=f"<@{ID}>")


def test_a_mention_inside_code_is_not_drawn_but_the_server_still_reads_it() -> None:
    """Code hides markup from the client, not from the server."""
    seen = view(markdown=f"`<@{ID}> **b**`")
    assert seen.text == f"<@{ID}> **b**"
    assert seen.formatted == (("code", f"<@{ID}> **b**"),)
    assert seen.pings == (f"<@{ID}>",)


def test_tokens_are_drawn_as_they_are() -> None:
    """Channel, time, emoji and command tokens are tokens, not pings."""
    seen = view(markdown=f"<#{ID}> <t:1700000000:R> <:wave:{ID}> </paperclub add:{ID}>")
    assert seen.tokens == (
        f"<#{ID}>",
        "<t:1700000000:R>",
        f"<:wave:{ID}>",
        f"</paperclub add:{ID}>",
    )
    assert seen.pings == ()


def test_a_masked_link_shows_its_label_and_unfurls_without_brackets() -> None:
    """`[label](url)` is a link labelled with its (parsed) label; `(<url>)` stops the preview."""
    seen = view(markdown="[**Read**](https://evil.example/x)")
    assert seen.text == "Read"
    assert seen.links == (Link(url="https://evil.example/x", label="Read"),)
    assert seen.previews == ("https://evil.example/x",)
    assert ("bold", "Read") in seen.formatted
    quiet = view(markdown="[Read](<https://evil.example/x>)")
    assert quiet.links == seen.links and quiet.previews == ()


def test_a_masked_link_needs_a_web_url() -> None:
    """`[x](javascript:…)` and `[x](y)` are shown as typed, and are loose markup."""
    seen = view(markdown="[x](javascript:alert) [y](z)")
    assert seen.links == ()
    assert seen.text == "[x](javascript:alert) [y](z)"
    assert "[" in seen.loose


def test_autolinks_and_bare_urls_show_themselves() -> None:
    """`<url>` links without a preview; a bare URL links and unfurls; an escaped colon is text."""
    seen = view(markdown="<https://evil.example/a> https://evil.example/b.")
    assert seen.text == "https://evil.example/a https://evil.example/b."
    assert seen.links == (Link(url="https://evil.example/a"), Link(url="https://evil.example/b"))
    assert seen.previews == ("https://evil.example/b",)
    assert view(markdown="https\\://evil.example/c") == View(text="https://evil.example/c")


def test_invites_are_found_in_raw_text_unless_broken() -> None:
    """Invites anywhere in the raw text, code and plain text too; an escaped dot breaks one."""
    assert view(markdown="`discord.gg/x` discord.com/invite/y").invites == (
        "discord.gg/",
        "discord.com/invite/",
    )
    assert plain(text="discordapp.com/invite/z").invites == ("discordapp.com/invite/",)
    assert view(markdown="discord\\.gg/x discord.com/channels/1").invites == ()


def test_escapes_show_markup_as_typed() -> None:
    """A backslash before punctuation shows it and formats nothing."""
    seen = view(markdown="\\*\\*b\\*\\* \\_i\\_ \\# h")
    assert seen == View(text="**b** _i_ # h")
    assert shows(typed="**b** _i_ # h", visible=seen.text)


@pytest.mark.parametrize(
    ("markdown", "text", "formatted"),
    [
        ("**b**", "b", (("bold", "b"),)),
        ("__u__ ~~s~~ ||x||", "u s x", (("underline", "u"), ("strike", "s"), ("spoiler", "x"))),
        ("*i* _j_", "i j", (("italic", "i"), ("italic", "j"))),
        ("`` `x` ``", "`x`", (("code", "`x`"),)),
        ("# h", "h", (("heading", "h"),)),
        ("-# quiet", "quiet", (("subtext", "quiet"),)),
        ("a\n> q", "a\nq", (("quote", "q"),)),
        ("1. one\n- two", "one\ntwo", (("list", "one"), ("list", "two"))),
        ("1\\. one", "1. one", ()),
        ("a # b", "a # b", ()),
    ],
)
def test_markup_formats_and_its_markers_are_not_seen(
    markdown: str, text: str, formatted: tuple[tuple[str, str], ...]
) -> None:
    """Emphasis pairs, code spans and line-start markers format; their markers are consumed."""
    seen = view(markdown=markdown)
    assert (seen.text, seen.formatted) == (text, formatted)
    assert seen.loose == ()


def test_unpaired_markup_is_loose() -> None:
    """A lone unescaped marker is shown, and reported as loose."""
    seen = view(markdown="a * b ~ c")
    assert (seen.text, seen.loose, seen.formatted) == ("a * b ~ c", ("*", "~"), ())


def test_plain_text_is_shown_literally_but_its_pings_are_reported() -> None:
    """A footer or a label: no markup and no links, but the server's readings still count."""
    seen = plain(text=f"**b** @everyone https://evil.example{Z}")
    assert seen.text == "**b** @everyone https://evil.example"
    assert (seen.pings, seen.links, seen.previews, seen.formatted) == (("@everyone",), (), (), ())


@pytest.mark.parametrize(
    "url",
    [
        "https://arxiv.org/abs/1706.03762",
        "https://doi.org/10.1000/x",
        f"https://discord.com/channels/{ID}/{ID}/{ID}",
    ],
)
def test_our_urls_may_hide_behind_words(url: str) -> None:
    """arXiv abstract pages, doi.org and Discord message links may carry any label."""
    assert hidden(view=view(markdown=f"[Read the thread](<{url}>)")) == []


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example/x",
        "http://arxiv.org/abs/1",
        "https://arxiv.org/pdf/1",
        "https://arxiv.org:8443/abs/1",
        "https://user@arxiv.org/abs/1",
        "https://arxiv.org.evil.example/abs/1",
        "https://discord.com/invite/x",
    ],
)
def test_other_urls_behind_words_are_hidden_targets(url: str) -> None:
    """Anything else behind a label is a hidden target, unless the caller vouches for it."""
    seen = view(markdown=f"[Read](<{url}>)")
    assert hidden(view=seen) == [Link(url=url, label="Read")]
    assert hidden(view=seen, vouched={url}) == []
    assert hidden(view=view(markdown=f"<{url}>")) == []  # showing itself hides nothing


def test_disguises_and_hosts_are_read_from_labels() -> None:
    """A label naming another host is a disguise; links_to finds a host and its subdomains."""
    seen = view(markdown="[arxiv.org/abs/1](<https://evil.example/x>) <https://a.evil.example>")
    assert disguised(view=seen) == [Link(url="https://evil.example/x", label="arxiv.org/abs/1")]
    assert links_to(view=seen, host="evil.example") == list(seen.links)
    assert links_to(view=seen, host="arxiv.org") == []


def _payload() -> dict[str, Any]:
    """A message of every part the bot sends: content, an embed, buttons (one a link)."""
    return {
        "content": f"Today's paper: **T** <@{ID}>",
        "embeds": [
            {
                "type": "rich",
                "title": "\\*T\\*",
                "url": "https://evil.example/t",
                "description": "[doi:10.1/x](<https://doi.org/10.1/x>)",
                "author": {"name": "Ada **A**", "url": "https://evil.example/a"},
                "fields": [{"name": "F", "value": "v @here"}],
                "footer": {"text": "Added by *B*"},
            }
        ],
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 2, "label": "👍 0", "custom_id": "paperclub:vote:up:1"},
                    {"type": 2, "style": 5, "label": "arXiv", "url": "https://evil.example/b"},
                ],
            }
        ],
    }


def test_payload_view_combines_every_text_a_reader_sees() -> None:
    """Content, embed title, description, fields, author, footer, then button labels; the
    title, author and link button link to their URLs under their texts."""
    seen = payload_view(payload=_payload())
    assert seen.text.split("\n") == [
        f"Today's paper: T @{ID}",
        "*T*",
        "doi:10.1/x",
        "F",
        "v @here",
        "Ada **A**",
        "Added by *B*",
        "👍 0",
        "arXiv",
    ]
    assert seen.links == (
        Link(url="https://evil.example/t", label="*T*"),
        Link(url="https://doi.org/10.1/x", label="doi:10.1/x"),
        Link(url="https://evil.example/a", label="Ada **A**"),
        Link(url="https://evil.example/b", label="arXiv"),
    )
    assert pings(view=seen, people={ID}) == ["@here"]
    assert [x.url for x in hidden(view=seen)] == [
        "https://evil.example/t",
        "https://evil.example/a",
        "https://evil.example/b",
    ]
    assert seen.previews == ()


def test_only_the_content_unfurls() -> None:
    """A bare URL previews in the content; in an embed it is a link and nothing more."""
    payload = {"content": "https://e.org/a", "embeds": [{"description": "https://e.org/b"}]}
    seen = payload_view(payload=payload)
    assert seen.previews == ("https://e.org/a",)
    assert len(seen.links) == 2


@pytest.mark.parametrize(
    "payload",
    [
        {"embeds": [{"title": "t", "provider_name": "x", "image_url": "y"}]},
        {"components": [{"type": 1, "components": [{"type": 4, "label": "text input"}]}]},
    ],
)
def test_payload_view_refuses_what_it_cannot_read(payload: dict[str, Any]) -> None:
    """An unknown embed key or component type is an error, not silently unseen text."""
    with pytest.raises(ValueError, match="no model"):
        payload_view(payload=payload)


@pytest.mark.parametrize(
    ("allowed", "ok"),
    [
        ({"parse": []}, True),
        ({"parse": [], "replied_user": False}, True),
        (None, False),
        ({}, False),
        ({"parse": ["users"]}, False),
        ({"parse": ["everyone"]}, False),
        ({"parse": [], "users": [ID]}, False),
        ({"parse": [], "roles": [ID]}, False),
        ({"parse": [], "replied_user": True}, False),
    ],
)
def test_locked_means_nobody_can_be_notified(allowed: dict[str, Any] | None, ok: bool) -> None:
    """allowed_mentions must be there and allow nobody."""
    payload: dict[str, Any] = {"content": "x"}
    if allowed is not None:
        payload["allowed_mentions"] = allowed
    assert locked(payload=payload) is ok


_NASTY = st.sampled_from(
    [
        "@everyone",
        "@here",
        f"<@{ID}>",
        f"<@&{ID}>",
        f"<#{ID}>",
        "<t:1:R>",
        "https://evil.example/x",
        "[x](https://evil.example)",
        "discord.gg/x",
        "discord.com/invite/x",
        "**",
        "__",
        "~~",
        "||",
        "*",
        "_",
        "`",
        "``",
        "\\",
        "# ",
        "-# ",
        "> ",
        "- ",
        "1. ",
        "\n",
        " ",
        Z,
        "…",
    ]
)
_TEXT = st.lists(st.one_of(_NASTY, st.text(max_size=6)), max_size=12).map("".join)


def _typed(text: str) -> str:
    """What of a text can be shown at all: control characters other than whitespace are
    dropped and lone surrogates replaced (bot.discord.markdown.clean, which JSON forces)."""
    kept = (c for c in text if c.isspace() or unicodedata.category(c) != "Cc")
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in kept)


@PROPERTY
@given(text=_TEXT)
@example(text="1. x")
@example(text="a\\")
@example(text="@@everyone")
@example(text="\x80\ud800")
def test_the_bot_renders_data_inert_and_visible(text: str) -> None:
    """Data through markdown.data pings, links, unfurls, invites and formats nothing, leaves no
    loose markup, and every character of it is seen."""
    seen = view(markdown=data(text=text, limit=10**6, squashed=False))
    assert seen == View(text=seen.text), seen
    assert shows(typed=_typed(text), visible=seen.text)


_URLS = st.one_of(
    st.sampled_from(
        [
            "https://arxiv.org/abs/1706.03762",
            "https://doi.org/10.1/x",
            f"https://discord.com/channels/{ID}/{ID}/{ID}",
            "https://evil.example/login",
            "https://discord.gg/evil",
            "https://x@discord.gg/evil",
            "https://arxiv.org.evil.example/abs/1",
        ]
    ),
    st.builds(str.__add__, st.sampled_from(["https://e.org/", "https://arxiv.org/abs/"]), _TEXT),
)


@PROPERTY
@given(url=_URLS, label=_TEXT, vouch=st.booleans())
@example(url="https://evil.example/login", label="arxiv.org/abs/1", vouch=True)
@example(url="https://arxiv.org/abs/1", label="https://evil.example", vouch=False)
def test_the_bot_never_hides_a_foreign_target_or_disguises_one(
    url: str, label: str, vouch: bool
) -> None:
    """links.link: a label hides only our URLs (or the one vouched for), names no other host
    than its target's, nothing pings or unfurls, and the label is seen."""
    safe = safe_url(url)
    vouched = (safe,) if vouch and safe else ()
    seen = view(markdown=link(url=url, label=label, limit=2000, vouched=vouched))
    assert hidden(view=seen, vouched=vouched) == []
    assert disguised(view=seen) == []
    assert (seen.pings, seen.previews, seen.invites, seen.loose) == ((), (), (), ())
    assert shows(typed=_typed(label), visible=seen.text)
