"""Search without the semantic extra: one page of the viewer's workspace as its channel may see
it, what the parser ignored, the page as a message, and the operator's view."""

from __future__ import annotations

import pytest

from bot.db.database import Database
from bot.domain import PaperStatus
from bot.messages import Buttons
from bot.services import comments, search
from bot.services.embedding import NO_SEMANTIC, NOT_INSTALLED
from bot.services.telemetry import Telemetry
from bot.services.workspaces import WorkspaceUnknown
from bot.wording import archive
from bot.wording import semantic as words
from tests.conftest import SAMPLE_QUEUED
from tests.services.conftest import key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import HOSTILE, deliver, follow_key, in_thread, plain

C1 = key("C1")
T1 = C1.workspace_key


@pytest.fixture
def sample(database: Database) -> Database:
    """C1 follows the sample list."""
    follow_key(database, C1)
    load_sample(database)
    return database


def test_words_find_papers_a_page_at_a_time(sample: Database) -> None:
    first = search.search(
        uow=sample, semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), text="training", viewer=C1
    )
    assert first.engine == words.KEYWORD and first.why == NOT_INSTALLED
    assert len(first.page.hits) == search.PAGE_SIZE and first.next_offset == search.PAGE_SIZE
    assert all("train" in (h.paper.title + h.paper.abstract).lower() for h in first.page.hits)
    rest = search.search(
        uow=sample,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="training",
        viewer=C1,
        offset=first.page.total - 1,
    )
    assert len(rest.page.hits) == 1 and rest.next_offset is None
    ids = {h.paper.id for h in first.page.hits}
    second = search.search(
        uow=sample,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="training",
        viewer=C1,
        offset=search.PAGE_SIZE,
    )
    assert ids.isdisjoint(h.paper.id for h in second.page.hits)
    assert (
        search.search(
            uow=sample,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="training",
            viewer=C1,
            offset=-3,
        ).page.offset
        == 0
    )


def test_filters_exclusions_and_what_the_parser_ignored(sample: Database) -> None:
    queued = search.search(
        uow=sample,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="is:queued",
        viewer=C1,
        limit=100,
    )
    assert queued.page.total == SAMPLE_QUEUED and queued.why == NOT_INSTALLED
    assert all(h.paper.status is PaperStatus.QUEUED for h in queued.page.hits)
    with_gpu = search.search(
        uow=sample, semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), text="training", viewer=C1
    ).page.total
    without = search.search(
        uow=sample,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="training -GPU",
        viewer=C1,
    ).page.total
    assert 0 < without < with_gpu
    noted = search.search(
        uow=sample,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="training is:lost after:tomorrow",
        viewer=C1,
    )
    assert noted.notes == (
        "ignored is:lost: use is:queued, is:posted or is:skipped",
        "ignored after:tomorrow: dates look like 2026-01-31",
    )
    assert "ignored is:lost" in plain(search.page_message(result=noted))


def test_hostile_queries_are_text(sample: Database) -> None:
    for text in (*HOSTILE, "' OR 1=1 --", '"unclosed', "-", "*", "%_%"):
        result = search.search(
            uow=sample, semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), text=text, viewer=C1
        )
        assert result.page.total >= 0 and result.text == text
    long = search.search(
        uow=sample, semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), text="x" * 10_000, viewer=C1
    )
    assert long.notes and "characters of the query" in long.notes[0]


def test_comments_are_found_with_who_said_them(sample: Database, chat: MemoryChat) -> None:
    post, card = deliver(sample, chat, C1)
    comments.reply(
        telemetry=Telemetry(), uow=sample, message=in_thread(post), text="<@U999> quokkas 🦘"
    )
    [hit] = search.search(
        uow=sample, semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), text="quokkas", viewer=C1
    ).page.hits
    assert hit.from_comment and hit.comment_user == "U7" and hit.paper.id == card.paper.id
    assert hit.channel == C1 and hit.post_date == card.local_date


def test_the_page_as_a_message(sample: Database) -> None:
    result = search.search(
        uow=sample, semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), text="training", viewer=C1
    )
    said = search.page_message(result=result)
    assert plain(said).startswith(f"Results 1–5 of {result.page.total} for “training”")
    [more] = next(b for b in said.blocks if isinstance(b, Buttons)).buttons
    assert more.action == archive.SEARCH_MORE
    assert archive.read_more_value(value=more.value) == ("training", 5)
    nothing = search.page_message(
        result=search.search(
            uow=sample, semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), text="zzyzx", viewer=C1
        )
    )
    assert plain(nothing).startswith("No papers or comments match “zzyzx”.")
    assert not any(isinstance(b, Buttons) for b in nothing.blocks)


def test_identifiers_and_no_words(sample: Database) -> None:
    listing = search.search(
        uow=sample, semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), text="", viewer=C1
    )
    assert listing.why == NOT_INSTALLED and listing.page.total >= SAMPLE_QUEUED
    shown = [hit.paper.id for hit in listing.page.hits]
    assert shown == sorted(shown, reverse=True)  # no words to rank by: the latest first
    assert (
        search.search(
            uow=sample,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="2104.04473",
            viewer=C1,
        ).engine
        == words.KEYWORD
    )


def test_the_operator_sees_the_only_workspace_or_must_name_one(database: Database) -> None:
    load_sample(database)  # the unclaimed archive
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="training",
            viewer=None,
        ).page.total
        > 0
    )
    follow_key(database, C1)
    follow_key(database, key("C1", workspace="T2"))
    with pytest.raises(WorkspaceUnknown):
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="training",
            viewer=None,
        )
    named = search.search(
        uow=database,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="training",
        viewer=None,
        workspace=T1,
    )
    assert named.page.total > 0
    other = search.search(
        uow=database,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="training",
        viewer=key("C5", workspace="T2"),
    )
    assert other.page.total == 0
