"""/paperclub related and the related line of a post without the semantic extra: what it says
(tests/semantic/ covers the answers with the model)."""

from __future__ import annotations

from bot.db.database import Database
from bot.messages import message
from bot.services import listing, related
from bot.services.embedding import NO_SEMANTIC, NOT_INSTALLED, SemanticExtra
from bot.wording import semantic as words
from tests.services.conftest import follow, key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import HOSTILE, MONDAY, deliver, plain

C1 = key("C1")


def test_which_paper_is_asked_first(database: Database) -> None:
    for text in ("", "   "):
        asked = related.ask(uow=database, text=text, viewer=C1, semantic_extra=NO_SEMANTIC)
        assert asked.message == message(words.RELATED_ASK)


def test_without_the_extra_it_says_why(database: Database) -> None:
    load_sample(database)
    for text in ("2104.04473", "tensor parallelism", *HOSTILE):
        reply = related.ask(uow=database, text=text, viewer=C1, semantic_extra=NO_SEMANTIC)
        assert plain(reply.message) == words.related_unavailable(why=NOT_INSTALLED)
    off = SemanticExtra(why="turned off by PAPERCLUB_SEMANTIC=off")
    reply = related.ask(uow=database, text="tensor", viewer=C1, semantic_extra=off)
    assert plain(reply.message) == (
        "Related papers are not available here: turned off by PAPERCLUB_SEMANTIC=off."
    )
    found = related.find(
        uow=database, text="tensor", workspace=C1.workspace_key, viewer=None, semantic_extra=off
    )
    assert found == words.related_unavailable(why="turned off by PAPERCLUB_SEMANTIC=off")


def test_a_post_names_no_related_papers_without_it(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    channel = follow(database)
    _, first = deliver(database, chat, channel)
    assert first.related == ()
    followed = listing.find_channel(uow=database, name="C1")
    with database(write=False) as store:
        said = related.on_post(
            store=store,
            channel=followed,
            paper=first.paper,
            day=MONDAY.date(),
            semantic_extra=NO_SEMANTIC,
        )
    assert said == ()
