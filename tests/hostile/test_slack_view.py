"""Self-tests of the Slack view model: each rule seen to pass and to fail, and one property of
the bot's own renderer (bot.slack.render.data) against it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.slack import render
from tests.hostile.slack_view import (
    Link,
    View,
    blocks_view,
    disguised,
    links_to,
    payload_pings,
    shows,
    view,
)

Z = "\u200b"


def test_a_real_channel_token_pings() -> None:
    """`<!channel>` is a ping and shows as "@channel"."""
    seen = view(mrkdwn="<!channel> read this")
    assert seen.pings == ("<!channel>",)
    assert seen.text == "@channel read this"


def test_an_escaped_channel_token_is_shown_not_pinged() -> None:
    """`&lt;!channel&gt;` pings nobody and shows the brackets a person typed."""
    seen = view(mrkdwn="&lt;!channel&gt;")
    assert seen.pings == ()
    assert seen.text == "<!channel>"


def test_mentions_of_people_and_groups_ping() -> None:
    """User, group and here mentions are pings, shown with an "@"; channels are not."""
    seen = view(mrkdwn="<@U1> <@W2|bob> <!subteam^S1> <!here> <#C1> <#C2|general>")
    assert seen.pings == ("<@U1>", "<@W2|bob>", "<!subteam^S1>", "<!here>")
    assert seen.text == "@U1 @bob @S1 @here #C1 #general"


def test_a_date_token_shows_its_fallback_and_pings_nobody() -> None:
    """`<!date^…|fallback>` is not a ping."""
    seen = view(mrkdwn="<!date^1392734382^{date}|Feb 18>")
    assert seen == View(text="Feb 18")


def test_a_labelled_link_shows_its_label_and_goes_to_its_url() -> None:
    """`<https://evil.example|Read the thread>` is a link to evil.example, not disguised."""
    seen = view(mrkdwn="<https://evil.example|Read the thread>")
    link = Link(url="https://evil.example", label="Read the thread")
    assert seen.text == "Read the thread"
    assert seen.links == (link,)
    assert links_to(view=seen, host="evil.example") == [link]
    assert links_to(view=seen, host="EVIL.example") == [link]
    assert links_to(view=seen, host="ok.org") == []
    assert disguised(view=seen) == []


def test_a_link_to_a_subdomain_goes_to_the_site() -> None:
    """links_to counts subdomains, not look-alikes."""
    seen = view(mrkdwn="<https://a.evil.example/x> <https://notevil.example>")
    assert links_to(view=seen, host="evil.example") == [Link(url="https://a.evil.example/x")]


@pytest.mark.parametrize(
    "mrkdwn",
    [
        "<https://ok.org|https://evil.example>",
        "<https://evil.example|ok.org>",
        "<https://evil.example|see ok.org/papers>",
    ],
)
def test_a_label_naming_another_host_is_disguised(mrkdwn: str) -> None:
    """A URL- or domain-like label for somewhere else is a disguise."""
    seen = view(mrkdwn=mrkdwn)
    assert disguised(view=seen) == list(seen.links)


@pytest.mark.parametrize(
    "mrkdwn",
    [
        "<https://ok.org>",
        "<https://ok.org|https://ok.org>",
        "<https://www.ok.org/a|ok.org/a>",
        "<https://arxiv.org/abs/2101.00001|arXiv:2101.00001>",
        "<https://doi.org/10.1016/j.cell.2020.01.001|doi:10.1016/j.cell.2020.01.001>",
        "<https://evil.example|Read the thread.>",
    ],
)
def test_an_honest_label_is_not_disguised(mrkdwn: str) -> None:
    """No label, the same host, a DOI path or plain words: no disguise."""
    assert disguised(view=view(mrkdwn=mrkdwn)) == []


def test_entities_are_decoded_exactly_once() -> None:
    """`&amp;amp;` shows "&amp;"; `&amp;lt;` shows "&lt;"."""
    assert view(mrkdwn="&amp;amp;").text == "&amp;"
    assert view(mrkdwn="&amp;lt; &lt;b&gt; AT&amp;T &copy;").text == "&lt; <b> AT&T &copy;"


def test_bold_formats_and_hides_its_stars() -> None:
    """`*bold*` is bold and the stars are gone from what is seen."""
    seen = view(mrkdwn="*bold*")
    assert seen.formatted == (("bold", "bold"),)
    assert seen.text == "bold"
    assert not shows(typed="*bold*", visible=seen.text)


def test_zero_width_spaces_make_stars_pair_mid_word() -> None:
    """A zero-width space is a word boundary: it lets "*bold*" format inside a word."""
    seen = view(mrkdwn=f"Super{Z}*{Z}bold{Z}*{Z}ly")
    assert seen.formatted == (("bold", "bold"),)
    assert seen.text == "Superboldly"


def test_stars_in_a_date_fallback_are_shown_unformatted() -> None:
    """A date token's fallback is plain text: "*bold*" built from two of them is as typed."""
    star = "<!date^00000000^{_}|*>"
    seen = view(mrkdwn=f"{star}bold{star}")
    assert (seen.formatted, seen.pings, seen.text) == ((), (), "*bold*")
    assert shows(typed="*bold*", visible=seen.text)


