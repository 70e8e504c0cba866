"""Comments on Discord: messages in a daily post's thread, with edits and deletes (bulk too);
bots, other threads and replayed events change nothing."""

from __future__ import annotations

from typing import Any

from bot.domain import Paper
from tests.discord.conftest import DiscordHarness


def _comments(harness: DiscordHarness, message: dict[str, Any]) -> list[tuple[str, str]]:
    """(author, text) of the post's live comments, oldest first."""
    with harness.database(write=False) as store:
        post = store.post_by_message(channel=harness.key, message_id=message["id"])
        assert post is not None
        views = store.post_views(paper_id=post.paper_id, viewer=None)
    return [(c.user, c.text) for view in views for c in view.comments]


def test_replies_in_the_thread_are_comments(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake, thread = harness.fake, message["id"]  # a thread opened from a message takes its id
    harness.events(lambda: fake.user_says(text="Loved section 3", thread=thread))
    harness.events(lambda: fake.user_says(text="Me too", thread=thread, user=fake.bob_id))
    assert _comments(harness, message) == [
        (fake.alice_id, "Loved section 3"),
        (fake.bob_id, "Me too"),
    ]


def test_edits_and_deletes_follow(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake, thread = harness.fake, message["id"]
    first: dict[str, Any] = {}
    harness.events(lambda: first.update(fake.user_says(text="typo", thread=thread)))
    harness.events(lambda: fake.user_edits(first["id"], "fixed"))
    assert _comments(harness, message) == [(fake.alice_id, "fixed")]
    harness.events(lambda: fake.user_deletes(first["id"]))
    assert _comments(harness, message) == []


def test_a_bulk_delete_removes_every_comment_in_it(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake, thread = harness.fake, message["id"]
    said: list[str] = []
    for text in ("one", "two", "three"):
        harness.events(lambda t=text: said.append(fake.user_says(text=t, thread=thread)["id"]))
    harness.events(lambda: fake.bulk_delete(thread, said[:2]))
    assert _comments(harness, message) == [(fake.alice_id, "three")]


def test_bots_the_channel_and_other_threads_are_not_comments(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake = harness.fake
    robot = fake.add_member("robot", bot=True)
    other = fake.add_thread(name="off topic")
    harness.events(lambda: fake.user_says(text="beep", thread=message["id"], user=robot))
    harness.events(lambda: fake.user_says(text="in the channel"))
    harness.events(lambda: fake.user_says(text="elsewhere", thread=other))
    assert _comments(harness, message) == []


def test_mentions_are_kept_as_names(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake = harness.fake
    text = f"<@{fake.bob_id}> see @everyone"
    harness.events(lambda: fake.user_says(text=text, thread=message["id"]))
    [(_, kept)] = _comments(harness, message)
    assert f"<@{fake.bob_id}>" not in kept and "bob" in kept.lower()
    assert kept.endswith("see @everyone")


def test_comments_are_searchable(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake = harness.fake
    harness.events(lambda: fake.user_says(text="quokkas everywhere", thread=message["id"]))
    answer = harness.command("search", {"query": "quokkas"})
    with harness.database(write=False) as store:
        post = store.post_by_message(channel=harness.key, message_id=message["id"])
        assert post is not None
        paper = store.paper(paper_id=post.paper_id)
    assert isinstance(paper, Paper)
    assert paper.title.split()[0] in answer["content"].replace("\\", "")  # markdown escapes
    assert "**quokkas**" in answer["content"]
