"""/paperclub add: a reference joins the channel's queue, completed from arXiv or Crossref,
unless the workspace already has it; offline or unknown ids are added as typed, with a note."""

from __future__ import annotations

from bot.db.database import Database
from bot.domain import ChannelKey, PaperDraft
from bot.ports import PaperLookup
from bot.services import admin, listing
from bot.services.adding import add
from bot.services.embedding import NO_SEMANTIC, SemanticExtra
from bot.wording import replies
from tests.conftest import SAMPLE_QUEUED
from tests.services.conftest import follow, key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import (
    HOSTILE,
    MONDAY,
    KnownLookup,
    NoLookup,
    OfflineLookup,
    deliver,
    plain,
)

C1 = key("C1")
FOUND = PaperDraft(
    title="Attention Is All You Need",
    abstract="The dominant sequence transduction models are based on recurrent networks.",
    authors=("Ashish Vaswani",),
    url="https://arxiv.org/abs/1706.03762",
    arxiv_id="1706.03762",
    origin="arxiv",
)


def _add(
    database: Database,
    text: str,
    *,
    lookup: PaperLookup | None = None,
    channel: ChannelKey = C1,
    semantic_extra: SemanticExtra = NO_SEMANTIC,
) -> str:
    """`/paperclub add <text>` by U8, as plain text."""
    reply = add(
        uow=database,
        lookup=lookup or NoLookup(),
        text=text,
        channel=channel,
        user="U8",
        now=MONDAY,
        semantic_extra=semantic_extra,
    )
    return plain(reply.message)


def _titles(database: Database, channel: ChannelKey = C1) -> list[str]:
    """The titles queued for `channel`, in order."""
    [view] = listing.queues(uow=database, workspace=channel.workspace_key, limit=100)
    return [paper.title for paper in view.papers]


def test_nothing_to_add_gets_the_usage(database: Database) -> None:
    for text in ("", "   "):
        assert _add(database, text) == plain(replies.ADD_USAGE)


def test_a_title_joins_the_end_of_the_channels_queue(database: Database) -> None:
    follow(database)
    load_sample(database)
    said = _add(database, "A paper about wombats")
    assert said == plain(
        replies.added(title="A paper about wombats", position=SAMPLE_QUEUED + 1, note="")
    )
    assert _titles(database)[-1] == "A paper about wombats"


def test_an_id_is_completed_from_the_service(database: Database) -> None:
    follow(database)
    lookup = KnownLookup(papers={"1706.03762": FOUND})
    said = _add(database, "https://arxiv.org/abs/1706.03762v5", lookup=lookup)
    assert lookup.asked == ["1706.03762"]
    assert said == plain(replies.added(title=FOUND.title, position=1, note=""))
    [record] = listing.records(uow=database, workspace=C1.workspace_key)
    assert record.paper.abstract == FOUND.abstract and record.paper.source == "added by U8"


def test_offline_or_unknown_ids_are_added_as_typed_with_a_note(database: Database) -> None:
    follow(database)
    offline = _add(database, "arXiv:2104.04473", lookup=OfflineLookup())
    assert offline.endswith(replies.offline_note(reason="arXiv could not be reached").strip())
    unknown = _add(database, "10.1145/3458817.3476209")
    assert "(Crossref has no DOI 10.1145/3458817.3476209; added as typed.)" in unknown
    assert len(_titles(database)) == 2


def test_a_paper_the_group_has_is_reported_not_added(database: Database, chat: MemoryChat) -> None:
    follow(database)
    _add(database, "A paper about wombats")
    _add(database, "Numbats at scale")
    queued = _add(database, "a paper about WOMBATS")  # the title again, typed differently
    assert "is already in the queue, at position 1" in queued
    admin.skip(uow=database, channel=C1, now=MONDAY)
    assert "an admin skipped it" in _add(database, "A paper about wombats")
    _, card = deliver(database, chat, C1)
    assert card.paper.title == "Numbats at scale"
    read = _add(database, "Numbats at scale")
    assert read.startswith("The group already read “Numbats at scale” on Mon 5 Jan 2026 in ")
    assert "👍 0 · 👎 0 · 💬 0." in read
    assert _titles(database) == []  # nothing was queued again


def test_an_id_already_held_is_found_before_asking_the_service(database: Database) -> None:
    follow(database)
    _add(database, "1706.03762", lookup=KnownLookup(papers={"1706.03762": FOUND}))
    lookup = KnownLookup(papers={"1706.03762": FOUND})
    again = _add(database, "https://arxiv.org/pdf/1706.03762", lookup=lookup)
    assert lookup.asked == [] and "is already in the queue" in again
    # A title that the service's answer names matches too, once fetched.
    typed_then_fetched = _add(database, "Attention Is All You Need")
    assert "is already in the queue" in typed_then_fetched


def test_another_workspace_has_its_own_papers(database: Database) -> None:
    follow(database)
    _add(database, "A paper about wombats")
    elsewhere = key("C1", workspace="T2")
    assert "Added" in _add(database, "A paper about wombats", channel=elsewhere)
    assert _titles(database, elsewhere) == ["A paper about wombats"]


def test_hostile_text_is_added_as_text(database: Database) -> None:
    follow(database)
    told: list[str] = []
    extra = SemanticExtra(on_write=lambda: told.append("added"))
    for text in HOSTILE:
        said = _add(database, text, semantic_extra=extra)
        assert said.startswith("Added “") and "position" in said, said[:80]
    assert told == ["added"] * len(HOSTILE)  # the embedder is told of each, once committed
    # The one with an abstract first: papers without one wait (queued()'s rule).
    long, markup, emoji = _titles(database)
    assert markup == "<!channel> <@U999> *bold* _it_ `code` @everyone"  # the link taken as url
    assert emoji == HOSTILE[1]
    assert long.startswith("Xxxx") and len(long) <= 300  # a title derived from the "abstract"
