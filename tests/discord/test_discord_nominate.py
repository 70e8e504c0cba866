"""Issue 33's nominations by modal on Discord: the poll's "Nominate a paper" button answers with
a modal (response type 9) holding one text input; the submitted modal (interaction type 5)
runs the same path as /paperclub nominate, answered to the member alone, with hostile text
inert; the poll that opens next takes the paper."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.discord.listeners.nominate import FIELD_ID, FORM_ID
from bot.services.poll_commands import REFERENCE_MAX
from tests.discord.conftest import WAIT, DiscordHarness
from tests.fakediscord import InteractionRecord
from tests.fakediscord.interactions import MODAL
from tests.hostile.discord_view import hidden, locked, payload_view, pings
from tests.hostile.slack_view import shows
from tests.sources.scenario_discord import discord_text

HOSTILE = "@everyone <@1100000000000000302> **bold** [click](https://evil.test) 🧪 Tensors"


def _say(harness: DiscordHarness, subcommand: str, rest: str, *, user: str) -> str:
    """/paperclub SUBCOMMAND with the rest of the line in its one option; the answer's words."""
    options = {"what": rest} if subcommand == "meeting" else {"paper": rest}
    return discord_text(harness.command(subcommand, options, user=user))


def _open_poll(harness: DiscordHarness) -> dict[str, Any]:
    """A Wednesday meeting with polls (the Monday-morning sweep opens the poll); its message."""
    fake = harness.fake
    assert "The meeting" in _say(harness, "meeting", "set wed 16:00 UTC", user=fake.bob_id)
    assert "Polls" in _say(harness, "meeting", "poll approval", user=fake.bob_id)
    harness.wiring.sweep()
    [poll] = [m for m in fake.messages() if ":poll_nominate:" in str(m.get("components"))]
    return poll


def _nominate_button(poll: dict[str, Any]) -> str:
    """The custom id of the poll's "Nominate a paper" button."""
    [found] = [
        c["custom_id"]
        for row in poll["components"]
        for c in row["components"]
        if ":poll_nominate:" in c["custom_id"]
    ]
    return str(found)


def _modal(harness: DiscordHarness, record: InteractionRecord) -> dict[str, Any]:
    """The modal the bot answered a click with (waits for it)."""
    fake = harness.fake
    fake.wait_until(lambda: fake.modal_of(record.id) is not None, timeout=WAIT)
    modal = fake.modal_of(record.id)
    assert isinstance(modal, dict)
    return modal


def _answer(harness: DiscordHarness, record: InteractionRecord) -> dict[str, Any]:
    """The deferred answer to a submitted modal, once it is filled in."""
    fake = harness.fake

    def answered() -> bool:
        live = fake.state.interactions.lookup(interaction_id=record.id)
        return live.original_id is not None and not live.loading

    fake.wait_until(answered, timeout=WAIT)
    live = fake.interaction(record.id)
    assert [c["type"] for c in live.callbacks] == [5] and live.original_ephemeral
    return fake.message(str(live.original_id))


def test_the_button_opens_a_modal_whose_paper_is_nominated(harness: DiscordHarness) -> None:
    fake = harness.fake
    poll = _open_poll(harness)
    click = fake.click(poll["id"], _nominate_button(poll), user=fake.alice_id)
    modal = _modal(harness, click)
    assert modal["custom_id"] == FORM_ID and modal["title"] == "Nominate a paper"
    [row] = modal["components"]
    [field] = row["components"]
    assert field["custom_id"] == FIELD_ID and field["max_length"] == REFERENCE_MAX
    assert [c["type"] for c in fake.interaction(click.id).callbacks] == [MODAL]
    submitted = fake.submit_modal(click.id, {FIELD_ID: "Attention Is All You Need"})
    said = discord_text(_answer(harness, submitted))
    assert "Attention Is All You Need" in said and "is put forward for the next poll" in said
    other = fake.click(poll["id"], _nominate_button(poll), user=fake.bob_id)
    _modal(harness, other)
    again = fake.submit_modal(other.id, {FIELD_ID: "Attention Is All You Need"})
    assert "was put forward already" in discord_text(_answer(harness, again))
    assert "Attention Is All You Need" in _say(
        harness, "nominate", "Attention Is All You Need", user=fake.bob_id
    )
    # The next week's poll (opening Sunday for Wednesday 14 January) holds the paper.
    harness.clock.at += timedelta(days=6, hours=9)
    harness.wiring.sweep()
    polls = [m for m in fake.messages() if ":poll_vote:" in str(m.get("components"))]
    assert len(polls) == 2 and "Attention Is All You Need" in discord_text(polls[-1])


def test_hostile_text_is_inert_and_what_names_nothing_gets_the_usage(
    harness: DiscordHarness,
) -> None:
    fake = harness.fake
    poll = _open_poll(harness)
    button = _nominate_button(poll)
    click = fake.click(poll["id"], button, user=fake.alice_id)
    _modal(harness, click)
    submitted = fake.submit_modal(click.id, {FIELD_ID: HOSTILE})
    answer = _answer(harness, submitted)
    sent = fake.requests("POST", f"/webhooks/{fake.app_id}/{submitted.token}")
    assert sent and all(locked(payload=r.json) for r in sent)  # nobody notified
    seen = payload_view(payload=answer)
    assert "is put forward" in seen.text and shows(typed=HOSTILE, visible=seen.text)
    assert not pings(view=seen) and not hidden(view=seen)
    blank = fake.click(poll["id"], button, user=fake.bob_id)
    _modal(harness, blank)
    said = discord_text(_answer(harness, fake.submit_modal(blank.id, {FIELD_ID: "(( ))"})))
    assert "Usage" in said
    too_long = fake.click(poll["id"], button, user=fake.bob_id)
    _modal(harness, too_long)
    with pytest.raises(ValueError, match="refuses"):  # Discord's client stops it
        fake.submit_modal(too_long.id, {FIELD_ID: "x" * 10_000})
