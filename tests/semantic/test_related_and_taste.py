"""Related papers under each post and /paperclub related, and the picker that knows the group:
the real posting service, model and SQLite, an in-memory chat."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.db.database import Database
from bot.domain import PaperCard
from bot.domain.semantic import PickOrder
from bot.messages import as_plain
from bot.semantic.lazy import LazySemantic
from bot.services import post_card, posting, related, taste, voting
from bot.services.embedding import NO_SEMANTIC, SemanticExtra
from bot.services.telemetry import Telemetry
from bot.wording import replies
from tests.semantic.conftest import add_papers, corpus, embed_all
from tests.services.conftest import follow, key, load_sample, make_poster
from tests.services.memory_chat import MemoryChat

MONDAY_0900_BERLIN = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
C1 = key("C1")


def _post_days(
    database: Database,
    chat: MemoryChat,
    extra: SemanticExtra,
    *,
    days: int,
    votes: dict[int, int] | None = None,
) -> list[PaperCard]:
    """Post on `days` weekdays from Monday, each day's post voted as `votes` says (+n: n 👍,
    -n: n 👎, by its index), with the semantic extra given."""
    poster = make_poster(database, chat, semantic_extra=extra)
    cards = []
    day = MONDAY_0900_BERLIN
    for index in range(days):
        while day.weekday() >= 5:
            day += timedelta(days=1)
        result = posting.post_today(poster=poster, channel=C1, now=day)
        assert result.outcome is posting.Outcome.POSTED and result.post is not None
        for voter in range(abs((votes or {}).get(index, 0))):
            voting.click(
                uow=database,
                channel=C1,
                post_id=result.post.id,
                user=f"U{voter}",
                value=1 if votes and votes[index] > 0 else -1,
                event_id=f"v{index}-{voter}",
                now=day,
                telemetry=Telemetry(),
            )
        cards.append(chat.posts["C1"][-1])
        day += timedelta(days=1)
    return cards


def test_each_post_names_up_to_two_close_papers_read_before(
    database: Database, chat: MemoryChat, semantic: LazySemantic
) -> None:
    load_sample(database)
    follow(database)
    embed_all(database, semantic)
    extra = SemanticExtra(index=semantic)
    cards = _post_days(database, chat, extra, days=8, votes={0: 3, 1: -1, 2: 2})
    assert cards[0].related == ()  # nothing read before the first
    read_before: dict[str, PaperCard] = {}
    named = 0
    for card in cards:
        assert len(card.related) <= 2
        for item in card.related:
            earlier = read_before[item.title]  # a paper this channel read, before this day
            assert item.date == earlier.local_date < card.local_date
            assert item.title != card.paper.title
        named += len(card.related)
        read_before[card.paper.title] = card
    assert named > 0  # a list on one subject: later posts do name papers read before
    first = next(card for card in cards if card.related)
    shown = [r for r in first.related if r.title == cards[0].paper.title]
    assert all(r.votes.up == 3 and r.votes.down == 0 for r in shown)  # the votes it got


def test_related_answers_by_title_and_says_when_nothing_is_close(
    database: Database, chat: MemoryChat, semantic: LazySemantic
) -> None:
    load_sample(database)
    follow(database)
    embed_all(database, semantic)
    extra = SemanticExtra(index=semantic)
    cards = _post_days(database, chat, extra, days=5)
    last = cards[-1].paper.title
    reply = as_plain(
        message=related.ask(uow=database, text=last, viewer=C1, semantic_extra=extra).message
    )
    assert "closest to" in reply and any(c.paper.title[:30] in reply for c in cards[:-1])
    assert last[:30] not in reply.split(":", 1)[1]  # never itself
    odd = as_plain(
        message=related.ask(uow=database, text="zzzz qqqq", viewer=C1, semantic_extra=extra).message
    )
    assert "No paper in this archive matches" in odd
    ask = as_plain(
        message=related.ask(uow=database, text="  ", viewer=C1, semantic_extra=extra).message
    )
    assert "/paperclub related" in ask


def test_related_without_the_extra_says_so(database: Database) -> None:
    said = related.ask(uow=database, text="x", viewer=C1, semantic_extra=NO_SEMANTIC)
    reply = as_plain(message=said.message)
    assert "paperclub[semantic]" in reply


# A scripted history: the group loves papers on training many machines together, and
# dislikes the Earth sciences ones; the queue then offers one of each, Earth first.
LOVED = ("b018", "b012", "b019")
LIKED_TOPIC = corpus("b010", "b022")  # retrieval-augmented generation, like b012
DISLIKED = ("b154", "b161", "b157")  # nowcasting, permafrost


def test_the_picker_learns_the_groups_taste(
    database: Database, chat: MemoryChat, semantic: LazySemantic
) -> None:
    history = corpus("b012", "b154", "b019", "b161", "b008", "b157")
    add_papers(database, history, workspace=C1.workspace_key)
    follow(database)
    # Loved: the language-model papers (b012, b019, b008); disliked: the Earth ones.
    extra = SemanticExtra(index=semantic)
    _post_days(database, chat, extra, days=6, votes={0: 4, 1: -2, 2: 3, 3: -3, 4: 2, 5: -1})
    earth, rag = corpus("b168"), LIKED_TOPIC
    add_papers(database, earth + rag, workspace=C1.workspace_key)  # queue order: Earth first
    embed_all(database, semantic)
    with database() as store:
        channel = store.channel(key=C1)
        assert channel is not None
        store.set_pick_order(channel=channel, order=PickOrder.TASTE)
    # Queue order would post the Earth paper; taste posts a language-model one.
    card = _post_days_from(database, chat, extra, start=MONDAY_0900_BERLIN + timedelta(days=10))
    assert card.paper.title in {p["title"] for p in rag}
    assert card.pick_reason is not None and card.pick_reason.startswith(
        "Picked for this group's taste: close to “"
    )
    assert "👍" in card.pick_reason
    liked_titles = {p["title"] for p in corpus("b012", "b019", "b008")}
    assert any(title[:40] in card.pick_reason for title in liked_titles)
    # The reason stays with the post: a redraw shows it again.
    found = post_card.card_of_post(uow=database, post_id=card.post_id, semantic_extra=extra)
    assert found is not None and found[1].pick_reason == card.pick_reason


def _post_days_from(
    database: Database, chat: MemoryChat, extra: SemanticExtra, *, start: datetime
) -> PaperCard:
    """Today's post on the first weekday from `start`."""
    while start.weekday() >= 5:
        start += timedelta(days=1)
    poster = make_poster(database, chat, semantic_extra=extra)
    result = posting.post_today(poster=poster, channel=C1, now=start)
    assert result.outcome is posting.Outcome.POSTED
    return chat.posts["C1"][-1]


