"""Thread replies on daily posts: kept once, edits and deletions follow, whatever order the
events arrive in, and the text is kept exactly as typed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey, PaperCard, Post
from bot.services import comments, search
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from tests.services.conftest import follow, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import HOSTILE, deliver, in_thread, thread

Posted = tuple[ChannelKey, Post, PaperCard]


@pytest.fixture
def posted(database: Database, chat: MemoryChat) -> Posted:
    """The sample list followed in C1, today's paper posted: the channel, post and card."""
    load_sample(database)
    channel = follow(database)
    post, card = deliver(database, chat, channel)
    return channel, post, card


def test_a_reply_is_kept_once_and_found(database: Database, posted: Posted) -> None:
    channel, post, card = posted
    message = in_thread(post)
    assert (
        comments.reply(telemetry=Telemetry(), uow=database, message=message, text="wombats burrow")
        is True
    )
    assert (
        comments.reply(telemetry=Telemetry(), uow=database, message=message, text="wombats burrow")
        is False
    )
    retry = replace(message, event_id="e-other")  # a second event about the same message
    assert (
        comments.reply(telemetry=Telemetry(), uow=database, message=retry, text="wombats burrow")
        is False
    )
    assert thread(database, card, channel) == ["wombats burrow"]
    page = search.search(
        uow=database,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="wombats",
        viewer=channel,
    ).page
    assert page.total == 1 and page.hits[0].from_comment and page.hits[0].comment_user == "U7"


def test_messages_that_are_no_reply_to_a_daily_post_are_ignored(
    database: Database, posted: Posted
) -> None:
    channel, post, card = posted
    parent = replace(in_thread(post), message_id=post.message_id)  # the post itself
    elsewhere = replace(in_thread(post), thread_id="7.000001", event_id="e2")  # another thread
    for message in (parent, elsewhere):
        assert (
            comments.reply(telemetry=Telemetry(), uow=database, message=message, text="hello")
            is False
        )
        assert (
            comments.edit(telemetry=Telemetry(), uow=database, message=message, text="hello again")
            is False
        )
        assert comments.delete(telemetry=Telemetry(), uow=database, message=message) is False
    assert thread(database, card, channel) == []


def test_an_edit_replaces_the_text_and_search_follows(database: Database, posted: Posted) -> None:
    channel, post, card = posted
    comments.reply(
        telemetry=Telemetry(), uow=database, message=in_thread(post, event="e1"), text="numbats"
    )
    assert comments.edit(
        telemetry=Telemetry(), uow=database, message=in_thread(post, event="e2"), text="quolls"
    )
    # The same text again (an unfurl, say) is no change.
    assert not comments.edit(
        telemetry=Telemetry(), uow=database, message=in_thread(post, event="e3"), text="quolls"
    )
    assert thread(database, card, channel) == ["quolls"]
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="numbats",
            viewer=channel,
        ).page.total
        == 0
    )
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="quolls",
            viewer=channel,
        ).page.total
        == 1
    )


def test_a_deleted_reply_leaves_search_and_export(database: Database, posted: Posted) -> None:
    channel, post, card = posted
    comments.reply(
        telemetry=Telemetry(), uow=database, message=in_thread(post, event="e1"), text="bilbies"
    )
    assert comments.delete(telemetry=Telemetry(), uow=database, message=in_thread(post, event="e2"))
    assert not comments.delete(
        telemetry=Telemetry(), uow=database, message=in_thread(post, event="e3")
    )
    assert not comments.edit(
        telemetry=Telemetry(), uow=database, message=in_thread(post, event="e4"), text="bilbies!"
    )
    assert thread(database, card, channel) == []
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="bilbies",
            viewer=channel,
        ).page.total
        == 0
    )


def test_a_deletion_that_overtook_its_message_wins(database: Database, posted: Posted) -> None:
    channel, post, card = posted
    assert comments.delete(telemetry=Telemetry(), uow=database, message=in_thread(post, event="e2"))
    assert not comments.reply(
        telemetry=Telemetry(), uow=database, message=in_thread(post, event="e1"), text="dingo"
    )
    assert thread(database, card, channel) == []
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="dingo",
            viewer=channel,
        ).page.total
        == 0
    )


def test_an_edit_that_overtook_its_message_keeps_the_newer_text(
    database: Database, posted: Posted
) -> None:
    channel, post, card = posted
    assert comments.edit(
        telemetry=Telemetry(), uow=database, message=in_thread(post, event="e2"), text="newer"
    )
    assert not comments.reply(
        telemetry=Telemetry(), uow=database, message=in_thread(post, event="e1"), text="older"
    )
    assert thread(database, card, channel) == ["newer"]


def test_hostile_text_is_kept_exactly(database: Database, posted: Posted) -> None:
    channel, post, card = posted
    for n, text in enumerate(HOSTILE):
        message = in_thread(post, message_id=f"9.00{n}", event=f"h{n}")
        assert comments.reply(telemetry=Telemetry(), uow=database, message=message, text=text)
    assert sorted(thread(database, card, channel)) == sorted(HOSTILE)
    found = search.search(
        uow=database,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="wombat",
        viewer=channel,
    ).page
    assert found.total == 1 and found.hits[0].from_comment
