"""The /paperclub router: each subcommand reaches its service, admin commands only for admins,
and anything else is a search, never an error."""

from __future__ import annotations

import json

import pytest

from bot.db.database import Database
from bot.services import commands
from bot.services.commands.table import TABLE
from bot.services.embedding import NO_SEMANTIC, NOT_INSTALLED
from bot.services.telemetry import Telemetry
from bot.wording import archive, replies
from bot.wording import semantic as semantic_words
from bot.wording import web as web_words
from tests.conftest import SAMPLE_QUEUED
from tests.services.conftest import follow, key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import HOSTILE, invocation, plain

C1 = key("C1")


@pytest.mark.parametrize(
    ("text", "split"),
    [
        ("", ("help", [])),
        ("   ", ("help", [])),
        ("SKIP", ("skip", [])),
        ("Add 2104.04473  now", ("add", ["2104.04473", "now"])),
    ],
)
def test_split_reads_the_subcommand_and_its_arguments(
    text: str, split: tuple[str, list[str]]
) -> None:
    assert commands.split(text=text) == split


def test_help_and_nothing_at_all_answer_with_the_help(database: Database, chat: MemoryChat) -> None:
    call = invocation(database, chat, C1)
    for text in ("help", "", "HELP"):
        said = plain(commands.handle(call=call, text=text).message)
        # Every subcommand is named (resume on pause's line), the admins' after the rest.
        for entry in TABLE:
            assert f"/paperclub {entry.name}" in said or f"/ {entry.name}" in said, entry.name
        assert said.index("/paperclub schedule") > said.index("/paperclub queue")


@pytest.mark.parametrize(
    "text", ["schedule 09:00", "pause", "resume", "skip", "next", "recap off", "order taste"]
)
def test_admin_subcommands_are_refused_to_others_and_change_nothing(
    database: Database, chat: MemoryChat, text: str
) -> None:
    load_sample(database)
    follow(database)
    name = text.split()[0]
    reply = commands.handle(call=invocation(database, chat, C1, user="U1"), text=text)
    assert reply.message == replies.refusal(command=name) and not reply.reschedule
    queue = commands.handle(call=invocation(database, chat, C1), text="queue")
    assert f"({SAMPLE_QUEUED} in all)" in plain(queue.message)
    assert chat.count("C1") == 0


def test_an_admin_follows_pauses_and_posts(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    call = invocation(database, chat, C1, user="UADMIN")
    followed = commands.handle(call=call, text="schedule 09:00 Europe/Berlin mon-fri")
    assert followed.reschedule and "Paper Club now posts here" in followed.text
    assert commands.handle(call=call, text="pause").message == replies.PAUSED
    assert "Resumed." in commands.handle(call=call, text="resume").text
    assert commands.handle(call=call, text="next").message == replies.POST_NEXT["posted"]
    assert chat.count("C1") == 1
    assert "Skipped" in commands.handle(call=call, text="skip").text


def test_the_platforms_admins_count_when_none_are_configured(
    database: Database, chat: MemoryChat
) -> None:
    chat.admins.add("UWS")
    call = invocation(database, chat, C1, user="UWS", admins=())
    assert commands.handle(call=call, text="pause").message == replies.NOT_FOLLOWED


def test_queue_shows_the_next_papers_or_that_it_is_empty(
    database: Database, chat: MemoryChat
) -> None:
    call = invocation(database, chat, C1)
    assert commands.handle(call=call, text="queue").message == replies.QUEUE_EMPTY
    load_sample(database, workspace=C1.workspace_key)  # the shared list: C1 follows none
    reply = commands.queue_reply(call=call, limit=2)
    said = plain(reply.message)
    assert f"({SAMPLE_QUEUED} in all)" in said and f"and {SAMPLE_QUEUED - 2} more" in said


def test_anything_else_is_a_search(database: Database, chat: MemoryChat) -> None:
    load_sample(database, workspace=C1.workspace_key)
    call = invocation(database, chat, C1)
    bare = commands.handle(call=call, text="tensor parallelism")
    named = commands.handle(call=call, text="search tensor parallelism")
    assert bare.text == named.text and bare.text.startswith("Results 1–")
    assert "for “tensor parallelism”" in bare.text
    unknown = commands.handle(call=call, text="frobnicate")
    assert unknown.text == "No papers or comments match “frobnicate”."
    assert commands.handle(call=call, text="search").message == archive.ASK_WHAT
    assert commands.handle(call=call, text="search   ").message == archive.ASK_WHAT


def test_hostile_searches_answer_plainly(database: Database, chat: MemoryChat) -> None:
    load_sample(database, workspace=C1.workspace_key)
    call = invocation(database, chat, C1)
    for text in HOSTILE:
        reply = commands.handle(call=call, text=text)
        assert reply.summary is not None and len(reply.summary) < 300
        assert reply.summary.startswith(("No papers", "Results"))


def test_more_results_carries_the_query_and_the_offset(
    database: Database, chat: MemoryChat
) -> None:
    load_sample(database, workspace=C1.workspace_key)
    first = commands.handle(call=invocation(database, chat, C1), text="training")
    assert first.text.startswith("Results 1–5 of ")
    value = archive.more_value(text="training", offset=5)
    more = commands.more_results(
        uow=database,
        value=value,
        viewer=C1,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    assert more is not None and more.text.startswith("Results 6–")
    for stale in ("", "not json", json.dumps({"q": "x"}), json.dumps({"q": "x", "o": -1}), None):
        assert (
            commands.more_results(
                uow=database,
                value=stale,
                viewer=C1,
                semantic_extra=NO_SEMANTIC,
                telemetry=Telemetry(),
            )
            is None
        )


def test_add_top_related_order_and_web_reach_their_services(
    database: Database, chat: MemoryChat
) -> None:
    call = invocation(database, chat, C1, user="UADMIN")
    assert commands.handle(call=call, text="add").message == replies.ADD_USAGE
    added = commands.handle(call=call, text="add A paper about wombats")
    assert "Added “A paper about wombats”" in added.text
    assert commands.handle(call=call, text="top").message == archive.no_top(
        period="month", bounded=True
    )
    assert commands.handle(call=call, text="top ALL").message == archive.no_top(
        period="all", bounded=False
    )
    assert commands.handle(call=call, text="top decade").message == replies.TOP_USAGE
    related = commands.handle(call=call, text="related wombats")
    assert related.text == semantic_words.related_unavailable(why=call.semantic_extra.reason)
    assert call.semantic_extra.reason == NOT_INSTALLED
    assert commands.handle(call=call, text="order taste").message == replies.NOT_FOLLOWED
    assert call.signer is None  # sign-in is off
    assert commands.handle(call=call, text="web").message == web_words.WEB_OFF
