"""Events members cause, as discord.py receives them: reactions, edits, new threads."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.client import expect, running

Run = Callable[[Coroutine[Any, Any, None]], None]
MakeClient = Callable[..., discord.Client]


def test_reaction_add_and_remove_arrive_as_raw_events(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            channel = client.get_channel(int(fake.channel_id))
            assert isinstance(channel, discord.TextChannel)
            post = await channel.send("Vote with a reaction")
            fake.react(str(post.id), "👍", user=fake.bob_id)
            added = await client.wait_for("raw_reaction_add", timeout=5)
            assert (added.message_id, added.user_id, str(added.emoji)) == (
                post.id,
                int(fake.bob_id),
                "👍",
            )
            assert added.member is not None and added.member.name == "bob"
            assert added.message_author_id == int(fake.bot_id)
            assert added.event_type == "REACTION_ADD" and added.guild_id == int(fake.guild_id)
            # MESSAGE_CREATE put the message in discord.py's cache: its reactions count it too.
            cached = discord.utils.get(client.cached_messages, id=post.id)
            assert cached is not None
            assert [(str(r.emoji), r.count, r.me) for r in cached.reactions] == [("👍", 1, False)]
            fake.unreact(str(post.id), "👍", user=fake.bob_id)
            removed = await client.wait_for("raw_reaction_remove", timeout=5)
            assert (removed.message_id, removed.user_id, removed.member) == (
                post.id,
                int(fake.bob_id),
                None,
            )
            assert cached.reactions == []
            # The bot's own reaction goes through REST, and comes back as an event as well.
            own = expect(client, "raw_reaction_add")
            await post.add_reaction("paperclub:1234")
            mine = await own
            assert (mine.user_id, mine.emoji.name, mine.emoji.id) == (
                int(fake.bot_id),
                "paperclub",
                1234,
            )

    run(scenario())
    put = fake.requests("PUT", "/channels/{c}/messages/{m}/reactions/{e}/@me")[0]
    assert put.path.endswith("/reactions/paperclub:1234/@me") and put.status == 204
    stored = fake.messages()[0]
    assert [(r["emoji"]["name"], r["count"], r["me"]) for r in stored["reactions"]] == [
        ("paperclub", 1, True)
    ]


def test_a_second_identical_reaction_is_refused_by_the_helper(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            said = fake.user_says(text="hello")
            fake.react(said["id"], "🎉")
            with pytest.raises(ValueError, match="already reacted"):
                fake.react(said["id"], "🎉")
            with pytest.raises(ValueError, match="has no reaction"):
                fake.unreact(said["id"], "👍")
            await client.wait_for("raw_reaction_add", timeout=5)

    run(scenario())
    assert fake.messages()[0]["reactions"][0]["count_details"] == {"burst": 0, "normal": 1}


def test_edits_and_new_threads_from_members(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            said = fake.user_says(text="first draft")
            original = await client.wait_for("message", timeout=5)
            fake.user_edits(said["id"], "final text")
            before, after = await client.wait_for("message_edit", timeout=5)
            assert (before.content, after.content) == ("first draft", "final text")
            assert before.id == original.id and after.edited_at is not None
            thread = fake.user_creates_thread(name="Questions", from_message=said["id"])
            created = await client.wait_for("thread_create", timeout=5)
            assert created.id == int(said["id"]) == int(thread["id"])
            assert created.owner_id == int(fake.alice_id) and created.name == "Questions"
            fake.user_says(text="Q1", thread=thread["id"], user=fake.bob_id)
            question = await client.wait_for("message", timeout=5)
            assert question.channel.id == created.id and question.author.name == "bob"
            private = fake.user_creates_thread(name="mods only", private=True)
            made = await client.wait_for("thread_create", timeout=5)
            assert made.id == int(private["id"]) and made.type is discord.ChannelType.private_thread

    run(scenario())
