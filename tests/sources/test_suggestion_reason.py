"""The reason line under a suggestion: its words, and hostile titles shown inert on Slack and
Discord (the runs hold the title as data; each platform escapes it)."""

from __future__ import annotations

from bot.discord import render as discord_render
from bot.messages import Plain, Strong, as_plain, line, message
from bot.slack import render as slack_render
from bot.sources.rank import Reason
from bot.wording.suggestion_reason import MAX_SHOWN, reason_runs
from tests.hostile import discord_view, slack_view

HOSTILE = "<!channel> *bold* <@U123> @everyone [x](https://evil.example) 🧪👩🏽‍🔬"


def _said(reason: Reason) -> str:
    return as_plain(message=message(line(*reason_runs(reason=reason))))


def test_each_reason_in_words() -> None:
    assert _said(Reason(kind="keyword", value="pipeline")) == "matches your keyword pipeline"
    assert _said(Reason(kind="close", value="Attention")) == (
        "close to Attention, which the group voted up"
    )
    assert _said(Reason(kind="author", value="Ada Lovelace", count=2)) == (
        "new from Ada Lovelace, an author the group read twice"
    )
    assert _said(Reason(kind="author", value="Ada", count=1)).endswith("read once")
    assert _said(Reason(kind="author", value="Ada", count=3)).endswith("read 3 times")
    assert _said(Reason(kind="new")) == "newly announced"
    assert _said(Reason(kind="close", value="  ")) == "newly announced"
    assert reason_runs(reason=Reason(kind="keyword", value="pipeline"))[1] == Strong("pipeline")


def test_a_hostile_title_is_data_in_one_run_clipped_to_one_line() -> None:
    runs = reason_runs(reason=Reason(kind="close", value=HOSTILE + "\n" + "🧪" * 10_000))
    shown = runs[1]
    assert isinstance(shown, Strong) and shown.text.startswith(HOSTILE)
    assert len(shown.text) <= MAX_SHOWN and "\n" not in shown.text
    assert all(isinstance(r, Plain) for r in (runs[0], runs[2]))


def test_a_hostile_title_renders_inert_on_slack_and_discord() -> None:
    runs = reason_runs(reason=Reason(kind="close", value=HOSTILE))
    seen = slack_view.view(mrkdwn=slack_render.mrkdwn(runs=runs, names=lambda user: user))
    assert seen.pings == () and slack_view.disguised(view=seen) == []
    assert HOSTILE in seen.text
    shown = discord_view.view(markdown=discord_render.inline(runs=runs, limit=2_000))
    assert discord_view.pings(view=shown) == [] and discord_view.hidden(view=shown) == []
    assert HOSTILE in shown.text
