"""Did you mean on Discord: a misspelt search runs corrected and says so; one that finds little
carries a 'Did you mean' button whose click shows the corrected search in its place."""

from __future__ import annotations

from tests.discord.conftest import DiscordHarness


def test_a_misspelt_search_runs_corrected(harness: DiscordHarness) -> None:
    first = harness.command("search", {"query": "pipline paralelism"})
    assert "Showing results for" in first["content"]
    assert "pipeline parallelism" in first["content"] and "no match for" in first["content"]


def test_did_you_mean_is_a_button_that_runs_the_corrected_search(
    harness: DiscordHarness,
) -> None:
    first = harness.command("search", {"query": "homology pipline"})
    buttons = [b for row in first["components"] for b in row["components"]]
    [spelled] = [b for b in buttons if b["custom_id"].startswith("paperclub:search_spelled:")]
    assert spelled["label"] == "Did you mean “homology pipeline”?"
    page = harness.answer(harness.fake.click(first["id"], spelled["custom_id"]).id)
    assert page["id"] == first["id"]  # the corrected search replaces this page
    assert "homology pipeline" in page["content"] and "Results 1–" in page["content"]


def test_hostile_text_around_a_misspelling_pings_no_one(harness: DiscordHarness) -> None:
    first = harness.command("search", {"query": "@everyone <@123> pipline"})
    assert "pipeline" in first["content"] and "<@123>" not in first["content"]
    [followup] = [r for r in harness.fake.requests("POST") if "/webhooks/" in r.path]
    assert followup.json["allowed_mentions"]["parse"] == []
