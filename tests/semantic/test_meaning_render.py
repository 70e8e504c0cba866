"""The lines meaning adds under a daily post (papers the group read before that are close to
it, and why the taste picker chose it) on Slack, Discord and the console: hostile titles are
shown as text, never as a ping, a link or markup; the platforms' limits hold; and a card
without them renders exactly as before."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from datetime import date
from typing import Any

from rich.console import Console as RichConsole
from rich.text import Text

from bot.console.render import paper_panel
from bot.discord import embeds
from bot.discord import render as discord_render
from bot.discord.markdown import size
from bot.domain import PaperCard, RelatedRead, VoteCount
from bot.slack import blocks as slack_blocks
from bot.wording import semantic as words
from tests import cards
from tests.hostile import discord_view, slack_view

HOSTILE = (
    "<!channel> *bold* <https://evil.example|click> @everyone <@U123> [x](https://evil.example)"
)
RICH = "[bold red]x[/] [link=https://evil.example]y[/link] :fire:"
TITLE = f"{HOSTILE} {RICH}"
# 10,000 characters of emoji: families joined by ZWJ, flags, skin tones, plain ones.
EMOJI = "👨‍👩‍👧‍👦🇩🇪👍🏽😀" * 833 + "🎉" * 4
# What words.taste_reason says, with a title longer than the 120 characters it keeps.
PICK = f"Picked for this group's taste: close to “{TITLE}” (👍 4) · waited 12 days"
SLACK_PERMALINK = "https://team.slack.com/archives/C1/p1711962000000100"
SNOWFLAKE = "123456789012345678"
DISCORD_PERMALINK = f"https://discord.com/channels/{SNOWFLAKE}/{SNOWFLAKE}/1"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
OSC8_HYPERLINK = "\x1b]8;"
BOLD_RED = "\x1b[1;31m"


def related(*, permalink: str) -> tuple[RelatedRead, ...]:
    """Two papers read before: the hostile title linked to its thread, the emoji one unlinked."""
    return (
        RelatedRead(title=TITLE, date=date(2024, 4, 1), permalink=permalink, votes=VoteCount(2, 1)),
        RelatedRead(title=EMOJI, date=date(2024, 4, 2), permalink=None, votes=VoteCount()),
    )


def huge_related(*, permalink: str) -> tuple[RelatedRead, ...]:
    """Two papers read before with 10,000-emoji titles and absurd vote counts."""
    votes = VoteCount(10**15, 10**15)
    read = RelatedRead(title=EMOJI, date=date(2024, 4, 1), permalink=permalink, votes=votes)
    return (read, read)


def plain_card(*, permalink: str) -> PaperCard:
    """Today's typical card, with neither related papers nor a pick reason."""
    return cards.make_card(recap_permalink=permalink)


def meaning_card(*, permalink: str) -> PaperCard:
    """The typical card with hostile related papers and a hostile pick reason."""
    card = plain_card(permalink=permalink)
    return replace(card, related=related(permalink=permalink), pick_reason=PICK)


def test_the_hostile_texts_are_what_the_tests_say() -> None:
    assert len(EMOJI) == 10_000 and TITLE in PICK
    assert words.card_lines(card=plain_card(permalink=SLACK_PERMALINK)) == []
    assert len(words.card_lines(card=meaning_card(permalink=SLACK_PERMALINK))) == 2


# --- Slack -------------------------------------------------------------------------------


def slack(card: PaperCard) -> tuple[str, list[dict[str, Any]]]:
    """The daily post as Slack gets it; people are shown by their id."""
    return slack_blocks.paper_message(card=card, names=str)


def slack_texts(blocks: list[dict[str, Any]]) -> list[str]:
    """Every text object's text in the blocks."""
    texts = [b["text"]["text"] for b in blocks if b["type"] in ("section", "header")]
    return texts + [e["text"] for b in blocks if b["type"] == "context" for e in b["elements"]]


def assert_slack_limits(blocks: list[dict[str, Any]]) -> None:
    """Block Kit's limits: at most 50 blocks, section and context texts 1-3,000 characters."""
    assert 0 < len(blocks) <= 50
    for block in blocks:
        if block["type"] == "section":
            assert 0 < len(block["text"]["text"]) <= 3000
        elif block["type"] == "context":
            assert 0 < len(block["elements"]) <= 10
            assert all(0 < len(e["text"]) <= 3000 for e in block["elements"])


