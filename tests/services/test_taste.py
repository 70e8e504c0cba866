"""The taste picker without the semantic extra (queue order, and the post says why), how much
the group liked a paper, and how the ranking weighs predicted interest against waiting."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot.db.database import Database
from bot.domain import Paper, PaperStatus, VoteCount, votes
from bot.domain.semantic import ReadPaper
from bot.messages import message
from bot.services import listing, taste
from bot.services.embedding import NO_SEMANTIC
from bot.wording import replies
from bot.wording import semantic as words
from tests.services.conftest import follow, key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, deliver

C1 = key("C1")
PAPER = Paper(
    id=1,
    title="t",
    abstract="a",
    authors=(),
    url=None,
    arxiv_id=None,
    doi=None,
    source="s",
    added_by=None,
    added_at=MONDAY,
    position=1,
    status=PaperStatus.QUEUED,
)


def test_set_order(database: Database) -> None:
    for args in ([], ["random"], ["taste", "queue"]):
        assert taste.set_order(
            uow=database, channel=C1, args=args, semantic_extra=NO_SEMANTIC
        ).message == message(words.ORDER_ASK)
    assert taste.set_order(
        uow=database, channel=C1, args=["taste"], semantic_extra=NO_SEMANTIC
    ).message == (replies.NOT_FOLLOWED)
    follow(database)
    chosen = taste.set_order(uow=database, channel=C1, args=["TASTE"], semantic_extra=NO_SEMANTIC)
    assert chosen.message == message(words.ORDER_TASTE + " " + words.TASTE_UNAVAILABLE + ".")
    back = taste.set_order(uow=database, channel=C1, args=["queue"], semantic_extra=NO_SEMANTIC)
    assert back.message == message(words.ORDER_QUEUE)


def test_pick_is_the_head_of_the_queue_and_says_why_under_taste(
    database: Database, chat: MemoryChat
) -> None:
    channel = follow(database)
    followed = listing.find_channel(uow=database, name="C1")
    with database(write=False) as store:
        assert taste.pick(store=store, semantic=None, channel=followed, now=MONDAY) is None
    load_sample(database)
    [view] = listing.queues(uow=database, workspace=channel.workspace_key, limit=1)
    with database(write=False) as store:
        plain = taste.pick(store=store, semantic=None, channel=followed, now=MONDAY)
        wanted = replace(followed, pick_order=taste.PickOrder.TASTE)
        tasted = taste.pick(store=store, semantic=None, channel=wanted, now=MONDAY)
    assert plain == taste.Pick(paper=view.papers[0])
    assert tasted == taste.Pick(paper=view.papers[0], reason=words.TASTE_UNAVAILABLE)
    taste.set_order(uow=database, channel=channel, args=["taste"], semantic_extra=NO_SEMANTIC)
    _, card = deliver(database, chat, channel)
    assert card.paper.id == view.papers[0].id and card.pick_reason == words.TASTE_UNAVAILABLE


def test_liking_counts_votes_and_some_discussion() -> None:
    read = ReadPaper(
        paper_id=1,
        title="t",
        channel=C1,
        date=MONDAY.date(),
        permalink=None,
        votes=VoteCount(up=3, down=1),
        comments=2,
    )
    assert taste.liking(read=read) == 3 - 1 + votes.COMMENT_WEIGHT * 2
    lively = replace(read, comments=100)
    assert taste.liking(read=lively) == 2 + votes.COMMENT_WEIGHT * votes.DISCUSSION_CAP


def test_order_weighs_interest_and_waiting_ties_keep_queue_order() -> None:
    a, b, c = (replace(PAPER, id=n, position=n) for n in (1, 2, 3))
    assert [p.id for p, _, _ in taste.order(candidates=[a, b, c], predicted={}, now=MONDAY)] == [
        1,
        2,
        3,
    ]
    liked = taste.order(candidates=[a, b, c], predicted={1: 0.0, 2: 1.0, 3: 0.5}, now=MONDAY)
    assert [p.id for p, _, _ in liked] == [2, 3, 1]
    # Two months of waiting beat the group's least favourite's handicap.
    old = replace(a, added_at=MONDAY - timedelta(days=60))
    waited = taste.order(candidates=[old, b], predicted={1: 0.0, 2: 1.0}, now=MONDAY)
    assert [(p.id, days) for p, _, days in waited] == [(1, 60), (2, 0)]
