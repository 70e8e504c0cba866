"""`meeting set ... reminders 1d,30m` (what the App Home's meeting form saves): the series and
its reminders in one write; without it the reminders are kept; the place after `at` is as
typed, even when it says "reminders"."""

from __future__ import annotations

from bot.db.database import Database
from tests.services.memory_chat import MemoryChat
from tests.services.test_meetings import said


def test_set_takes_reminders_keeps_them_otherwise_and_leaves_the_place_alone(
    database: Database, chat: MemoryChat
) -> None:
    answer = said(database, chat, "meeting set thu 16:00 UTC reminders 2h,15m at Room 2")
    assert "Reminders: 2h, 15m before." in answer and "· Room 2" in answer
    kept = said(database, chat, "meeting set fri 10:00 UTC at Room reminders 3")
    assert "Reminders: 2h, 15m before." in kept and "· Room reminders 3" in kept
    off = said(database, chat, "meeting set fri 10:00 UTC reminders off")
    assert "Reminders: none before." in off
    for text, why in (
        ("meeting set fri 10:00 reminders", "say when"),
        ("meeting set fri 10:00 reminders soon", "not a lead time"),
        ("meeting set fri 10:00 reminders 1d 30m", "'30m' is not understood here"),
    ):
        assert why in said(database, chat, text), text
