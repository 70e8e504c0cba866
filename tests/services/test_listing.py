"""Read-only views: each followed channel's queue (or the shared list), finding a channel by the
names people use, and the export records of one workspace."""

from __future__ import annotations

import pytest

from bot.db.database import Database
from bot.services import comments, listing
from bot.services.listing import UnknownChannel
from bot.services.telemetry import Telemetry
from tests.conftest import SAMPLE_ENTRIES, SAMPLE_QUEUED
from tests.services.conftest import follow, key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, deliver, follow_key, in_thread, vote

T1 = key("C1").workspace_key


def test_a_workspace_that_follows_nothing_shows_its_shared_list(database: Database) -> None:
    assert [(v.channel, v.total, v.papers) for v in listing.queues(uow=database, workspace=T1)] == [
        (None, 0, ())
    ]
    load_sample(database, workspace=T1)
    [shared] = listing.queues(uow=database, workspace=T1, limit=3)
    assert shared.channel is None and shared.total == SAMPLE_QUEUED and len(shared.papers) == 3


def test_each_followed_channel_has_its_queue(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    c1, c2 = follow(database, "C1"), follow(database, "C2")
    follow_key(database, key("C1", workspace="T2"))  # another workspace's: not listed
    deliver(database, chat, c1)
    views = listing.queues(uow=database, workspace=T1)
    assert [v.channel.key for v in views if v.channel] == [c1, c2]
    # The papers are shared: one posted in C1 leaves C2's queue too.
    assert [v.total for v in views] == [SAMPLE_QUEUED - 1, SAMPLE_QUEUED - 1]
    one = listing.find_channel(uow=database, name="C2")
    [only] = listing.queues(uow=database, workspace=T1, channel=one, limit=1)
    assert only.channel == one and len(only.papers) == 1


def test_find_channel_by_the_names_people_use(database: Database) -> None:
    follow(database, "C1")
    follow_key(database, key("C7", platform="discord", workspace="G1"))
    for name in ("C1", "#C1", " slack:C1 ", "slack:T1:C1"):
        assert listing.find_channel(uow=database, name=name).key == key("C1"), name
    assert listing.find_channel(uow=database, name="discord:C7").key.workspace == "G1"


def test_find_channel_says_what_is_followed_when_it_cannot_tell(database: Database) -> None:
    with pytest.raises(UnknownChannel, match="none yet"):
        listing.find_channel(uow=database, name="C1")
    follow(database, "C1")
    follow_key(database, key("C1", workspace="T2"))
    with pytest.raises(UnknownChannel, match="matches several channels") as several:
        listing.find_channel(uow=database, name="C1")
    assert "slack:T1:C1, slack:T2:C1" in str(several.value)
    for name in ("C9", "discord:C1", "<!channel>", ""):
        with pytest.raises(UnknownChannel, match="no followed channel is called"):
            listing.find_channel(uow=database, name=name)
    assert listing.find_channel(uow=database, name="slack:T2:C1").key.workspace == "T2"


def test_records_hold_every_paper_with_its_posts_votes_and_comments(
    database: Database, chat: MemoryChat
) -> None:
    load_sample(database)
    channel = follow(database)
    post, card = deliver(database, chat, channel)
    vote(database, post, user="U1", value=-1, event="v", now=MONDAY)
    comments.reply(
        telemetry=Telemetry(), uow=database, message=in_thread(post), text="a fine read 🦘"
    )
    records = listing.records(uow=database, workspace=T1)
    assert len(records) == SAMPLE_ENTRIES  # the list's header too
    [posted] = [r for r in records if r.posts]
    assert (
        posted.paper.id == card.paper.id
        and posted.list_name
        and posted.list_name.startswith("Related papers")
    )
    [view] = posted.posts
    assert view.channel == channel and (view.votes.up, view.votes.down) == (0, 1)
    assert [(c.user, c.text, c.edited) for c in view.comments] == [("U7", "a fine read 🦘", False)]
    assert listing.records(uow=database, workspace=key("C1", workspace="T2").workspace_key) == []