def test_slack_adds_two_context_lines_and_nothing_else() -> None:
    text, blocks = slack(meaning_card(permalink=SLACK_PERMALINK))
    before_text, before = slack(plain_card(permalink=SLACK_PERMALINK))
    assert text == before_text
    assert len(blocks) == len(before) + 2
    added = blocks[-3:-1]  # after the queue line, before the vote buttons
    assert blocks[:-3] + blocks[-1:] == before
    assert [b["type"] for b in added] == ["context", "context"]
    assert added[0]["elements"][0]["text"].startswith(words.RELATED)
    assert added[1]["elements"][0]["text"].startswith("Picked for this group")
    assert all(e["verbatim"] for b in added for e in b["elements"])  # Slack parses nothing
    assert_slack_limits(blocks)


def test_slack_shows_hostile_titles_as_text() -> None:
    text, blocks = slack(meaning_card(permalink=SLACK_PERMALINK))
    added = blocks[-3:-1]
    for raw in (*slack_texts(blocks), text):
        assert "<!channel>" not in raw and "<@U123>" not in raw, raw
        assert "<https://evil.example|" not in raw, raw
    seen = slack_view.blocks_view(blocks=blocks, text=text)
    assert slack_view.payload_pings(payload={"blocks": blocks, "text": text}) == []
    assert seen.pings == ()
    # A URL typed in a title may show as itself, never as a label's hidden target.
    assert [x for x in slack_view.links_to(view=seen, host="evil.example") if x.label] == []
    assert slack_view.disguised(view=seen) == []
    assert slack_view.Link(url=SLACK_PERMALINK, label="↗") in seen.links  # the thread, by "↗"
    assert ("bold", "bold") not in seen.formatted
    related_line, pick_line = (slack_view.view(mrkdwn=b["elements"][0]["text"]) for b in added)
    assert slack_view.shows(typed=TITLE, visible=related_line.text), related_line.text
    assert "(Mon 1 Apr 2024, 👍 2 · 👎 1)" in related_line.text
    assert slack_view.shows(typed=PICK, visible=pick_line.text), pick_line.text
    assert related_line.formatted == pick_line.formatted == ()


def test_slack_shows_a_huge_related_title_clipped() -> None:
    """The 10,000-emoji title is clipped to what fits, not dropped: some of it shows."""
    _, blocks = slack(meaning_card(permalink=SLACK_PERMALINK))
    shown = slack_view.view(mrkdwn=blocks[-3]["elements"][0]["text"]).text
    assert slack_view.shows(typed=EMOJI, visible=shown), shown[-200:]


def test_slack_limits_hold_with_two_huge_related_titles() -> None:
    huge = huge_related(permalink=SLACK_PERMALINK)
    card = replace(meaning_card(permalink=SLACK_PERMALINK), related=huge, pick_reason=EMOJI * 2)
    _, blocks = slack(card)
    assert_slack_limits(blocks)
    assert slack_view.payload_pings(payload={"blocks": blocks}) == []


# --- Discord -----------------------------------------------------------------------------


def test_discord_adds_two_paragraphs_and_nothing_else() -> None:
    post = embeds.daily_post(card=meaning_card(permalink=DISCORD_PERMALINK))
    before = embeds.daily_post(card=plain_card(permalink=DISCORD_PERMALINK))
    [embed], [before_embed] = post["embeds"], before["embeds"]
    assert {k: v for k, v in post.items() if k != "embeds"} == {
        k: v for k, v in before.items() if k != "embeds"
    }
    assert {k: v for k, v in embed.items() if k != "description"} == {
        k: v for k, v in before_embed.items() if k != "description"
    }
    head, related_line, pick_line = embed["description"].rsplit("\n\n", 2)
    assert head == before_embed["description"]
    assert discord_view.view(markdown=related_line).text.startswith(words.RELATED)
    assert discord_view.view(markdown=pick_line).text == PICK


def test_discord_shows_hostile_titles_as_text_within_limits() -> None:
    card = meaning_card(permalink=DISCORD_PERMALINK)
    post = embeds.daily_post(card=card)
    [embed] = post["embeds"]
    for raw in (post["content"], embed["description"]):
        assert "@everyone" not in raw and "<@U123>" not in raw, raw
        assert "](https://evil.example" not in raw and "](<https://evil.example" not in raw
    assert 0 < size(embed["description"]) <= 4096
    total = size(embed["title"]) + size(embed["description"]) + size(embed["footer"]["text"])
    assert total <= 6000
    seen = discord_view.payload_view(payload=post)
    assert discord_view.pings(view=seen) == []
    assert (seen.tokens, seen.previews, seen.invites, seen.loose) == ((), (), (), ())
    assert discord_view.hidden(view=seen, vouched=(card.paper.url or "",)) == []
    assert discord_view.disguised(view=seen) == []
    assert discord_view.links_to(view=seen, host="evil.example") == []
    # The only formatting is the bot's own (the authors in italics, the related title without
    # a thread in bold, as yesterday's line shows its paper), none from the titles' markup.
    bare = embeds.daily_post(card=plain_card(permalink=DISCORD_PERMALINK))
    before = discord_view.payload_view(payload=bare)
    added = [item for item in seen.formatted if item not in before.formatted]
    assert len(seen.formatted) == len(before.formatted) + 1
    assert [kind for kind, _ in added] == ["bold"]
    assert EMOJI.startswith(added[0][1].removesuffix("…"))
    # The first title links to its thread by "↗" beside it (a label with markup is data).
    assert discord_view.Link(url=DISCORD_PERMALINK, label="↗") in seen.links
    described = discord_view.view(markdown=embed["description"]).text
    assert discord_view.shows(typed=TITLE, visible=described)
    assert discord_view.shows(typed=EMOJI, visible=described)
    assert discord_view.shows(typed=PICK, visible=described)
    # Sent with every daily post (bot/discord/chat.py): nobody is notified of anything.
    sent = {**post, "allowed_mentions": discord_render.ALLOWED_MENTIONS}
    assert discord_view.locked(payload=sent)


