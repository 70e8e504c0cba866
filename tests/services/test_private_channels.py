"""Private stays private: what was said or read in a private channel is found only there;
public channels' content is found everywhere in their workspace, never on another platform."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.services import comments, post_card, posting, search, top
from bot.services.adding import add
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from tests.services.conftest import WEEKDAYS, key, load_sample, make_poster
from tests.services.memory_chat import MemoryChat

MONDAY_0900_BERLIN = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)


class NoLookup:
    """Titles need no look-up; an id would find nothing."""

    def by_arxiv_id(self, *, arxiv_id: str) -> None:
        """Nothing."""

    def by_doi(self, *, doi: str) -> None:
        """Nothing."""


OFFLINE = NoLookup()
PUBLIC = key("C1")
SECRET = key("G2")
ELSEWHERE = key("C1", platform="memory", workspace="W9")


def _post_and_comment(database: Database, chat: MemoryChat, channel: ChannelKey, text: str) -> str:
    """Today's post in the channel, with one comment in its thread; the posted title."""
    result = posting.post_today(
        poster=make_poster(database, chat), channel=channel, now=MONDAY_0900_BERLIN
    )
    assert result.outcome is posting.Outcome.POSTED and result.post is not None
    found = post_card.card_of_post(uow=database, post_id=result.post.id, semantic_extra=NO_SEMANTIC)
    assert found is not None and found[0].message_id is not None
    message = comments.ThreadMessage(
        channel=channel,
        thread_id=found[0].message_id,
        message_id="9.000900",
        user="U7",
        event_id=f"e-{channel}",
        now=MONDAY_0900_BERLIN,
    )
    comments.reply(uow=database, message=message, text=text, telemetry=Telemetry())
    return found[1].paper.title


def _setup(database: Database, chat: MemoryChat) -> str:
    """Three channels follow the list; only the private one has posted and talked."""
    load_sample(database)
    with database() as store:
        store.save_channel(key=PUBLIC, schedule=WEEKDAYS, private=False)
        store.save_channel(key=SECRET, schedule=WEEKDAYS, private=True)
        store.save_channel(key=ELSEWHERE, schedule=WEEKDAYS, private=False)
    return _post_and_comment(database, chat, SECRET, "wombats are the secret here")


def test_a_private_channels_comments_are_found_only_there(
    database: Database, chat: MemoryChat
) -> None:
    _setup(database, chat)
    mine = search.search(
        uow=database,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text="wombats",
        viewer=SECRET,
    ).page
    assert mine.total == 1 and mine.hits[0].from_comment and mine.hits[0].channel == SECRET
    for other in (PUBLIC, ELSEWHERE):
        page = search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="wombats",
            viewer=other,
        ).page
        assert page.total == 0, other
        listed = search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="is:posted",
            viewer=other,
        ).page
        assert all(hit.channel is None for hit in listed.hits), other


def test_a_private_channels_posts_stay_out_of_top_and_add(
    database: Database, chat: MemoryChat
) -> None:
    title = _setup(database, chat)
    mine = top.top(uow=database, channel=SECRET, period="week", now=MONDAY_0900_BERLIN, tz="UTC")
    assert title in mine.text
    for other in (PUBLIC, ELSEWHERE):
        theirs = top.top(
            uow=database, channel=other, period="week", now=MONDAY_0900_BERLIN, tz="UTC"
        )
        assert title not in theirs.text and "G2" not in theirs.text, other
        again = add(
            uow=database,
            lookup=OFFLINE,
            text=title,
            channel=other,
            user="U8",
            now=MONDAY_0900_BERLIN,
            semantic_extra=NO_SEMANTIC,
        )
        assert "already read" not in again.text and "G2" not in again.text, other
    own = add(
        uow=database,
        lookup=OFFLINE,
        text=title,
        channel=SECRET,
        user="U8",
        now=MONDAY_0900_BERLIN,
        semantic_extra=NO_SEMANTIC,
    )
    assert "already read" in own.text


def test_a_public_channels_talk_is_found_in_its_workspace_only(
    database: Database, chat: MemoryChat
) -> None:
    load_sample(database)
    with database() as store:
        store.save_channel(key=PUBLIC, schedule=WEEKDAYS, private=False)
        store.save_channel(key=SECRET, schedule=WEEKDAYS, private=True)
        store.save_channel(key=ELSEWHERE, schedule=WEEKDAYS, private=False)
    _post_and_comment(database, chat, PUBLIC, "quokkas everywhere")
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="quokkas",
            viewer=SECRET,
        ).page.total
        == 1
    )
    assert (
        search.search(
            uow=database,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            text="quokkas",
            viewer=ELSEWHERE,
        ).page.total
        == 0
    )
