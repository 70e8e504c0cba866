"""What the Zotero sync reads of a channel: its posted papers page by page, each with its own
votes and live comments (a private channel's posts for that channel alone), and suggestions
kept from a source that is no watch; on SQLite and, where present, PostgreSQL."""

from __future__ import annotations

from bot.db.database import Database
from bot.domain import ChannelKey, VoteCount
from bot.ports.zotero import PostedPaper
from tests.db.sources_data import HERE, HOSTILE, NEXT_DOOR, NOW, add_paper, candidate, posted
from tests.db.zotero_data import follow, link, post_ids, post_of

# A private channel of HERE's workspace.
SECRET = ChannelKey(platform="slack", workspace="T1", channel="G7")


def _all(database: Database, *, channel: ChannelKey, limit: int) -> list[list[PostedPaper]]:
    """Every page of the channel's posted papers, `limit` a page."""
    pages: list[list[PostedPaper]] = []
    after = 0
    with database(write=False) as store:
        while page := store.posted_papers(channel=channel, after_post=after, limit=limit):
            pages.append(page)
            after = page[-1].post_id
    return pages


def test_posted_papers_come_in_post_id_pages(any_database: Database) -> None:
    for n in range(5):
        posted(any_database, channel=HERE, title=f"Paper {n}", days_ago=10 - n)
    posted(any_database, channel=NEXT_DOOR, title="Next door's", days_ago=0)
    add_paper(any_database, title="Not yet", abstract="About Not yet.")
    # A post being posted (no message yet) is not a posted paper.
    pending = post_of(any_database, title="Not yet", channel=HERE, days_ago=0, message_id=None)
    ids = [post for post in post_ids(any_database, channel=HERE) if post != pending]
    pages = _all(any_database, channel=HERE, limit=2)
    assert [[paper.post_id for paper in page] for page in pages] == [ids[:2], ids[2:4], ids[4:]]
    papers = [paper for page in pages for paper in page]
    assert [paper.paper.title for paper in papers] == [f"Paper {n}" for n in range(5)]
    assert all(paper.view.channel == HERE for paper in papers)
    assert [paper.view.message_id for paper in papers] == [f"Paper {n}.1" for n in range(5)]
    with any_database(write=False) as store:
        assert store.posted_papers(channel=HERE, after_post=ids[-1], limit=10) == []
        assert store.posted_papers(channel=HERE, after_post=0, limit=0) == []
        unknown = ChannelKey(platform="slack", workspace="T9", channel="C9")
        assert store.posted_papers(channel=unknown, after_post=0, limit=10) == []


def test_a_posted_paper_has_its_votes_and_live_comments(any_database: Database) -> None:
    posted(
        any_database,
        channel=HERE,
        title="Discussed",
        days_ago=1,
        votes=(1, 1, -1),
        comments=2,
        deleted=1,
    )
    posted(any_database, channel=HERE, title="Quiet", days_ago=2)
    with any_database(write=False) as store:
        discussed, quiet = store.posted_papers(channel=HERE, after_post=0, limit=10)
    assert discussed.paper.title == "Discussed"
    assert discussed.view.votes == VoteCount(up=2, down=1)
    # The deleted comment is gone; the live ones are kept verbatim, in message order.
    assert [comment.message_id for comment in discussed.view.comments] == [
        "Discussed.2",
        "Discussed.3",
    ]
    assert all(comment.text == HOSTILE for comment in discussed.view.comments)
    assert quiet.view.votes == VoteCount() and quiet.view.comments == ()


def test_a_private_channels_posts_are_that_channels_alone(any_database: Database) -> None:
    follow(any_database, channel=SECRET, private=True)
    posted(any_database, channel=HERE, title="Shared", days_ago=1, votes=(1,))
    # The same paper posted in the private channel of the same workspace, with its own votes.
    secret_post = post_of(
        any_database,
        title="Shared",
        channel=SECRET,
        days_ago=0,
        message_id="G7.1",
        votes=(-1, -1),
    )
    posted(any_database, channel=SECRET, title="Secret", days_ago=3)
    with any_database(write=False) as store:
        (here,) = store.posted_papers(channel=HERE, after_post=0, limit=10)
        theirs = store.posted_papers(channel=SECRET, after_post=0, limit=10)
        elsewhere = store.posted_papers(channel=NEXT_DOOR, after_post=0, limit=10)
    assert here.paper.title == "Shared" and here.view.votes == VoteCount(up=1)
    assert here.view.private is False and here.view.message_id == "Shared.1"
    assert [paper.paper.title for paper in theirs] == ["Shared", "Secret"]
    assert theirs[0].post_id == secret_post
    assert theirs[0].view.votes == VoteCount(down=2)
    assert all(paper.view.private and paper.view.channel == SECRET for paper in theirs)
    assert elsewhere == []


def test_a_source_that_is_no_watch_keeps_suggestions(any_database: Database) -> None:
    with any_database() as store:
        # Linking makes the channel's row, as a watch does; suggestions need one.
        store.save_zotero_link(link=link(source="ABCD2345", into="tray"))
    found = [candidate(1, source="zotero:ABCD2345"), candidate(1, source="zotero:EFGH6789")]
    with any_database() as store:
        assert store.add_suggestions(channel=HERE, watch_id=None, candidates=found, now=NOW) == 1
    with any_database(write=False) as store:
        (kept,) = store.suggestions(channel=HERE, states=("waiting",), limit=10)
    assert kept.watch_id is None and kept.candidate == found[0]
