"""The question after a session on each platform (issue 33), through the real wiring and
listeners: the sweep asks once when the session ends, naming the hostile paper its poll chose
as typed and pinging nobody; a member's click is counted and the message redrawn in place on
Slack and Discord (the console prints the command each button stands for, and the typed rating
counts the same); a notes link added by command shows on the next redraw."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta

import pytest

from bot.console.repl import handle_line
from bot.wording.console import TYPED_ANSWERS
from bot.wording.ratings import RATE_ACTIONS, RATE_LABELS
from tests.sessions.rooms import (
    ConsoleMeeting,
    DiscordMeeting,
    SlackMeeting,
    console_meeting,
    discord_meeting,
    slack_meeting,
)
from tests.sessions.scenario_support import MeetingRoom
from tests.slack.conftest import CHANNEL
from tests.sources.scenario_support import HOSTILE

Room = Callable[..., AbstractContextManager[MeetingRoom]]
ROOMS: dict[str, Room] = {
    "console": console_meeting,
    "slack": slack_meeting,
    "discord": discord_meeting,
}
SET_AT = datetime(2026, 1, 5, 10, 0, tzinfo=UTC)  # Monday: the meeting and the nomination
OPENS = datetime(2026, 1, 5, 16, 0, tzinfo=UTC)  # the poll of Thursday 8 January opens
CLOSES = datetime(2026, 1, 7, 16, 0, tzinfo=UTC)
ENDS = datetime(2026, 1, 8, 17, 0, tzinfo=UTC)
WHEN = "Thu 08 Jan 2026, 16:00–17:00 UTC"
NOTES = "https://example.org/club/notes"
# A link a chat's markup could read in its path: a mention, a masked link, emphasis.
MARKED = "https://example.org/@everyone/[x](https://evil.example)/**b**_i_~s~"


def _words(text: str) -> str:
    """Text without bold marks (Slack's `*`, Discord's `**`), for phrase checks."""
    return text.replace("*", "")


def _sweep(room: MeetingRoom, at: datetime) -> None:
    """The minute sweep at `at`."""
    room.clock.at = at
    room.wiring.sweep()


def _asked(room: MeetingRoom) -> str:
    """Set the meeting with a poll, let a member's hostile nomination win it, sweep past the
    session's end; the title the bot kept of the nomination."""
    room.clock.at = SET_AT
    assert "The meeting" in _words(room.command("meeting set thu 16:00 UTC"))
    room.command("meeting reminders off")
    room.command("meeting poll approval")
    assert "put forward" in room.command(f"nominate {HOSTILE[0]}", member=True)
    _sweep(room, OPENS)
    room.clock.at = OPENS + timedelta(hours=1)
    assert "Your vote: 1." in _words(room.command("poll 1", member=True))
    _sweep(room, CLOSES)
    _sweep(room, ENDS - timedelta(minutes=1))
    _sweep(room, ENDS)
    _sweep(room, ENDS + timedelta(minutes=1))
    with room.database(write=False) as store:
        (record,) = store.session_records(
            channel=room.key, since=ENDS - timedelta(days=1), until=ENDS
        )
        chosen = store.chosen_paper(session_id=record.id)
        paper = store.paper(paper_id=chosen) if chosen is not None else None
    assert paper is not None
    return paper.title


def _ratings(room: MeetingRoom) -> list[str]:
    """The ids of the messages with rating buttons (Slack's ts, Discord's ids)."""
    if isinstance(room, SlackMeeting):
        fake = room.base.fake
        return [
            str(m["ts"])
            for m in fake.messages(CHANNEL)
            for b in m.get("blocks") or []
            if b["type"] == "actions"
            and any(str(e["action_id"]).endswith("rate_worth") for e in b["elements"])
        ]
    assert isinstance(room, DiscordMeeting)
    fake = room.base.harness.fake
    return [
        str(m["id"])
        for m in fake.messages(fake.channel_id)
        if any(
            ":rate_worth:" in str(c.get("custom_id"))
            for row in m.get("components") or []
            for c in row["components"]
        )
    ]


@pytest.mark.parametrize("name", ["slack", "discord"])
def test_a_click_is_counted_and_redrawn_in_place(name: str, sqlite_url: str) -> None:
    with ROOMS[name](url=sqlite_url) as room:
        title = _asked(room)
        (asked,) = _ratings(room)
        shown = _words(room.shown(message_id=asked))
        assert f"How was the session on {WHEN}" in shown, shown
        assert "Worth it 0" in shown
        assert room.harmful(message_id=asked, typed=title) == [], shown
        said = _words(room.rsvp(message_id=asked, action="rate_worth"))
        assert f"You said worth it: {WHEN}" in said, said
        assert "Worth it 1 · 👎 Not really 0" in room.shown(message_id=asked)
        assert "Added" in room.command(f"sessions notes {NOTES}")
        assert "Added" in room.command(f"sessions notes {MARKED}")
        said = _words(room.rsvp(message_id=asked, action="rate_lively"))
        assert "a good discussion" in said, said
        shown = room.shown(message_id=asked)
        assert "Good discussion 1" in shown and "example.org/club/notes" in shown, shown
        assert room.harmful(message_id=asked, typed=title) == [], shown
        assert len(_ratings(room)) == 1  # asked once, redrawn in place


def test_the_console_says_what_to_type_and_the_typed_rating_counts(sqlite_url: str) -> None:
    with console_meeting(url=sqlite_url) as room:
        assert isinstance(room, ConsoleMeeting)
        title = _asked(room)
        printed = room.base.raw.getvalue()
        assert printed.count("How was the session on") == 1
        asked = printed[printed.index("How was the session on") :]
        assert title[:30] in asked
        for action in RATE_ACTIONS:
            assert f"Type {TYPED_ANSWERS[action]} for {RATE_LABELS[action]}." in asked, asked
        start = len(room.base.raw.getvalue())
        handle_line(app=room.base.platform.app, line=TYPED_ANSWERS["rate_quiet"])
        assert f"You said a quiet one: {WHEN}" in room.base.raw.getvalue()[start:]
        with room.database(write=False) as store:
            (record,) = store.session_records(
                channel=room.key, since=ENDS - timedelta(days=1), until=ENDS
            )
            assert store.ratings(session_id=record.id)[room.member].discussion is False
