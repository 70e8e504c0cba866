"""The daily post on Discord: one embed with vote buttons, its thread, exactly once."""

from __future__ import annotations

from bot.discord.chat import nonce
from bot.discord.embeds import vote_custom_id
from bot.domain import PostState
from tests.discord.conftest import DiscordHarness


def test_the_daily_post_has_its_embed_buttons_nonce_and_thread(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    [embed] = message["embeds"]
    assert embed["title"] and embed["description"]
    [row] = message["components"]
    labels = [b["label"] for b in row["components"]]
    assert labels == ["👍 0", "👎 0"]
    with harness.database(write=False) as store:
        channel = store.channel(key=harness.key)
        assert channel is not None
        post = store.post_on(channel=channel, local_date=harness.clock.now().date())
    assert post is not None and post.state is PostState.POSTED
    assert post.message_id == message["id"]
    assert row["components"][0]["custom_id"] == vote_custom_id(post_id=post.id, up=True)
    [create] = harness.fake.requests("POST", f"/channels/{harness.fake.channel_id}/messages")
    assert create.json["nonce"] == nonce(post_id=post.id)
    assert create.json["enforce_nonce"] is True
    assert create.json["allowed_mentions"] == {"parse": [], "replied_user": False}
    # The thread is opened from the post (it takes the post's id), named after the paper.
    thread = harness.fake.channel(message["id"])
    assert thread["parent_id"] == harness.fake.channel_id
    with harness.database(write=False) as store:
        paper = store.paper(paper_id=post.paper_id)
    assert paper is not None
    title = " ".join(paper.title.split())
    assert 0 < len(thread["name"]) <= 100
    assert title.startswith(thread["name"].removesuffix("…"))


def test_a_second_sweep_posts_nothing(harness: DiscordHarness) -> None:
    harness.daily_post()
    harness.sweep()
    assert len(harness.posts()) == 1
