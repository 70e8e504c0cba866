"""Slash commands and button clicks through discord.py's CommandTree and Views."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord
from tests.fakediscord.client import expect, running

Run = Callable[[Coroutine[Any, Any, None]], None]
MakeClient = Callable[..., discord.Client]


def test_slash_subcommands_answer_ephemerally_and_after_a_defer(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    guild = discord.Object(int(fake.guild_id))
    seen: dict[str, Any] = {}

    async def scenario() -> None:
        client = make_client()
        tree = app_commands.CommandTree(client)
        group = app_commands.Group(name="paper", description="The reading group")
        exported: asyncio.Future[discord.WebhookMessage] = (
            asyncio.get_running_loop().create_future()
        )

        @group.command(name="search", description="Search the archive")
        async def search(interaction: discord.Interaction, query: str, limit: int = 5) -> None:
            seen["search"] = (query, limit, interaction.user.id, interaction.channel_id)
            await interaction.response.send_message(f"{limit} results for {query}", ephemeral=True)

        @group.command(name="export", description="Export the archive")
        async def export(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            exported.set_result(await interaction.followup.send("archive.csv is ready", wait=True))

        tree.add_command(group, guild=guild)
        async with running(client, fake):
            synced = await tree.sync(guild=guild)
            assert [(c.name, [o.name for o in c.options]) for c in synced] == [
                ("paper", ["search", "export"])
            ]
            asked = fake.slash(
                "paper", "search", {"query": "attention", "limit": 3}, user=fake.bob_id
            )
            answer = await fake.wait_callback_async(asked.id)
            assert answer["type"] == 4 and answer["data"]["flags"] == 64
            assert answer["data"]["content"] == "3 results for attention"
            deferred = fake.slash("paper", "export")
            followup = await asyncio.wait_for(exported, 5)
            record = fake.interaction(deferred.id)
            assert [c["type"] for c in record.callbacks] == [5]
            # The first followup after a defer fills the "thinking..." message itself.
            assert followup.id == int(record.original_id or 0)
            assert followup.flags.ephemeral and not followup.flags.loading

    run(scenario())
    assert seen["search"] == ("attention", 3, int(fake.bob_id), int(fake.channel_id))
    put = fake.requests("PUT", "/applications/{app}/guilds/{guild}/commands")[0]
    assert put.authorization == "Bot fake-bot-token"
    options = fake.commands(fake.guild_id)[0]["options"]
    assert [(o["name"], [(p["name"], p["type"]) for p in o["options"]]) for o in options] == [
        ("search", [("query", 3), ("limit", 4)]),
        ("export", []),
    ]
    assert fake.messages() == []  # ephemeral answers never reach the channel
    original = fake.message(fake.interaction(fake.interaction_ids()[1]).original_id or "")
    assert original["content"] == "archive.csv is ready" and original["flags"] == 64
    callbacks = fake.requests("POST", "/interactions/{id}/{token}/callback")
    assert [(r.status, r.query) for r in callbacks] == [(200, {"with_response": "1"})] * 2
    assert callbacks[0].response["interaction"]["response_message_ephemeral"] is True


class Votes(discord.ui.View):
    """A view with one button that edits its message, one that defers and edits later."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.clicks: list[int] = []

    @discord.ui.button(label="Vote", custom_id="vote:1", style=discord.ButtonStyle.success)
    async def vote(
        self, interaction: discord.Interaction, button: discord.ui.Button[Votes]
    ) -> None:
        self.clicks.append(interaction.user.id)
        await interaction.response.edit_message(content=f"{len(self.clicks)} vote")

    @discord.ui.button(label="Later", custom_id="later:1")
    async def later(
        self, interaction: discord.Interaction, button: discord.ui.Button[Votes]
    ) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="counted later")


def test_button_clicks_reach_the_view_and_update_the_message(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    clicks: list[int] = []

    async def scenario() -> None:
        client = make_client()
        # Built on the running loop: a View binds itself to the loop it is created on.
        view = Votes()
        async with running(client, fake):
            channel = client.get_channel(int(fake.channel_id))
            assert isinstance(channel, discord.TextChannel)
            post = await channel.send("Paper of the day", view=view)
            # The edit is dispatched while the view's callback runs: listen before clicking.
            edited = expect(client, "message_edit")
            clicked = fake.click(str(post.id), "vote:1", user=fake.bob_id)
            assert (await fake.wait_callback_async(clicked.id))["type"] == 7
            before, after = await edited
            assert (before.content, after.content) == ("Paper of the day", "1 vote")
            later = fake.click(str(post.id), "later:1")
            assert (await fake.wait_callback_async(later.id))["type"] == 6
            await fake.wait_request_async("PATCH", "/webhooks/{app}/{token}/messages/@original")
            with pytest.raises(KeyError):
                fake.click(str(post.id), "no-such-button")
        clicks.extend(view.clicks)

    run(scenario())
    assert clicks == [int(fake.bob_id)]
    assert fake.messages()[0]["content"] == "counted later"
    payload = fake.interaction(fake.interaction_ids()[0]).payload
    assert payload["data"] == {"custom_id": "vote:1", "component_type": 2}
    assert payload["message"]["components"][0]["components"][0]["custom_id"] == "vote:1"


def test_callbacks_are_answered_once_and_only_for_known_interactions(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            record = fake.slash("paper", "search", {"query": "x"})  # nobody handles it
            url = f"{fake.api_url}/interactions/{record.id}/{record.token}/callback"
            async with aiohttp.ClientSession() as http:
                body = {"type": 4, "data": {"content": "hi"}}
                async with http.post(url, json=body) as first:
                    assert first.status == 204  # no ?with_response: no body
                async with http.post(url, json=body) as second:
                    assert (second.status, await second.json()) == (
                        400,
                        {"message": "Interaction has already been acknowledged.", "code": 40060},
                    )
                async with http.post(url.replace(record.token, "forged"), json=body) as forged:
                    assert (forged.status, (await forged.json())["code"]) == (404, 10062)

    run(scenario())
    # Not ephemeral: the answer is a channel message, tied to the interaction.
    message = fake.messages()[0]
    assert message["interaction_metadata"]["id"] == fake.interaction_ids()[0]
    assert (message["type"], message["webhook_id"]) == (20, fake.app_id)
