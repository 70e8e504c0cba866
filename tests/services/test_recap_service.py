"""The weekly recap: configured per channel (off by default), sent once per channel and date
at its day and time, never to a paused channel, and retried only when nothing was sent."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.messages import Message
from bot.ports import ChatError
from bot.services import admin, recap
from bot.services.embedding import NO_SEMANTIC
from bot.services.posting import Poster
from bot.services.telemetry import Telemetry
from bot.wording import replies
from tests.services.conftest import follow, key, load_sample, make_poster
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, deliver, plain

C1 = key("C1")
FRIDAY_1600_BERLIN = datetime(2026, 1, 9, 15, 0, tzinfo=UTC)


class RefusingChat(MemoryChat):
    """A chat whose next notices fail, as told (posted nothing, or maybe posted)."""

    def __init__(self) -> None:
        """No refusals queued."""
        super().__init__()
        self.refusals: list[bool] = []

    def send_notice(self, *, channel: ChannelKey, message: Message) -> str | None:
        """Fail while refusals are queued, else keep the notice."""
        if self.refusals:
            raise ChatError(code="ratelimited", hint="test", posted_nothing=self.refusals.pop(0))
        return super().send_notice(channel=channel, message=message)


def _configure(database: Database, chat: MemoryChat, *args: str) -> str:
    """`/paperclub recap <args>` in C1, as plain text."""
    reply = recap.configure(poster=make_poster(database, chat), channel=C1, args=list(args))
    return plain(reply.message)


def test_configure_turns_it_on_and_off(database: Database, chat: MemoryChat) -> None:
    assert _configure(database, chat, "fri", "16:00") == plain(replies.NOT_FOLLOWED)
    follow(database)
    on = replies.recap_on(day="Fri", at="16:00", zone="Europe/Berlin")
    assert _configure(database, chat, "fri", "16:00") == plain(on)
    assert _configure(database, chat, "WEEKLY", "Fri", "16:00") == plain(on)
    assert _configure(database, chat, "off") == plain(replies.RECAP_OFF)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((), "Usage: /paperclub recap fri 16:00"),
        (("fri",), "Usage: /paperclub recap fri 16:00"),
        (("mon-fri", "16:00"), replies.RECAP_ONE_DAY),
        (("fri", "25:00"), "I couldn't read that"),
        (("someday", "16:00"), "I couldn't read that"),
        (("<!channel>", "16:00"), "I couldn't read that"),
    ],
)
def test_configure_explains_what_it_cannot_read(
    database: Database, chat: MemoryChat, args: tuple[str, ...], said: str
) -> None:
    follow(database)
    assert said in _configure(database, chat, *args)


def _week_with_posts(database: Database, chat: MemoryChat) -> list[str]:
    """C1 follows with a recap on Fridays at 16:00 and got papers on Mon and Tue; the titles."""
    follow(database)
    load_sample(database)
    _configure(database, chat, "fri", "16:00")
    return [
        deliver(database, chat, C1, now=MONDAY + timedelta(days=n))[1].paper.title for n in (0, 1)
    ]


def test_sent_once_at_its_time_with_the_weeks_papers(database: Database, chat: MemoryChat) -> None:
    titles = _week_with_posts(database, chat)
    poster = make_poster(database, chat)
    assert recap.send_due_recaps(poster=poster, now=FRIDAY_1600_BERLIN - timedelta(minutes=1)) == 0
    assert recap.send_due_recaps(poster=poster, now=FRIDAY_1600_BERLIN) == 1
    assert recap.send_due_recaps(poster=poster, now=FRIDAY_1600_BERLIN + timedelta(hours=2)) == 0
    [sent] = chat.notices["C1"]
    assert sent.startswith("This week in Paper Club, ranked by votes and discussion:")
    assert all(title in sent for title in titles)
    # The next Friday is another date: sent again, and last week's papers are out of it.
    next_week = FRIDAY_1600_BERLIN + timedelta(days=7)
    assert recap.send_due_recaps(poster=poster, now=next_week) == 1
    assert "no papers were posted this week" in chat.notices["C1"][1]


def test_off_paused_or_another_platform_sends_nothing(database: Database, chat: MemoryChat) -> None:
    follow(database)
    poster = make_poster(database, chat)
    assert recap.send_due_recaps(poster=poster, now=FRIDAY_1600_BERLIN) == 0  # off by default
    _configure(database, chat, "fri", "16:00")
    admin.set_paused(uow=database, channel=C1, paused=True, now=FRIDAY_1600_BERLIN)
    assert recap.send_due_recaps(poster=poster, now=FRIDAY_1600_BERLIN) == 0
    admin.set_paused(uow=database, channel=C1, paused=False, now=FRIDAY_1600_BERLIN)
    discord = Poster(
        uow=database,
        chat=chat,
        platform="discord",
        owner="x",
        owner_alive=lambda _o: False,
        telemetry=Telemetry(),
        semantic_extra=NO_SEMANTIC,
    )
    assert recap.send_due_recaps(poster=discord, now=FRIDAY_1600_BERLIN) == 0
    assert "C1" not in chat.notices


def test_a_refused_recap_is_retried_an_unknown_one_never(database: Database) -> None:
    chat = RefusingChat()
    _week_with_posts(database, chat)
    poster = make_poster(database, chat)
    chat.refusals.append(True)  # refused outright: nothing was sent
    assert recap.send_due_recaps(poster=poster, now=FRIDAY_1600_BERLIN) == 0
    assert recap.send_due_recaps(poster=poster, now=FRIDAY_1600_BERLIN + timedelta(minutes=1)) == 1
    assert len(chat.notices["C1"]) == 1
    chat.refusals.append(False)  # next week the answer is lost: it may have landed
    next_week = FRIDAY_1600_BERLIN + timedelta(days=7)
    assert recap.send_due_recaps(poster=poster, now=next_week) == 0
    assert recap.send_due_recaps(poster=poster, now=next_week + timedelta(minutes=1)) == 0
    assert len(chat.notices["C1"]) == 1
