"""Reading a daily post back from Discord (ports.ReadBack): the real DiscordChat on discord.py
against the fake, as reconciliation calls it after events may have been lost."""

from __future__ import annotations

import time
from typing import Any

import discord

from bot.discord.chat import DiscordChat
from bot.ports.readback import ReadBack, SeenReaction, SeenReply
from tests.discord.conftest import DiscordHarness

VOTES = frozenset({"👍", "👎"})
REACTIONS = "/channels/{c}/messages/{m}/reactions/{e}"
HOSTILE = "<@{alice}> **bold** @everyone <#1> ```x``` <:blob:123456789012345678> " + "🎉" * 3


def _chat(harness: DiscordHarness) -> DiscordChat:
    """The platform's Chat, which reconciliation reads through."""
    return harness.platform.chat


def _thread(harness: DiscordHarness, post_id: str) -> list[SeenReply]:
    """Every reply in the post's thread, all pages read."""
    replies: list[SeenReply] = []
    cursor: str | None = None
    while True:
        page = _chat(harness).thread_page(channel=harness.key, message_id=post_id, cursor=cursor)
        replies += page.replies
        if page.cursor is None:
            return replies
        cursor = page.cursor


def test_the_chat_is_a_readback(harness: DiscordHarness) -> None:
    assert isinstance(_chat(harness), ReadBack)


def test_every_voting_reaction_is_read_back_all_pages_without_the_bot(
    harness: DiscordHarness,
) -> None:
    fake = harness.fake
    post = harness.daily_post()["id"]
    people = [fake.add_member(f"reader{i}") for i in range(250)]

    def react() -> None:
        for person in people:
            fake.people.react(post, "👍", user=person)
        fake.people.react(post, "👍🏽", user=fake.alice_id)  # a skin tone is another emoji
        fake.people.react(post, "👎🏿", user=fake.bob_id)
        fake.people.react(post, "🎉", user=fake.bob_id)  # votes for nothing
        fake.people.react(post, "thumbsup:123456789012345678", user=fake.alice_id)  # custom
        fake.people.react(post, "👍", user=fake.bot_id)  # the bot's own

    harness.events(react, count=255)  # heard live as well: let the listeners finish
    seen = _chat(harness).reactions_on(channel=harness.key, message_id=post, names=VOTES)
    assert sorted(seen, key=lambda r: (r.emoji, int(r.user))) == sorted(
        [SeenReaction(user=p, name="👍", emoji="👍") for p in people]
        + [
            SeenReaction(user=fake.alice_id, name="👍", emoji="👍🏽"),
            SeenReaction(user=fake.bob_id, name="👎", emoji="👎🏿"),
        ],
        key=lambda r: (r.emoji, int(r.user)),
    )
    # As the live listener passes a reaction: its name and str(payload.emoji).
    live = discord.PartialEmoji(name="👍🏽")
    assert str(live) == "👍🏽"
    pages = [r for r in fake.requests("GET", REACTIONS) if r.path.endswith("/👍")]
    ordered = sorted([*people, fake.bot_id], key=int)  # Discord lists them by id, the bot too
    assert [r.query.get("after") for r in pages] == [None, ordered[99], ordered[199]]
    assert {r.query["limit"] for r in pages} == {"100"}
    # The custom emoji counts once it is named as a voting reaction, spelled as Discord does.
    named = _chat(harness).reactions_on(
        channel=harness.key, message_id=post, names=VOTES | {"thumbsup"}
    )
    assert (
        SeenReaction(user=fake.alice_id, name="thumbsup", emoji="<:thumbsup:123456789012345678>")
        in named
    )
    assert len(named) == len(seen) + 1


def test_a_429_is_waited_out_and_an_enforced_limit_never_met(harness: DiscordHarness) -> None:
    fake = harness.fake
    post = harness.daily_post()["id"]
    people = [fake.add_member(f"r{i}") for i in range(120)]
    harness.events(lambda: [fake.people.react(post, "👎", user=p) for p in people], count=120)
    fake.fail_next("GET", REACTIONS, status=429, retry_after=0.2)
    start = time.monotonic()
    seen = _chat(harness).reactions_on(channel=harness.key, message_id=post, names=VOTES)
    assert time.monotonic() - start >= 0.2
    assert sorted(r.user for r in seen) == sorted(people)
    assert [r.status for r in fake.requests("GET", REACTIONS)] == [429, 200, 200]
    # One request per 0.3 s per channel: discord.py waits when the bucket says 0 are left.
    fake.limit_rate("GET", REACTIONS, limit=1, per=0.3)
    again = _chat(harness).reactions_on(channel=harness.key, message_id=post, names=VOTES)
    assert len(again) == 120 and fake.state.limits.refused == 0


def test_the_thread_is_read_back_as_the_listener_stored_it(harness: DiscordHarness) -> None:
    fake = harness.fake
    post = harness.daily_post()["id"]  # its thread has its id
    hostile = HOSTILE.format(alice=fake.alice_id)
    harness.events(lambda: fake.people.say(post, hostile, user=fake.bob_id))
    other_bot = fake.add_member("otherbot", bot=True)
    said: list[dict[str, Any]] = []
    edited: dict[str, Any] = {}

    def write() -> None:
        for i in range(250):
            said.append(
                fake.people.say(post, f"reply {i}", user=(fake.alice_id, fake.bob_id)[i % 2])
            )
        fake.people.say(post, "beep", user=other_bot)
        edited.update(fake.people.edit(said[7]["id"], "reply 7, edited"))
        fake.people.delete(said[8]["id"])

    harness.events(write, count=253)
    replies = _thread(harness, post)
    stored = _comments(harness, post)
    assert [r.text for r in replies][:1] == [stored[0][1]]  # the listener's text, byte for byte
    kept = [m for i, m in enumerate(said) if i != 8]
    assert [r.message_id for r in replies[1:]] == [m["id"] for m in kept]
    assert [r.user for r in replies[1:]] == [m["author"]["id"] for m in kept]
    seventh = next(r for r in replies if r.message_id == said[7]["id"])
    assert seventh.text == "reply 7, edited"
    assert seventh.edited_at == discord.utils.parse_time(edited["edited_timestamp"])
    assert all(r.edited_at is None for r in replies if r is not seventh)
    assert replies[1].written_at == discord.utils.snowflake_time(int(said[0]["id"]))
    assert replies[1].written_at.tzinfo is not None
    pages = fake.requests("GET", "/channels/{c}/messages")
    assert pages[0].query.get("after") == "0"
    assert {p.query["limit"] for p in pages} == {"100"}
    assert len(pages) == 3  # 253 messages with the starter: 100, 100, 53


def test_a_post_without_a_thread_reads_as_an_empty_last_page(harness: DiscordHarness) -> None:
    fake = harness.fake
    stored, _ = fake.state.store.create(
        channel_id=fake.channel_id, author=fake.state.bot_user(), body={"content": "no thread"}
    )
    page = _chat(harness).thread_page(channel=harness.key, message_id=stored["id"], cursor=None)
    assert (page.replies, page.cursor) == ((), None)


def _comments(harness: DiscordHarness, post_id: str) -> list[tuple[str, str]]:
    """(author, text) of the post's live comments in the archive, oldest first."""
    with harness.database(write=False) as store:
        post = store.post_by_message(channel=harness.key, message_id=post_id)
        assert post is not None
        views = store.post_views(paper_id=post.paper_id, viewer=None)
    return [(c.user, c.text) for view in views for c in view.comments]