def test_taste_waits_for_enough_votes_and_says_so(
    database: Database, chat: MemoryChat, semantic: LazySemantic
) -> None:
    add_papers(database, corpus("b012", "b154", "b019"), workspace=C1.workspace_key)
    follow(database)
    with database() as store:
        channel = store.channel(key=C1)
        assert channel is not None
        store.set_pick_order(channel=channel, order=PickOrder.TASTE)
    card = _post_days(database, chat, SemanticExtra(index=semantic), days=1)[0]
    assert card.paper.title == corpus("b012")[0]["title"]  # queue order meanwhile
    assert card.pick_reason is not None and "voted on 3 papers" in card.pick_reason


def test_an_old_paper_is_not_left_waiting_forever() -> None:
    now = datetime(2026, 6, 1, tzinfo=UTC)
    fresh = _paper(1, added=now)
    old = _paper(2, added=now - timedelta(weeks=10))
    middle = _paper(3, added=now - timedelta(weeks=1))
    predicted = {1: 2.0, 2: -1.0, 3: 0.5}  # the group would like the fresh one most
    ranked = taste.order(candidates=[fresh, old, middle], predicted=predicted, now=now)
    assert [paper.id for paper, _score, _days in ranked] == [2, 1, 3]
    assert ranked[0][2] == 70
    young = taste.order(
        candidates=[fresh, _paper(2, added=now - timedelta(weeks=1)), middle],
        predicted=predicted,
        now=now,
    )
    assert [paper.id for paper, _score, _days in young] == [1, 3, 2]


def _paper(paper_id: int, *, added: datetime):  # type: ignore[no-untyped-def]
    """A queued paper added at `added`."""
    from bot.domain import Paper, PaperStatus

    return Paper(
        id=paper_id,
        title=f"P{paper_id}",
        abstract="a",
        authors=(),
        url=None,
        arxiv_id=None,
        doi=None,
        source="t",
        added_by=None,
        added_at=added,
        position=paper_id,
        status=PaperStatus.QUEUED,
    )


def test_order_command(database: Database, semantic: LazySemantic) -> None:
    extra = SemanticExtra(index=semantic)
    said = taste.set_order(uow=database, channel=C1, args=["taste"], semantic_extra=extra).message
    assert said == replies.NOT_FOLLOWED
    follow(database)
    assert "queue|taste" in as_plain(
        message=taste.set_order(
            uow=database, channel=C1, args=["best"], semantic_extra=extra
        ).message
    )
    on = as_plain(
        message=taste.set_order(
            uow=database, channel=C1, args=["TASTE"], semantic_extra=extra
        ).message
    )
    assert "picked by the group's taste" in on
    with database(write=False) as store:
        assert store.channel(key=C1).pick_order is PickOrder.TASTE  # type: ignore[union-attr]
    off = as_plain(
        message=taste.set_order(
            uow=database, channel=C1, args=["queue"], semantic_extra=extra
        ).message
    )
    assert "queue order" in off
    unplugged = taste.set_order(
        uow=database, channel=C1, args=["taste"], semantic_extra=NO_SEMANTIC
    )
    plain = as_plain(message=unplugged.message)
    assert "paperclub[semantic]" in plain
