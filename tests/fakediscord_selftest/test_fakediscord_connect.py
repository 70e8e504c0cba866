"""The real discord.py client logging in, identifying and reaching on_ready against the fake."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.client import pointed_at, running

Run = Callable[[Coroutine[Any, Any, None]], None]
MakeClient = Callable[..., discord.Client]


def test_on_ready_sees_the_guild_its_channels_threads_and_members(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    papers = fake.add_channel("papers")
    public = fake.add_thread(papers, "week 1")
    private = fake.add_thread(papers, "organisers", private=True)

    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            assert client.user is not None and client.user.id == int(fake.bot_id)
            assert client.application_id == int(fake.app_id)
            guild = client.get_guild(int(fake.guild_id))
            assert guild is not None and guild.name == "Paper Club Test"
            assert sorted(c.name for c in guild.text_channels) == ["general", "papers"]
            threads = {t.id: t for t in guild.threads}
            assert threads[int(public)].type is discord.ChannelType.public_thread
            assert threads[int(private)].type is discord.ChannelType.private_thread
            assert threads[int(public)].parent_id == int(papers)
            assert {m.name for m in guild.members} == {"paperclub", "alice", "bob"}
            assert guild.chunked  # member_count matches: no REQUEST_GUILD_MEMBERS needed
            assert guild.me.guild_permissions.manage_messages

    run(scenario())
    # login: the token in the Authorization header of GET /users/@me and the app lookup.
    me = fake.requests("GET", "/users/@me")[0]
    assert me.authorization == "Bot fake-bot-token"
    assert [r.path for r in fake.requests("GET")][:2] == ["/users/@me", "/oauth2/applications/@me"]
    identify = fake.gateway_frames(op=2)[0]["d"]
    assert identify["token"] == "fake-bot-token"
    assert identify["intents"] == discord.Intents.all().value
    # discord.py asks for zlib-stream transport compression; the fake sends it that way.
    assert fake.connections()[0] == {
        "path": "/gateway",
        "query": {"v": "10", "encoding": "json", "compress": "zlib-stream"},
    }
    # HELLO makes discord.py heartbeat at once; the fake acknowledged it (no zombie reconnect).
    assert fake.counts["heartbeats"] >= 1
    assert fake.counts == {**fake.counts, "identifies": 1, "resumes": 0}


def test_plain_text_frames_work_when_compression_is_off(run: Run, make_client: MakeClient) -> None:
    with FakeDiscord(compress=False) as fake, pointed_at(fake):

        async def scenario() -> None:
            client = make_client()
            async with running(client, fake):
                fake.user_says(fake.channel_id, "uncompressed")
                message = await client.wait_for("message", timeout=5)
                assert message.content == "uncompressed"

        run(scenario())


def test_a_wrong_token_is_refused_at_login(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        with pytest.raises(discord.LoginFailure):
            await client.start("not-the-token")
        await client.close()

    run(scenario())
    refused = fake.requests("GET", "/users/@me")[0]
    assert (refused.status, refused.response) == (401, {"message": "401: Unauthorized", "code": 0})
    assert fake.counts["identifies"] == 0


def test_without_the_message_content_intent_content_arrives_blank(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client(intents=discord.Intents.default())
        async with running(client, fake):
            fake.user_says(fake.channel_id, "you cannot read this")
            blank = await client.wait_for("message", timeout=5)
            fake.user_says(fake.channel_id, f"<@{fake.bot_id}> but this you can")
            mention = await client.wait_for("message", timeout=5)
        assert blank.content == "" and blank.author.name == "alice"
        assert mention.content.endswith("but this you can")
        assert [u.id for u in mention.mentions] == [int(fake.bot_id)]

    run(scenario())
    # Only the gateway copy is blank: REST history still has the text.
    assert fake.messages()[0]["content"] == "you cannot read this"


def test_rest_lookups_answer_complete_objects_and_discord_errors(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    hidden = fake.add_channel("staff", refused=True)
    thread_id = fake.add_thread(name="reading")

    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            guild = await client.fetch_guild(int(fake.guild_id), with_counts=True)
            assert guild.approximate_member_count == 3
            member = await guild.fetch_member(int(fake.alice_id))
            assert member.global_name == "Alice A"
            thread = await client.fetch_channel(int(thread_id))
            assert isinstance(thread, discord.Thread) and thread.name == "reading"
            with pytest.raises(discord.NotFound) as unknown:
                await client.fetch_channel(1234)
            assert (unknown.value.code, unknown.value.text) == (10003, "Unknown Channel")
            with pytest.raises(discord.Forbidden) as refused:
                await client.fetch_channel(int(hidden))
            assert (refused.value.code, refused.value.text) == (50001, "Missing Access")
            # The refused channel is still in the cache, but the bot may not see it.
            staff = client.get_channel(int(hidden))
            assert isinstance(staff, discord.TextChannel)
            assert not staff.permissions_for(staff.guild.me).view_channel
            gateway_bot = await client.http.get_bot_gateway()
            assert gateway_bot[:2] == (1, fake.gateway_url)

    run(scenario())