@pytest.mark.parametrize(
    ("mrkdwn", "text", "formatted"),
    [
        ("_it_ and ~gone~", "it and gone", (("italic", "it"), ("strike", "gone"))),
        ('(*x*), "_y_".', '(x), "y".', (("bold", "x"), ("italic", "y"))),
        ("*_both_*", "both", (("bold", "both"), ("italic", "both"))),
        ("*<https://a.org|paper>*", "paper", (("bold", "paper"),)),
        ("snake_case_name a*b*c", "snake_case_name a*b*c", ()),
        ("* x* *x * a *", "* x* *x * a *", ()),
        ("*across\nlines*", "*across\nlines*", ()),
        (f"a{Z}*x*", "ax", (("bold", "x"),)),
        (f"*x{Z}*", "x", (("bold", "x"),)),
        ("a*x*b", "a*x*b", ()),
    ],
)
def test_markers_pair_only_at_word_boundaries(
    mrkdwn: str, text: str, formatted: tuple[tuple[str, str], ...]
) -> None:
    """Markers pair at word boundaries (a zero-width space is one), on one line."""
    seen = view(mrkdwn=mrkdwn)
    assert (seen.text, seen.formatted) == (text, formatted)


def test_a_code_span_formats_nothing_and_parses_no_token() -> None:
    """Inside `…` stars and tokens are shown as they are; entities are still decoded."""
    seen = view(mrkdwn="run `*x* <@U1> a &amp; b` now")
    assert seen.formatted == (("code", "*x* <@U1> a & b"),)
    assert seen.text == "run *x* <@U1> a & b now"
    assert seen.pings == ()


def test_a_preformatted_block_spans_lines() -> None:
    """```…``` is preformatted, lines and all."""
    seen = view(mrkdwn="```one\n*two*```")
    assert seen.formatted == (("pre", "one\n*two*"),)
    assert seen.text == "one\n*two*"


def test_a_line_starting_with_an_escaped_bracket_is_a_quote() -> None:
    """`&gt; x` at the start of a line is a quote and the ">" is not seen; elsewhere it is."""
    quoted = view(mrkdwn="first\n&gt; said")
    assert quoted.formatted == (("quote", "said"),)
    assert quoted.text == "first\nsaid"
    assert view(mrkdwn="a &gt; b") == View(text="a > b")


def test_a_bare_url_is_auto_linked() -> None:
    """A bare https URL is a link (no label), without its trailing full stop."""
    seen = view(mrkdwn="see https://evil.example/x.")
    assert seen.links == (Link(url="https://evil.example/x"),)
    assert links_to(view=seen, host="evil.example") == list(seen.links)
    assert view(mrkdwn="`https://evil.example`").links == ()
    assert view(mrkdwn="no link: evil.example").links == ()


def _payload() -> dict[str, Any]:
    """A small Block Kit message of every block type the bot sends."""
    return {
        "text": "<!here> a new paper",
        "blocks": [
            {"type": "header", "text": {"type": "plain_text", "text": "*Title* <@U1>"}},
            {
                "type": "section",
                "text": {"type": "mrkdwn", "text": "<https://ok.org/p|*Paper*>", "verbatim": True},
                "fields": [{"type": "mrkdwn", "text": "_by_ Ada", "verbatim": True}],
            },
            {"type": "divider"},
            {
                "type": "context",
                "elements": [
                    {"type": "image", "image_url": "https://x.org/i.png", "alt_text": "hidden"},
                    {"type": "plain_text", "text": "see https://evil.example"},
                ],
            },
            {
                "type": "actions",
                "elements": [{"type": "button", "text": {"type": "plain_text", "text": "Vote"}}],
            },
        ],
    }