def test_discord_limits_hold_with_huge_related_titles_and_abstract() -> None:
    paper = cards.make_paper(abstract=EMOJI, title=EMOJI)
    huge = huge_related(permalink=DISCORD_PERMALINK)
    card = replace(meaning_card(permalink=DISCORD_PERMALINK), related=huge, pick_reason=EMOJI)
    card = replace(card, paper=paper)
    post = embeds.daily_post(card=card)
    [embed] = post["embeds"]
    assert 0 < size(embed["description"]) <= 4096
    total = size(embed["title"]) + size(embed["description"]) + size(embed["footer"]["text"])
    assert total <= 6000
    described = discord_view.view(markdown=embed["description"]).text
    assert described.count(words.RELATED.strip()) == 1  # the related line kept its place
    assert discord_view.pings(view=discord_view.payload_view(payload=post)) == []


# --- the console -------------------------------------------------------------------------


def terminal() -> tuple[io.StringIO, RichConsole]:
    """A colour terminal, as the bot opens it, wide enough that a short line never wraps."""
    raw = io.StringIO()
    console = RichConsole(
        file=raw,
        width=5000,
        force_terminal=True,
        color_system="truecolor",
        highlight=False,
        emoji=False,
    )
    return raw, console


def console_lines(card: PaperCard) -> list[str]:
    """The panel's body, line by line, as plain text."""
    body = paper_panel(card=card, channel="general").renderable
    assert isinstance(body, Text)
    return body.plain.split("\n")


def test_the_console_shows_hostile_titles_literally() -> None:
    raw, console = terminal()
    console.print(paper_panel(card=meaning_card(permalink=SLACK_PERMALINK), channel="general"))
    out = raw.getvalue()
    shown = ANSI.sub("", out)
    assert OSC8_HYPERLINK not in out and BOLD_RED not in out and "🔥" not in shown
    assert TITLE in shown and RICH in shown  # "[bold red]x[/]" and the rest, as typed
    assert f"{TITLE} ({SLACK_PERMALINK}) (Mon 1 Apr 2024, 👍 2 · 👎 1)" in shown
    assert PICK in shown
    related_line = console_lines(meaning_card(permalink=SLACK_PERMALINK))[-3]
    assert related_line.endswith(f" · {EMOJI} (Tue 2 Apr 2024, 👍 0 · 👎 0)")


def test_the_console_adds_two_lines_and_nothing_else() -> None:
    lines = console_lines(meaning_card(permalink=SLACK_PERMALINK))
    before = console_lines(plain_card(permalink=SLACK_PERMALINK))
    assert len(lines) == len(before) + 2
    assert lines[:-3] + lines[-1:] == before
    assert lines[-3].startswith(words.RELATED) and lines[-2] == PICK


# --- without meaning ---------------------------------------------------------------------


def test_a_card_without_meaning_renders_as_before() -> None:
    """No related papers and no reason (or an empty one): not a line, block or paragraph more."""
    bare = plain_card(permalink=SLACK_PERMALINK)
    for card in (bare, replace(bare, related=(), pick_reason="")):
        assert words.card_lines(card=card) == []
        _, blocks = slack(card)
        assert [b["type"] for b in blocks] == [
            "context",
            "header",
            "context",
            "section",
            "section",
            "context",
            "actions",
        ]
        assert not any(words.RELATED.strip() in t for t in slack_texts(blocks))
        [embed] = embeds.daily_post(card=card)["embeds"]
        assert embed["description"].count("\n\n") == 2  # authors, abstract, links
        lines = console_lines(card)
        assert len(lines) == 8 and lines[-2] == "5 more in the queue"
