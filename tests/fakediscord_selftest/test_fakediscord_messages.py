"""Messages through the real discord.py: embeds, views, edits, threads, history, nonces, limits."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.client import expect, running

Run = Callable[[Coroutine[Any, Any, None]], None]
MakeClient = Callable[..., discord.Client]


def _view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(label="Vote", custom_id="vote:1", style=discord.ButtonStyle.primary)
    )
    return view


def test_send_edit_start_a_thread_and_hear_a_reply_in_it(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            channel = client.get_channel(int(fake.channel_id))
            assert isinstance(channel, discord.TextChannel)
            embed = discord.Embed(title="Attention Is All You Need", description="Vaswani et al.")
            embed.add_field(name="Votes", value="0")
            sent = await channel.send("Paper of the day", embed=embed, view=_view())
            assert sent.embeds[0].title == "Attention Is All You Need"
            assert sent.components[0].children[0].custom_id == "vote:1"  # type: ignore[union-attr]
            edited = await sent.edit(content="Paper of the day (1 vote)")
            assert edited.content.endswith("(1 vote)") and edited.edited_at is not None
            thread_created = expect(client, "thread_create")
            thread = await sent.create_thread(name="Discuss: Attention", auto_archive_duration=60)
            # A thread started from a message takes the message's id.
            assert thread.id == sent.id and thread.parent_id == channel.id
            assert thread.type is discord.ChannelType.public_thread
            created = await thread_created
            assert created.id == thread.id
            fake.user_says(text="Great paper", thread=str(thread.id))
            reply = await client.wait_for("message", timeout=5)
            assert isinstance(reply.channel, discord.Thread) and reply.channel.id == thread.id
            assert (reply.content, reply.author.id) == ("Great paper", int(fake.alice_id))

    run(scenario())
    post = fake.requests("POST", "/channels/{id}/messages")[0]
    assert post.json["embeds"][0]["fields"] == [{"name": "Votes", "value": "0", "inline": True}]
    assert post.json["components"][0]["components"][0]["custom_id"] == "vote:1"
    stored = fake.messages()[0]
    assert stored["content"] == "Paper of the day (1 vote)" and stored["flags"] & 32  # HAS_THREAD
    assert stored["thread"]["name"] == "Discuss: Attention"
    thread_id = stored["id"]
    assert fake.channel(thread_id)["message_count"] == 1
    assert fake.channel(thread_id)["thread_metadata"]["auto_archive_duration"] == 60
    assert [m["content"] for m in fake.messages(thread_id)] == ["Great paper"]


def test_history_honours_limit_before_and_after(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            channel = client.get_channel(int(fake.channel_id))
            assert isinstance(channel, discord.TextChannel)
            sent = [await channel.send(f"m{i}") for i in range(6)]
            newest = [m.content async for m in channel.history(limit=2)]
            assert newest == ["m5", "m4"]
            before = [m.content async for m in channel.history(limit=10, before=sent[3])]
            assert before == ["m2", "m1", "m0"]
            after = [m.content async for m in channel.history(limit=2, after=sent[1])]
            assert after == ["m2", "m3"]  # discord.py turns `after` into oldest first
            between = [m.content async for m in channel.history(after=sent[0], before=sent[3])]
            assert between == ["m1", "m2"]

    run(scenario())
    after = fake.requests("GET", "/channels/{id}/messages")[2]
    assert after.query["limit"] == "2" and "after" in after.query


def test_a_repeated_nonce_returns_the_first_message(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            channel = client.get_partial_messageable(int(fake.channel_id))
            first = await channel.send("once", nonce=424242)
            again = await channel.send("once", nonce=424242)
            other = await channel.send("twice", nonce=777)
            assert again.id == first.id and other.id != first.id

    run(scenario())
    bodies = [r.json for r in fake.requests("POST", "/channels/{id}/messages")]
    assert [(b["nonce"], b["enforce_nonce"]) for b in bodies] == [
        ("424242", True),
        ("424242", True),
        ("777", True),
    ]
    assert [m["content"] for m in fake.messages()] == ["once", "twice"]


def _form_error(exc: pytest.ExceptionInfo[discord.HTTPException]) -> Any:
    assert exc.value.status == 400 and exc.value.code == 50035
    assert exc.value.text.startswith("Invalid Form Body\nIn ")
    return exc.value


def test_discord_limits_answer_invalid_form_body(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    hidden = fake.add_channel("staff", refused=True)

    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            channel = client.get_partial_messageable(int(fake.channel_id))
            with pytest.raises(discord.HTTPException) as long_title:
                await channel.send(embed=discord.Embed(title="t" * 257))
            assert "In embeds.0.title: Must be 256 or fewer" in str(_form_error(long_title))
            with pytest.raises(discord.HTTPException) as long_content:
                await channel.send("x" * 2001)
            assert "In content: Must be 2000 or fewer" in str(_form_error(long_content))
            big = discord.Embed(description="d" * 4096)
            for _ in range(2):
                big.add_field(name="n", value="v" * 1024)
            with pytest.raises(discord.HTTPException) as too_big:
                await channel.send(embed=big)
            assert "6000" in str(_form_error(too_big))
            many = discord.Embed(title="fields")
            for i in range(26):
                many.add_field(name=str(i), value="v")
            with pytest.raises(discord.HTTPException) as too_many:
                await channel.send(embed=many)
            assert "embeds.0.fields" in str(_form_error(too_many))
            general = client.get_channel(int(fake.channel_id))
            assert isinstance(general, discord.TextChannel)
            sent = await general.send("ok")
            with pytest.raises(discord.HTTPException) as long_name:
                await sent.create_thread(name="n" * 101)
            assert "In name: Must be between 1 and 100" in str(_form_error(long_name))
            with pytest.raises(discord.NotFound) as unknown:
                await client.get_partial_messageable(99).send("x")
            assert unknown.value.code == 10003
            with pytest.raises(discord.Forbidden) as refused:
                await client.get_partial_messageable(int(hidden)).send("x")
            assert refused.value.code == 50001

    run(scenario())
    assert [m["content"] for m in fake.messages()] == ["ok"]
    title = fake.requests("POST", "/channels/{id}/messages")[0].response
    assert title["errors"] == {
        "embeds": {
            "0": {
                "title": {
                    "_errors": [
                        {
                            "code": "BASE_TYPE_MAX_LENGTH",
                            "message": "Must be 256 or fewer in length.",
                        }
                    ]
                }
            }
        }
    }


def test_deletions_reach_the_client_as_raw_events(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            channel = client.get_partial_messageable(int(fake.channel_id))
            mine = await channel.send("mine")
            deleting = expect(client, "raw_message_delete")
            await mine.delete()
            deleted = await deleting
            assert deleted.message_id == mine.id and deleted.guild_id == int(fake.guild_id)
            said = [fake.user_says(text=f"spam {i}")["id"] for i in range(3)]
            fake.user_deletes(said[0])
            single = await client.wait_for("raw_message_delete", timeout=5)
            assert single.message_id == int(said[0])
            fake.bulk_delete(fake.channel_id, said[1:])
            bulk = await client.wait_for("raw_bulk_message_delete", timeout=5)
            assert bulk.message_ids == {int(i) for i in said[1:]}
            assert bulk.channel_id == int(fake.channel_id)

    run(scenario())
    assert fake.messages() == []
