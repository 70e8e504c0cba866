"""A channel's meeting through the command table, its sessions made ahead and kept for the
calendar, and /paperclub sessions and rsvp (issue 33), on a real SQLite archive."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import icalendar  # type: ignore[import-untyped]

from bot.db.database import Database
from bot.messages import as_plain
from bot.services import calendar_feed, commands
from bot.services.meeting_sessions import bring_up_to_date
from tests.services.conftest import key
from tests.services.memory_chat import MemoryChat
from tests.services.support import invocation

C1 = key("C1")
# Monday 2 March 2026, 10:00 UTC; the meeting is on Thursdays at 16:00 in Berlin (15:00 UTC
# in winter, 14:00 UTC from 29 March, when Berlin's clocks go forward).
MONDAY = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
HOSTILE = "<!channel> @everyone *bold* " + "🧪" * 3000 + " " + "x" * 7000


def said(
    database: Database,
    chat: MemoryChat,
    text: str,
    *,
    user: str = "UADMIN",
    now: datetime = MONDAY,
    channel: object = C1,
) -> str:
    """What /paperclub `text` answers, as plain text."""
    call = invocation(database, chat, channel, user=user, now=now)  # type: ignore[arg-type]
    return as_plain(message=commands.handle(call=call, text=text).message)


def test_an_admin_sets_a_weekly_meeting_and_anyone_sees_the_sessions(
    database: Database, chat: MemoryChat
) -> None:
    answer = said(database, chat, "meeting set thu 16:00 Europe/Berlin for 90m at Room 2")
    assert "every Thursday at 16:00 Europe/Berlin for 90 minutes" in answer
    assert "Next session: Thu 05 Mar 2026, 16:00–17:30 Europe/Berlin" in answer
    listed = said(database, chat, "sessions", user="U2")
    assert "Thu 05 Mar 2026, 16:00–17:30 Europe/Berlin · Room 2 · Going 0" in listed
    # After the clocks change, the wall time stays.
    assert "Thu 02 Apr 2026, 16:00–17:30 Europe/Berlin" in listed
    refused = said(database, chat, "meeting set fri 10:00", user="U2")
    assert "Only admins change the meeting" in refused


def test_bad_meeting_text_gets_a_clear_message(database: Database, chat: MemoryChat) -> None:
    for text, why in (
        ("meeting set someday 16:00", "not a day of the week"),
        ("meeting set thu 25:00", "not a time of day"),
        ("meeting set thu 16:00 Mars/Olympus", "not a time zone"),
        ("meeting set thu 16:00 for 13h", "between a minute and 12 hours"),
        ("meeting set thu 16:00 every 9 weeks", "every 1 to 8 weeks"),
    ):
        assert why in said(database, chat, text), text
    assert "no meeting yet" in said(database, chat, "meeting skip 2026-03-05")
    said(database, chat, "meeting set thu 16:00")
    assert "not a date" in said(database, chat, "meeting skip tomorrow")
    assert "at most 59 days" in said(database, chat, "meeting move 2026-03-05 to 2026-06-05 16:00")


def test_a_skip_cancels_a_session_and_an_undo_brings_it_back_each_bumping_its_sequence(
    database: Database, chat: MemoryChat
) -> None:
    said(database, chat, "meeting set thu 16:00 Europe/Berlin")
    said(database, chat, "meeting skip 2026-03-12")
    listed = said(database, chat, "sessions")
    assert "Thu 12 Mar 2026, 16:00–17:00 Europe/Berlin · cancelled" in listed
    said(database, chat, "meeting undo 2026-03-12")
    with database(write=False) as store:
        (record,) = [
            r
            for r in store.session_records(
                channel=C1, since=MONDAY, until=MONDAY + timedelta(weeks=3)
            )
            if r.session.day.day == 12
        ]
    assert not record.cancelled and record.sequence == 2


def test_a_move_and_a_one_off_show_and_the_calendar_carries_them_with_a_cancellation(
    database: Database, chat: MemoryChat
) -> None:
    said(database, chat, f"meeting set thu 16:00 Europe/Berlin at {HOSTILE}")
    said(database, chat, "meeting move 2026-03-12 to 2026-03-11 17:30 at https://meet.example/x")
    said(database, chat, "meeting once 2026-03-12 12:00 for 2h")
    said(database, chat, "meeting skip 2026-03-19")
    body = calendar_feed.feed(uow=database, channel=C1, name="#general", now=MONDAY)
    parsed = icalendar.Calendar.from_ical(body)
    events = {str(e["UID"]): e for e in parsed.walk("VEVENT")}
    assert len(events) == 13  # twelve weeks of Thursdays and the one-off
    by_start = {e.decoded("DTSTART"): e for e in events.values()}
    moved = by_start[datetime(2026, 3, 11, 16, 30, tzinfo=UTC)]
    assert str(moved["URL"]) == "https://meet.example/x" and int(moved["SEQUENCE"]) == 1
    once = by_start[datetime(2026, 3, 12, 11, 0, tzinfo=UTC)]
    assert once.decoded("DTEND") - once.decoded("DTSTART") == timedelta(hours=2)
    assert str(once["UID"]) != str(moved["UID"])  # a one-off on a series date: its own UID
    skipped = by_start[datetime(2026, 3, 19, 15, 0, tzinfo=UTC)]
    assert str(skipped["STATUS"]) == "CANCELLED"
    first = by_start[datetime(2026, 3, 5, 15, 0, tzinfo=UTC)]
    assert str(first["LOCATION"]).startswith("<!channel> @everyone *bold* 🧪")
    # Unchanged, the feed is the same bytes: nothing was bumped by reading it.
    assert calendar_feed.feed(uow=database, channel=C1, name="#general", now=MONDAY) == body


def test_meeting_off_cancels_the_sessions_ahead_and_keeps_the_past(
    database: Database, chat: MemoryChat
) -> None:
    said(database, chat, "meeting set thu 16:00 Europe/Berlin")
    later = MONDAY + timedelta(days=10)  # after the session of 5 March
    assert "cancelled" in said(database, chat, "meeting off", now=later)
    with database(write=False) as store:
        records = store.session_records(
            channel=C1, since=MONDAY, until=MONDAY + timedelta(weeks=13)
        )
    assert records[0].session.day.day == 5 and not records[0].cancelled
    assert records[1:] and all(r.cancelled for r in records[1:])
    assert bring_up_to_date(uow=database, channel=C1, now=later) == 0


def test_rsvp_by_command_counts_once_per_member_and_changes(
    database: Database, chat: MemoryChat
) -> None:
    said(database, chat, "meeting set thu 16:00 Europe/Berlin")
    assert "You are going for Thu 05 Mar 2026" in said(database, chat, "rsvp going", user="U1")
    assert "You were going already" in said(database, chat, "rsvp going", user="U1")
    said(database, chat, "rsvp maybe", user="U2")
    said(database, chat, "rsvp no 2026-03-12", user="U2")
    listed = said(database, chat, "sessions")
    assert "Thu 05 Mar 2026, 16:00–17:00 Europe/Berlin · Going 1 · Maybe 1 · Not going 0" in listed
    assert "Thu 12 Mar 2026, 16:00–17:00 Europe/Berlin · Going 0 · Maybe 0 · Not going 1" in listed
    assert "Usage" in said(database, chat, "rsvp perhaps")
    # Another workspace's channel of the same id sees nothing of this one's meeting.
    other = key("C1", workspace="T2")
    assert "no meeting yet" in said(database, chat, "sessions", channel=other)
