"""Workspaces as tenants: each has its own queue, posts, votes, comments and search, and nothing
of one is ever shown in another; an archive imported before the first start goes to the first
workspace that starts."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.db.database import Database
from bot.domain import LOCAL, ChannelKey, PaperDraft
from bot.services import comments, importing, listing, post_card, posting, search
from bot.services.adding import add
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from tests.services.conftest import WEEKDAYS, key, load_sample, make_poster
from tests.services.memory_chat import MemoryChat
from tests.services.support import vote

MONDAY_0900_BERLIN = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
ALPHA = key("C1", workspace="TALPHA")
BETA = key("C1", workspace="TBETA")  # the same channel id in another team


class NoLookup:
    """Titles need no look-up."""

    def by_arxiv_id(self, *, arxiv_id: str) -> None:
        """Nothing."""

    def by_doi(self, *, doi: str) -> None:
        """Nothing."""


def _post_and_comment(database: Database, channel: ChannelKey, text: str) -> tuple[int, str]:
    """Today's post in the channel, a vote and a comment on it; its post id and title."""
    poster = make_poster(database, MemoryChat())
    result = posting.post_today(poster=poster, channel=channel, now=MONDAY_0900_BERLIN)
    assert result.outcome is posting.Outcome.POSTED and result.post is not None
    post, card = post_card.card_of_post(
        uow=database, post_id=result.post.id, semantic_extra=NO_SEMANTIC
    ) or (None, None)
    assert post is not None and card is not None and post.message_id is not None
    vote(database, post, user="U1", value=1, event=f"v-{channel}", now=MONDAY_0900_BERLIN)
    message = comments.ThreadMessage(
        channel=channel,
        thread_id=post.message_id,
        message_id="9.000900",
        user="U7",
        event_id=f"c-{channel}",
        now=MONDAY_0900_BERLIN,
    )
    comments.reply(uow=database, message=message, text=text, telemetry=Telemetry())
    return post.id, card.paper.title


def _two_teams(database: Database) -> None:
    """Each team follows its C1; ALPHA's archive is the sample list, BETA's one paper."""
    with database() as store:
        store.save_channel(key=ALPHA, schedule=WEEKDAYS, private=False)
        store.save_channel(key=BETA, schedule=WEEKDAYS, private=False)
    load_sample(database, workspace=ALPHA.workspace_key)
    beta_paper = PaperDraft(title="Wombat routing", abstract="Sparse meshes for marsupials.")
    importing.import_drafts(
        uow=database, drafts=[beta_paper], now=MONDAY_0900_BERLIN, workspace=BETA.workspace_key
    )


def test_each_workspace_posts_from_its_own_queue_and_finds_only_its_own(
    database: Database,
) -> None:
    _two_teams(database)
    _, alpha_title = _post_and_comment(database, ALPHA, "quokkas in alpha")
    _, beta_title = _post_and_comment(database, BETA, "numbats in beta")
    assert beta_title == "Wombat routing" and alpha_title != beta_title
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="wombat",
            viewer=BETA,
        ).page.total
        == 1
    )
    for viewer, theirs in ((ALPHA, ("wombat", "numbats")), (BETA, ("quokkas", "parallelism"))):
        for text in theirs:
            assert (
                search.search(
                    uow=database,
                    semantic_extra=NO_SEMANTIC,
                    telemetry=Telemetry(),
                    text=text,
                    viewer=viewer,
                ).page.total
                == 0
            ), text
    own = search.search(
        uow=database,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="quokkas",
        viewer=ALPHA,
    ).page
    assert own.total == 1 and own.hits[0].from_comment and own.hits[0].votes.up == 1
    # The listing without words: posts of the workspace's own papers only.
    latest = search.search(
        uow=database, semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), text="", viewer=BETA
    ).page
    assert [hit.paper.title for hit in latest.hits] == ["Wombat routing"]
    beta_queue = listing.queues(uow=database, workspace=BETA.workspace_key)
    assert [view.total for view in beta_queue] == [0]  # its one paper is posted
    exported = listing.records(uow=database, workspace=BETA.workspace_key)
    assert [r.paper.title for r in exported] == ["Wombat routing"]
    assert {p.channel for r in exported for p in r.posts} == {BETA}


def test_have_we_read_it_asks_the_own_workspace_only(database: Database) -> None:
    _two_teams(database)
    _, beta_title = _post_and_comment(database, BETA, "numbats")
    ours = add(
        uow=database,
        lookup=NoLookup(),
        text=beta_title,
        channel=BETA,
        user="U8",
        now=MONDAY_0900_BERLIN,
        semantic_extra=NO_SEMANTIC,
    )
    assert "already read" in ours.text
    theirs = add(
        uow=database,
        lookup=NoLookup(),
        text=beta_title,
        channel=ALPHA,
        user="U8",
        now=MONDAY_0900_BERLIN,
        semantic_extra=NO_SEMANTIC,
    )
    assert "Added" in theirs.text and "already" not in theirs.text
    # The same paper is now a row in each workspace, with its own place in each queue.
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="wombat",
            viewer=ALPHA,
        ).page.total
        == 1
    )
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="numbats",
            viewer=ALPHA,
        ).page.total
        == 0
    )


def test_an_import_before_the_first_start_goes_to_the_first_workspace(
    database: Database,
) -> None:
    load_sample(database)  # nothing follows the list yet: the unclaimed archive
    with database(write=False) as store:
        assert store.workspaces() == [LOCAL]
    with database() as store:
        store.save_channel(key=ALPHA, schedule=WEEKDAYS, private=False)  # ALPHA starts first
        store.save_channel(key=BETA, schedule=WEEKDAYS, private=False)
    with database(write=False) as store:
        assert store.workspaces() == [ALPHA.workspace_key, BETA.workspace_key]
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="parallelism",
            viewer=ALPHA,
        ).page.total
        > 0
    )
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="parallelism",
            viewer=BETA,
        ).page.total
        == 0
    )
    assert (
        posting.post_today(
            poster=make_poster(database, MemoryChat()), channel=BETA, now=MONDAY_0900_BERLIN
        ).outcome
        is posting.Outcome.EMPTY
    )