def test_blocks_view_combines_every_text_a_reader_sees() -> None:
    """Header and button text are literal; mrkdwn is parsed; the fallback counts too."""
    payload = _payload()
    seen = blocks_view(blocks=payload["blocks"], text=payload["text"])
    assert seen.text.split("\n") == [
        "*Title* <@U1>",
        "*Paper*",
        "by Ada",
        "see https://evil.example",
        "Vote",
        "@here a new paper",
    ]
    assert seen.pings == ("<!here>",)
    assert seen.links == (
        Link(url="https://ok.org/p", label="*Paper*"),
        Link(url="https://evil.example"),
    )
    assert seen.formatted == (("italic", "by"),)


def test_blocks_view_refuses_a_block_it_cannot_read() -> None:
    """An unknown block type is an error, not silently unseen text."""
    with pytest.raises(ValueError, match="rich_text"):
        blocks_view(blocks=[{"type": "rich_text", "elements": []}], text=None)


def test_payload_pings_are_the_tokens_without_link_names() -> None:
    """Plain "@here" pings nobody by itself; a token does."""
    assert payload_pings(payload={"text": "@here read @alice"}) == []
    assert payload_pings(payload={"text": "@here", "link_names": "false"}) == []
    assert payload_pings(payload=_payload()) == ["<!here>"]


def test_link_names_and_full_parsing_make_plain_names_ping() -> None:
    """With link_names or parse=full, "@here" and "@name" ping (an address does not)."""
    text = "@here read this, @alice.b (mail a@b.org)"
    assert payload_pings(payload={"text": text, "link_names": True}) == ["@here", "@alice.b"]
    assert payload_pings(payload={"text": text, "link_names": "1"}) == ["@here", "@alice.b"]
    assert payload_pings(payload={"text": "hi @everyone", "parse": "full"}) == ["@everyone"]


def test_unverbatim_mrkdwn_blocks_may_ping_here() -> None:
    """A mrkdwn object without verbatim may have "@here" parsed; a verbatim one not."""
    block = {"type": "section", "text": {"type": "mrkdwn", "text": "@here"}}
    assert payload_pings(payload={"blocks": json.dumps([block])}) == ["@here"]
    block["text"] = {"type": "mrkdwn", "text": "@here", "verbatim": True}
    assert payload_pings(payload={"blocks": [block]}) == []


def _word() -> str:
    """A 3,000-character word, no two stretches alike, full of characters the bot escapes."""
    return "".join(f"{i}{'*_~`&<>'[i % 7]}" for i in range(1000))[:3000]


def test_a_clipped_word_still_shows() -> None:
    """A word clipped to fit a section shows: its first part, intact, then "…"."""
    word = _word()
    seen = view(mrkdwn=render.data(text=word, limit=render.SECTION_MAX))
    assert seen.text.endswith("…")
    assert len(seen.text) < len(word)
    assert shows(typed=word, visible="Title: " + seen.text)


def test_a_damaged_or_too_short_clip_does_not_show() -> None:
    """One changed character, or fewer than 40 characters before "…", is not showing it."""
    word = _word()
    shown = view(mrkdwn=render.data(text=word, limit=render.SECTION_MAX)).text
    assert not shows(typed=word, visible=shown[:50] + "?" + shown[51:])
    assert not shows(typed=word, visible=word[:39] + "…")
    assert shows(typed=word, visible=word[:40] + "…")


def test_shows_squashes_whitespace() -> None:
    """Whitespace runs count as one space; anything else must be there."""
    assert shows(typed="A\n\n  title", visible="Today: A title.")
    assert not shows(typed="A title", visible="Today: A titl")
    assert shows(typed="short", visible="short")
    assert not shows(typed="short", visible="shor…")


_HOSTILE = st.sampled_from(
    [
        "<!channel>",
        "<!here>",
        "<@U1>",
        "<#C1>",
        "<https://evil.example|ok.org>",
        "https://evil.example/x",
        "&amp;",
        "&lt;",
        "*bold*",
        "_it_",
        "~s~",
        "`code`",
        "```",
        ">",
        "\n",
        " ",
        Z,
        "…",
    ]
)
_TEXTS = st.lists(st.one_of(_HOSTILE, st.text(max_size=8)), max_size=12).map("".join)


@settings(max_examples=400, deadline=None, database=None)
@given(text=_TEXTS)
@example(text="*bold* <!channel> &amp; https://ok.org")
@example(text=">0")  # found by this property: the escaped ">" starts a quote
def test_the_bot_renders_data_inert_and_visible(text: str) -> None:
    """Data through render.data pings nobody, links only to bare URLs it contains, formats
    nothing, and every character of it is seen."""
    seen = view(mrkdwn=render.data(text=text, limit=10**6, squashed=False))
    assert seen.pings == ()
    assert all(link.label is None and link.url in text for link in seen.links)
    assert seen.formatted == ()
    assert shows(typed=text, visible=seen.text)
