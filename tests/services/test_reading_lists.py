"""A reading list's header names the list and a reference; no post is empty while any paper
has an abstract; derived titles and the list's name show on posts."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.db.database import Database
from bot.domain import PaperDraft, PaperStatus
from bot.services import importing
from bot.services.posting import Outcome, post_today
from bot.slack.blocks import paper_message
from bot.wording import post as words
from tests.services.conftest import follow, load_sample, make_poster
from tests.services.memory_chat import MemoryChat

MONDAY_9 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)  # 09:00 in Berlin
LIST = "Related papers: Nonuniform-Tensor-Parallelism: Mitigating GPU fail…"


def _import(database: Database, *drafts: PaperDraft) -> None:
    """Import drafts as a file would bring them."""
    importing.import_drafts(uow=database, drafts=drafts, now=MONDAY_9)


def test_the_sample_lists_header_is_a_reference_never_posted(
    database: Database, chat: MemoryChat
) -> None:
    load_sample(database)
    channel = follow(database)
    with database(write=False) as store:
        header = store.paper(paper_id=1)
        assert header is not None and header.status is PaperStatus.REFERENCE
        queued = store.queued(
            workspace=channel.workspace_key, channel=store.channel(key=channel), limit=100
        )
    assert header.id not in {p.id for p in queued}
    assert all(p.abstract for p in queued)
    result = post_today(poster=make_poster(database, chat), channel=channel, now=MONDAY_9)
    assert result.outcome is Outcome.POSTED
    [card] = chat.posts["C1"]
    assert card.list_name == LIST and card.paper.title_derived
    _, blocks = paper_message(card=card, names=lambda user: user)  # as Slack shows it
    shown = str(blocks)
    assert words.DERIVED_TITLE in shown and "from the list: Related papers" in shown


def test_a_paper_without_an_abstract_waits_while_another_has_one(
    database: Database, chat: MemoryChat
) -> None:
    _import(
        database,
        PaperDraft(title="Only a title", origin="t:1"),
        PaperDraft(title="With words", abstract="What the group will read today.", origin="t:2"),
    )
    channel = follow(database)
    poster = make_poster(database, chat)
    assert post_today(poster=poster, channel=channel, now=MONDAY_9).outcome is Outcome.POSTED
    assert chat.posts["C1"][0].paper.title == "With words"


def test_with_no_abstract_anywhere_the_post_says_why_and_how(
    database: Database, chat: MemoryChat
) -> None:
    _import(database, PaperDraft(title="Only a title", origin="t:1"))
    channel = follow(database)
    post_today(poster=make_poster(database, chat), channel=channel, now=MONDAY_9)
    [card] = chat.posts["C1"]
    _, blocks = paper_message(card=card, names=lambda user: user)
    assert "nor for any paper in the queue" in str(blocks)
    assert "paperclub enrich" in str(blocks)
