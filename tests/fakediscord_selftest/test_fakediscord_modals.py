"""Modals: a button answered with discord.py's own Modal (response type 9), submitted by a
member (MODAL_SUBMIT, interaction type 5) and read back by discord.py's own parser; modals
past Discord's limits refused with 50035."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.client import running
from tests.fakediscord.interactions import MODAL, MODAL_SUBMIT

Run = Callable[[Coroutine[Any, Any, None]], None]
MakeClient = Callable[..., discord.Client]


class Suggest(discord.ui.Modal, title="Suggest a paper"):
    """One text input; what was submitted lands in `typed`."""

    paper: discord.ui.TextInput[Suggest] = discord.ui.TextInput(
        label="The paper", custom_id="paper", max_length=50
    )

    def __init__(self, typed: asyncio.Future[str]) -> None:
        super().__init__(custom_id="suggest")
        self.typed = typed

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Thanks", ephemeral=True)
        self.typed.set_result(self.paper.value)


class Opener(discord.ui.View):
    """A button that answers with the modal."""

    def __init__(self, typed: asyncio.Future[str]) -> None:
        super().__init__(timeout=None)
        self.typed = typed

    @discord.ui.button(label="Suggest", custom_id="open")
    async def open(self, interaction: discord.Interaction[Any], _: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(Suggest(self.typed))


def test_a_modal_is_sent_submitted_and_read_by_discord_py(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        typed: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        async with running(client, fake):
            channel = client.get_channel(int(fake.channel_id))
            assert isinstance(channel, discord.TextChannel)
            post = await channel.send("Papers", view=Opener(typed))
            click = fake.click(str(post.id), "open", user=fake.bob_id)
            assert (await fake.wait_callback_async(click.id))["type"] == MODAL
            modal = fake.modal_of(click.id)
            assert modal is not None and modal["custom_id"] == "suggest"
            with pytest.raises(ValueError, match="refuses"):
                fake.submit_modal(click.id, {"paper": "x" * 51})  # past its max_length
            with pytest.raises(ValueError, match="refuses"):
                fake.submit_modal(click.id, {})  # required, left empty
            submitted = fake.submit_modal(click.id, {"paper": "Attention Is All You Need"})
            assert await asyncio.wait_for(typed, 5) == "Attention Is All You Need"
            answer = await fake.wait_callback_async(submitted.id)
            assert answer["type"] == 4 and answer["data"]["flags"] == 64
            record = fake.interaction(submitted.id)
            assert record.type == MODAL_SUBMIT and record.user_id == fake.bob_id
            assert record.payload["message"]["id"] == str(post.id)
            [row] = record.payload["data"]["components"]
            assert row["components"][0]["value"] == "Attention Is All You Need"

    run(scenario())


def test_a_modal_past_discords_limits_is_refused(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            record = fake.slash("paper", "suggest")  # nobody handles it
            url = f"{fake.api_url}/interactions/{record.id}/{record.token}/callback"
            field = {"type": 4, "custom_id": "p", "style": 1, "label": "L" * 46}
            modal = {"custom_id": "m", "title": "T" * 46, "components": [{"type": 1}]}
            rows = [{"type": 1, "components": [field]}] * 6
            async with aiohttp.ClientSession() as http:
                for data in (modal, {**modal, "title": "ok", "components": rows}):
                    body = {"type": MODAL, "data": data}
                    async with http.post(url, json=body) as refused:
                        assert (refused.status, (await refused.json())["code"]) == (400, 50035)
            assert not fake.interaction(record.id).callbacks

    run(scenario())
