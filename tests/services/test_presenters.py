"""Presenters (issue 33): a fair rotation (nobody twice before every available member once,
away dates honoured), volunteering, a swap the other presenter accepts with one click, and
each presenter told by direct message when chosen and the day before, once."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from bot.db.database import Database
from bot.messages import Buttons, as_plain
from bot.services.clicks import Clicks
from bot.services.embedding import NO_SEMANTIC
from tests.services.meetings_support import C1, MONDAY, Clock, said, sweep
from tests.services.memory_chat import MemoryChat

# Mondays 09:00 UTC, the meeting on Thursdays 16:00 UTC from 5 March 2026.
THURSDAYS = [date(2026, 3, 5) + timedelta(weeks=n) for n in range(6)]


def presenter_on(database: Database, day: date) -> str | None:
    """Who presents the session of that date."""
    start = datetime.combine(day, datetime.min.time(), tzinfo=UTC)
    with database(write=False) as store:
        (record,) = store.session_records(channel=C1, since=start, until=start + timedelta(1))
        found = store.presenter_of(session_id=record.id)
    return found.user if found else None


def _meeting(database: Database, chat: MemoryChat) -> None:
    """Thursdays 16:00 UTC, no reminders (the presenters' messages are the only ones)."""
    said(database, chat, "meeting set thu 16:00 UTC", user="UADMIN")
    said(database, chat, "meeting reminders off", user="UADMIN")


def test_the_rotation_is_fair_and_honours_away_dates(database: Database, chat: MemoryChat) -> None:
    _meeting(database, chat)
    for user in ("U1", "U2", "U3"):
        assert "You are in the rotation" in said(database, chat, "presenters join", user=user)
    assert "away until Thu 19 Mar 2026" in said(
        database, chat, "presenters away 2026-03-19", user="U2"
    )
    for week in range(6):
        sweep(database, chat, now=MONDAY + timedelta(weeks=week))
    chosen = [presenter_on(database, day) for day in THURSDAYS]
    assert chosen == ["U1", "U3", "U2", "U1", "U3", "U2"]
    listed = said(database, chat, "presenters", user="U9", now=MONDAY + timedelta(weeks=5))
    assert "The rotation:" in listed and "Presenting:" in listed


def test_a_volunteer_takes_a_session_and_the_rotation_goes_on(
    database: Database, chat: MemoryChat
) -> None:
    _meeting(database, chat)
    for user in ("U1", "U2"):
        said(database, chat, "presenters join", user=user)
    assert "you present on Thu 05 Mar 2026" in said(database, chat, "present", user="U3")
    assert "volunteered for Thu 05 Mar 2026" in said(database, chat, "present", user="U1")
    sweep(database, chat, now=MONDAY)
    sweep(database, chat, now=MONDAY + timedelta(weeks=1))
    assert [presenter_on(database, d) for d in THURSDAYS[:2]] == ["U3", "U1"]
    # U3 was told once, as a volunteer; U1 once, as the rotation's choice.
    assert len(chat.directs["U3"]) == 1 and "You volunteered" in as_plain(
        message=chat.directs["U3"][0]
    )


def test_a_swap_is_accepted_by_the_one_asked_only_and_once(
    database: Database, chat: MemoryChat
) -> None:
    _meeting(database, chat)
    for user in ("U1", "U2"):
        said(database, chat, "presenters join", user=user)
    sweep(database, chat, now=MONDAY)  # the rotation chooses Thursday's
    said(database, chat, "present 2026-03-12", user="U2")  # the week after's: a volunteer
    assert [presenter_on(database, d) for d in THURSDAYS[:2]] == ["U1", "U2"]
    at = MONDAY + timedelta(hours=1)
    assert "Asked" in said(database, chat, "swap 2026-03-12", user="U1", now=at)
    (asked,) = chat.messages["C1"]
    (accept, decline) = [
        b for block in asked.blocks if isinstance(block, Buttons) for b in block.buttons
    ]
    clicks = Clicks(uow=database, clock=Clock(at), semantic_extra=NO_SEMANTIC)
    wrong = clicks.swap(channel=C1, user="U3", action=accept.action, value=accept.value)
    assert wrong.redrawn is None and "not yours to decide" in as_plain(message=wrong.reply.message)
    done = clicks.swap(channel=C1, user="U2", action=accept.action, value=accept.value)
    assert done.redrawn is not None and "accepted" in as_plain(message=done.redrawn)
    again = clicks.swap(channel=C1, user="U2", action=decline.action, value=decline.value)
    assert again.redrawn is None
    assert [presenter_on(database, d) for d in THURSDAYS[:2]] == ["U2", "U1"]
    assert "nothing to trade" in said(database, chat, "swap 2026-03-12", user="U9", now=at)


def test_a_presenter_is_told_when_chosen_and_the_day_before_each_once(
    database: Database, chat: MemoryChat
) -> None:
    said(database, chat, "meeting set thu 16:00 UTC", user="UADMIN")  # reminders 1d and 30m
    said(database, chat, "presenters join", user="U1")
    sweep(database, chat, now=MONDAY)
    sweep(database, chat, now=MONDAY + timedelta(hours=1))
    assert len(chat.directs["U1"]) == 1
    assert "It is your turn" in as_plain(message=chat.directs["U1"][0])
    day_before = datetime(2026, 3, 4, 16, 0, tzinfo=UTC)
    sweep(database, chat, now=day_before)
    sweep(database, chat, now=day_before + timedelta(minutes=5))
    assert len(chat.directs["U1"]) == 2
    assert "A reminder: you present" in as_plain(message=chat.directs["U1"][1])


def test_a_swap_made_stale_by_another_is_refused(database: Database, chat: MemoryChat) -> None:
    _meeting(database, chat)
    for user in ("U1", "U2", "U3"):
        said(database, chat, "presenters join", user=user)
    sweep(database, chat, now=MONDAY)  # U1 presents 5 March
    said(database, chat, "present 2026-03-12", user="U2")
    said(database, chat, "present 2026-03-19", user="U3")
    said(database, chat, "swap 2026-03-12", user="U1")
    said(database, chat, "swap 2026-03-19", user="U1")
    first, second = [
        next(b for block in m.blocks if isinstance(block, Buttons) for b in block.buttons)
        for m in chat.messages["C1"]
    ]
    clicks = Clicks(uow=database, clock=Clock(MONDAY), semantic_extra=NO_SEMANTIC)
    assert clicks.swap(channel=C1, user="U2", action=first.action, value=first.value).redrawn
    late = clicks.swap(channel=C1, user="U3", action=second.action, value=second.value)
    assert late.redrawn is None  # U1 no longer presents 5 March: nothing to trade
    assert [presenter_on(database, d) for d in THURSDAYS[:3]] == ["U2", "U1", "U3"]
