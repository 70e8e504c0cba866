"""Guild Scheduled Events in the fake as discord.py sees them: made, edited and deleted through
its own API (the answers and gateway events parse), refused as Discord refuses them."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import discord

from tests.fakediscord import FakeDiscord
from tests.fakediscord.client import running

Run = Callable[[Coroutine[Any, Any, None]], None]
MakeClient = Callable[..., discord.Client]
START = datetime(2030, 1, 10, 15, 0, tzinfo=UTC)


def test_discord_py_makes_edits_and_deletes_an_external_event(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            guild = client.get_guild(int(fake.guild_id))
            assert guild is not None
            made = await guild.create_scheduled_event(
                name="Reading group",
                start_time=START,
                end_time=START + timedelta(hours=1),
                entity_type=discord.EntityType.external,
                location="Room 2",
                privacy_level=discord.PrivacyLevel.guild_only,
            )
            assert (made.location, made.status) == ("Room 2", discord.EventStatus.scheduled)
            edited = await made.edit(start_time=START + timedelta(days=1))
            assert edited.start_time == START + timedelta(days=1)
            await made.delete()

    run(scenario())
    posted = fake.requests("POST", "/guilds/{g}/scheduled-events")
    assert [r.status for r in posted] == [200]
    assert fake.requests("DELETE", "/guilds/{g}/scheduled-events/{e}")[0].status == 204
    assert fake.scheduled_events() == []


async def _post(fake: FakeDiscord, body: dict[str, Any]) -> tuple[int, Any]:
    """POST an event as the bot; the status and the answer."""
    headers = {"Authorization": f"Bot {fake.token}"}
    url = f"{fake.api_url}/guilds/{fake.guild_id}/scheduled-events"
    async with aiohttp.ClientSession() as http, http.post(url, json=body, headers=headers) as got:
        return got.status, await got.json()


def _external(**changes: Any) -> dict[str, Any]:
    """A valid EXTERNAL event body, with changes."""
    body: dict[str, Any] = {
        "name": "Reading group",
        "entity_type": 3,
        "entity_metadata": {"location": "Room 2"},
        "privacy_level": 2,
        "scheduled_start_time": START.isoformat(),
        "scheduled_end_time": (START + timedelta(hours=1)).isoformat(),
    }
    body.update(changes)
    return body


def test_refusals_are_discords(fake: FakeDiscord, run: Run) -> None:
    answers: list[tuple[int, Any]] = []

    async def scenario() -> None:
        answers.append(await _post(fake, _external(scheduled_end_time=None)))
        answers.append(await _post(fake, _external(entity_metadata={"location": "x" * 101})))
        answers.append(await _post(fake, _external(description="")))
        fake.withhold_manage_events()
        answers.append(await _post(fake, _external()))

    run(scenario())
    missing_end, long_place, empty, forbidden = answers
    assert missing_end[0] == 400 and missing_end[1]["code"] == 50035
    assert "scheduled_end_time" in missing_end[1]["errors"]
    assert long_place[0] == 400 and "location" in long_place[1]["errors"]["entity_metadata"]
    assert empty[0] == 400 and "description" in empty[1]["errors"]
    assert forbidden == (403, {"message": "Missing Permissions", "code": 50013})
    assert fake.scheduled_events() == []
