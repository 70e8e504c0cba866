"""Ratings feed the group's taste (issue 33): a session's paper that members found worth it
counts as a 👍 on it, in the taste order's likings and in the suggestions ranking's history,
even when it was never posted; one they found not worth it sinks what resembles it."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.db.database import Database
from bot.domain import PaperDraft, VoteCount
from bot.domain.ratings import RatingCount
from bot.domain.semantic import ReadPaper
from bot.services import commands, importing, taste
from bot.services.clicks import Clicks
from bot.services.embedding import NO_SEMANTIC
from bot.services.session_notices import SessionSender, send_due_notices
from bot.sources.candidates import Candidate, make_candidate
from bot.sources.rank import GroupHistory, rank
from tests.services.conftest import follow, key
from tests.services.meetings_support import MONDAY, Clock, buttons
from tests.services.memory_chat import MemoryChat
from tests.services.support import invocation
from tests.services.test_session_ratings import CLOSES, ENDS, OPENS

C1 = key("C1")
BIRDS = PaperDraft(
    title="Birdsong dialects of urban songbirds",
    abstract="Songbirds in cities learn birdsong dialects from their neighbours.",
)
OTHERS = (
    PaperDraft(title="Cache eviction policies", abstract="Eviction for caches under load."),
    PaperDraft(title="Ledger consensus", abstract="Consensus for replicated ledgers."),
)


def _candidate(title: str, abstract: str) -> Candidate:
    """A suggestion as a source would offer it."""
    made = make_candidate(source="arxiv:q-bio", title=title, abstract=abstract)
    assert made is not None
    return made


LIKE_BIRDS = _candidate("Songbirds and dialects", "How songbirds learn birdsong dialects.")
UNRELATED = _candidate("Compiler register allocation", "Allocating registers in compilers.")


def _run(database: Database, chat: MemoryChat, text: str, *, user: str, now: datetime) -> None:
    """/paperclub `text`."""
    commands.handle(call=invocation(database, chat, C1, user=user, now=now), text=text)


def _rated(database: Database, chat: MemoryChat, *, action: str) -> GroupHistory:
    """The birds paper chosen by 5 March's poll (never posted), then rated by two members with
    `action`; the channel's history for the suggestions before the ratings and after."""
    follow(database)
    importing.import_drafts(
        uow=database, drafts=(BIRDS, *OTHERS), now=MONDAY, workspace=C1.workspace_key
    )
    for text in ("meeting set thu 16:00 UTC", "meeting reminders off", "meeting poll approval"):
        _run(database, chat, text, user="UADMIN", now=MONDAY)
    sender = SessionSender(
        uow=database, chat=chat, platform="slack", owner="h:1:a", owner_alive=lambda _o: False
    )
    send_due_notices(sessions=sender, now=OPENS)
    _run(database, chat, "poll 1", user="U1", now=OPENS + timedelta(hours=1))
    send_due_notices(sessions=sender, now=CLOSES)
    send_due_notices(sessions=sender, now=ENDS)
    with database(write=False) as store:
        assert store.group_history(channel=C1, limit=50) == GroupHistory()  # nothing yet
    value = buttons(chat.messages["C1"][-1])[0][2]
    clicks = Clicks(
        uow=database, clock=Clock(ENDS + timedelta(hours=1)), semantic_extra=NO_SEMANTIC
    )
    for user in ("U1", "U2"):
        clicks.rate(channel=C1, user=user, action=action, value=value)
    with database(write=False) as store:
        return store.group_history(channel=C1, limit=50)


def test_a_session_paper_found_worth_it_lifts_what_resembles_it(
    database: Database, chat: MemoryChat
) -> None:
    history = _rated(database, chat, action="rate_worth")
    (read,) = history.read
    assert read.title == BIRDS.title and read.rated == RatingCount(worth=2)
    assert read.liking == 2.0  # as two 👍
    before = rank(candidates=[UNRELATED, LIKE_BIRDS], history=GroupHistory())
    after = rank(candidates=[UNRELATED, LIKE_BIRDS], history=history)
    assert before[0].candidate == UNRELATED  # no history: the order it came in
    assert after[0].candidate == LIKE_BIRDS and after[0].reason.kind == "keyword"


def test_a_session_paper_found_not_worth_it_sinks_what_resembles_it(
    database: Database, chat: MemoryChat
) -> None:
    history = _rated(database, chat, action="rate_not")
    (read,) = history.read
    assert read.rated == RatingCount(not_worth=2) and read.liking == -2.0
    after = rank(candidates=[LIKE_BIRDS, UNRELATED], history=history)
    assert after[-1].candidate == LIKE_BIRDS


def test_the_taste_order_counts_ratings_as_votes_on_the_paper() -> None:
    read = ReadPaper(
        paper_id=1,
        title="t",
        channel=C1,
        date=ENDS.date(),
        permalink=None,
        votes=VoteCount(up=1, down=0),
        comments=0,
    )
    rated = {1: RatingCount(worth=2, quiet=1), 7: RatingCount(worth=1, lively=1)}
    liked = taste.likings(read=[read], rated=rated)
    # Paper 1: its 👍 and two "worth it" (a quiet session takes nothing off); paper 7, read
    # only in a session: one "worth it" and half of one for the good discussion.
    assert liked == {1: 3.0, 7: 1.5}
    assert taste.likings(read=[read], rated={}) == {1: 1.0}


def test_ratings_of_a_cancelled_or_unchosen_session_count_for_no_paper(
    database: Database, chat: MemoryChat
) -> None:
    follow(database)
    _run(database, chat, "meeting set thu 16:00 UTC", user="UADMIN", now=MONDAY)
    sender = SessionSender(
        uow=database, chat=chat, platform="slack", owner="h:1:a", owner_alive=lambda _o: False
    )
    send_due_notices(sessions=sender, now=ENDS)
    _run(database, chat, "sessions rate worth", user="U1", now=ENDS)
    with database(write=False) as store:
        assert store.rated_papers(channel=C1) == {}
        assert store.group_history(channel=C1, limit=50).read == ()
