"""The web archive's views: one workspace's public channels only; a private channel's posts,
votes and comments, and another workspace's, never show."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from itertools import pairwise

import pytest

from bot.db.database import Database
from bot.domain import PaperCard
from bot.services import archive_web, comments
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.services.workspaces import WorkspaceUnknown
from tests.services.conftest import key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, deliver, follow_key, in_thread, vote

PUBLIC, SECRET = key("C1"), key("G2")
OTHER = key("C1", workspace="T2")
T1, T2 = PUBLIC.workspace_key, OTHER.workspace_key
TUESDAY = date(2026, 1, 6)


@dataclass
class Club:
    """What was posted: C1 on Monday and Tuesday, G2 (private) on Monday, T2's C1 on Monday."""

    monday: PaperCard
    tuesday: PaperCard
    secret: PaperCard
    other: PaperCard


@pytest.fixture
def club(database: Database, chat: MemoryChat) -> Club:
    """Two workspaces; T1 has a public and a private channel; votes and talk in each."""
    follow_key(database, PUBLIC)
    follow_key(database, SECRET, private=True)
    follow_key(database, OTHER)
    load_sample(database, workspace=T1)
    load_sample(database, workspace=T2)
    mon, monday = deliver(database, chat, PUBLIC)
    tue, tuesday = deliver(database, chat, PUBLIC, now=MONDAY + timedelta(days=1))
    sec, secret = deliver(database, chat, SECRET)
    oth, other = deliver(database, chat, OTHER)
    for n, (post, value) in enumerate(((tue, 1), (tue, 1), (mon, -1), (sec, 1), (oth, 1))):
        vote(database, post, user=f"U{n}", value=value, event=f"v{n}", now=MONDAY)
    comments.reply(
        telemetry=Telemetry(),
        uow=database,
        message=in_thread(mon, event="c1"),
        text="quokkas in public",
    )
    comments.reply(
        telemetry=Telemetry(),
        uow=database,
        message=in_thread(sec, event="c2"),
        text="wombats in secret",
    )
    comments.reply(
        telemetry=Telemetry(),
        uow=database,
        message=in_thread(oth, event="c3"),
        text="numbats elsewhere",
    )
    return Club(monday=monday, tuesday=tuesday, secret=secret, other=other)


def test_which_workspace_is_shown(database: Database, club: Club) -> None:
    assert archive_web.workspaces(uow=database) == [T1, T2]
    assert archive_web.workspace_of(uow=database, named="slack:T2") == T2
    with pytest.raises(WorkspaceUnknown):
        archive_web.workspace_of(uow=database, named=None)
    assert archive_web.public_viewer(workspace=T1) == key("", workspace="T1")


def test_latest_and_channels_show_public_posts_only(database: Database, club: Club) -> None:
    latest = archive_web.latest(uow=database, workspace=T1)
    assert [p.title for p in latest.posts] == [club.tuesday.paper.title, club.monday.paper.title]
    assert latest.total == 2 and all(p.channel == PUBLIC for p in latest.posts)
    assert [p.votes.up for p in latest.posts] == [2, 0] and latest.posts[1].comments == 1
    assert archive_web.latest(uow=database, workspace=T1, offset=1).posts[0].date == MONDAY.date()
    assert archive_web.latest(uow=database, workspace=T1, offset=-5).offset == 0
    assert [c.key for c in archive_web.channels(uow=database, workspace=T1)] == [PUBLIC]


def test_a_channels_page_is_for_public_channels_only(database: Database, club: Club) -> None:
    found = archive_web.channel_posts(uow=database, workspace=T1, name="C1")
    assert found is not None and found[0].key == PUBLIC and found[1].total == 2
    for name in ("G2", "C9", "", "<!channel>"):
        assert archive_web.channel_posts(uow=database, workspace=T1, name=name) is None
    other = archive_web.channel_posts(uow=database, workspace=T2, name="C1")
    assert other is not None and [p.title for p in other[1].posts] == [club.other.paper.title]


def test_top_ranks_public_posts_by_votes(database: Database, club: Club) -> None:
    best = archive_web.top(uow=database, workspace=T1, period="week", today=TUESDAY)
    assert best is not None and best.posts[0].title == club.tuesday.paper.title
    assert club.secret.paper.title not in {p.title for p in best.posts}
    assert archive_web.top(uow=database, workspace=T1, period="decade", today=TUESDAY) is None
    far = archive_web.top(uow=database, workspace=T1, period="week", today=TUESDAY + timedelta(30))
    assert far is not None and far.posts == ()


def test_a_paper_page_shows_its_public_posts_and_votes(database: Database, club: Club) -> None:
    page = archive_web.paper(uow=database, workspace=T1, paper_id=club.tuesday.paper.id)
    assert page is not None and page.paper.title == club.tuesday.paper.title
    assert [p.channel for p in page.posts] == [PUBLIC] and len(page.votes) == 2
    secret = archive_web.paper(uow=database, workspace=T1, paper_id=club.secret.paper.id)
    # A paper of the shared list read in a private channel: its page, without that reading.
    assert secret is not None and secret.posts == () and secret.votes == ()
    assert archive_web.paper(uow=database, workspace=T1, paper_id=club.other.paper.id) is None
    assert archive_web.paper(uow=database, workspace=T1, paper_id=10_000) is None


def test_search_is_a_public_channels(database: Database, club: Club) -> None:
    found = archive_web.search(
        uow=database,
        workspace=T1,
        text="quokkas",
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    assert found.page.total == 1 and found.page.hits[0].channel == PUBLIC
    for hidden in ("wombats", "numbats"):
        assert (
            archive_web.search(
                uow=database,
                workspace=T1,
                text=hidden,
                semantic_extra=NO_SEMANTIC,
                telemetry=Telemetry(),
            ).page.total
            == 0
        )
    many = archive_web.search(
        uow=database,
        workspace=T1,
        text="is:queued",
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    assert len(many.page.hits) == archive_web.SEARCH_PAGE_SIZE


def test_activity_and_posting_days(database: Database, club: Club) -> None:
    weeks = archive_web.activity(uow=database, workspace=T1, today=TUESDAY)
    assert len(weeks) == archive_web.CHART_WEEKS and weeks[-1].monday == MONDAY.date()
    assert (weeks[-1].posts, weeks[-1].votes, weeks[-1].comments) == (2, 3, 1)
    assert all((w.posts, w.votes, w.comments) == (0, 0, 0) for w in weeks[:-1])
    assert [b.monday - a.monday for a, b in pairwise(weeks)] == [timedelta(weeks=1)] * (
        archive_web.CHART_WEEKS - 1
    )
    days = archive_web.posting_days(uow=database, workspace=T1, today=TUESDAY)
    assert days == {MONDAY.date(): 1, TUESDAY: 1}
    assert archive_web.posting_days(uow=database, workspace=T2, today=TUESDAY) == {MONDAY.date(): 1}
