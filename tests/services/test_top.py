"""/paperclub top: a channel's own posts of the period, most voted first, then most discussed."""

from __future__ import annotations

from datetime import timedelta

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.services import comments, top
from bot.services.telemetry import Telemetry
from bot.wording import archive, replies
from tests.services.conftest import follow, key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, deliver, in_thread, plain, vote

C1, C2 = key("C1"), key("C2")


def _three_days(database: Database, chat: MemoryChat) -> list[str]:
    """Posts on Mon, Tue and Wed in C1: Tue's has two 👍, Mon's a 👍 and two comments; titles."""
    follow(database, "C1")
    follow(database, "C2")
    load_sample(database)
    days = [deliver(database, chat, C1, now=MONDAY + timedelta(days=n)) for n in range(3)]
    (mon, _), (tue, _), _ = days
    for n, (post, user) in enumerate(((tue, "U1"), (tue, "U2"), (mon, "U3"))):
        vote(database, post, user=user, value=1, event=f"v{n}", now=MONDAY)
    for n in range(2):
        message = in_thread(mon, message_id=f"9.00{n}", event=f"c{n}")
        comments.reply(telemetry=Telemetry(), uow=database, message=message, text=f"comment {n}")
    return [card.paper.title for _, card in days]


def _top(database: Database, period: str, *, days_later: int = 2, channel: ChannelKey = C1) -> str:
    """The top of `period` in `channel`, `days_later` than Monday, as plain text."""
    reply = top.top(
        uow=database,
        channel=channel,
        period=period,
        now=MONDAY + timedelta(days=days_later),
        tz="Europe/Berlin",
    )
    return plain(reply.message)


def test_most_voted_then_most_discussed(database: Database, chat: MemoryChat) -> None:
    mon, tue, wed = _three_days(database, chat)
    said = _top(database, "week")
    voted, talked = said.split("Most discussed, the last week:")
    assert said.startswith("Most voted, the last week:")
    assert voted.index(tue) < voted.index(mon) < voted.index(wed)
    assert "👍 2 · 👎 0 · 💬 0" in voted and "👍 1 · 👎 0 · 💬 2" in voted
    assert mon in talked and tue not in talked and wed not in talked


def test_the_period_bounds_what_is_ranked(database: Database, chat: MemoryChat) -> None:
    mon, tue, _ = _three_days(database, chat)
    later = _top(database, "week", days_later=8)  # Tuesday next week: Monday's post is out
    assert tue in later and mon not in later
    assert mon in _top(database, "month", days_later=8)
    assert mon in _top(database, "all", days_later=400)
    assert _top(database, "year", days_later=400) == plain(
        archive.no_top(period="year", bounded=True)
    )


def test_each_channel_ranks_only_its_own_posts(database: Database, chat: MemoryChat) -> None:
    _three_days(database, chat)
    assert _top(database, "week", channel=C2) == "No posts here in the last week yet."
    assert _top(database, "all", channel=key("C9")) == "No posts yet."  # follows nothing
    elsewhere = key("C1", workspace="T2")  # the same channel id in another workspace
    assert _top(database, "all", channel=elsewhere) == "No posts yet."


def test_an_unknown_period_gets_the_usage(database: Database) -> None:
    for period in ("decade", "", "<!channel>", "x" * 10_000):
        reply = top.top(uow=database, channel=C1, period=period, now=MONDAY, tz="UTC")
        assert reply.message == replies.TOP_USAGE
