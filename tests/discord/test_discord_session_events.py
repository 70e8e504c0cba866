"""Sessions as Discord Guild Scheduled Events (issue 33, item 5), through the real wiring, the
real discord.py client and the fake Discord: the next sessions get events, a move modifies
one, a skip deletes one, `meeting off` deletes the rest, a second pass sends nothing, and a
missing Create Events permission is logged once while the reminders still go out."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.services.session_events import EVENTS_AHEAD, REFUSED_WAIT
from tests.discord.conftest import DiscordHarness
from tests.fakediscord import RecordedRequest

EVENTS = "/guilds/{guild_id}/scheduled-events"
ONE_EVENT = "/guilds/{guild_id}/scheduled-events/{id}"
# Thursdays 16:00 Berlin (15:00 UTC in winter) for 90 minutes, from the tests' Monday 5 Jan 2026.
FIRST = datetime(2026, 1, 8, 15, 0, tzinfo=UTC)
WEEK = timedelta(weeks=1)


def _meeting(harness: DiscordHarness, what: str) -> str:
    """An admin (bob owns the server) types /paperclub meeting WHAT; the answer's text."""
    fake = harness.fake
    return str(harness.command("meeting", {"what": what}, user=fake.bob_id)["content"])


def _calls(harness: DiscordHarness) -> list[RecordedRequest]:
    """Every scheduled-event request so far, in order."""
    return [
        r
        for r in harness.fake.requests()
        if r.matches(method=None, path=EVENTS) or r.matches(method=None, path=ONE_EVENT)
    ]


def _new_calls(harness: DiscordHarness, before: int) -> list[tuple[str, Any]]:
    """The scheduled-event requests after the first `before`, as (method, body)."""
    return [(r.method, r.json) for r in _calls(harness)[before:]]


def _starts(harness: DiscordHarness) -> list[datetime]:
    """The events' start times, earliest first."""
    events = harness.fake.scheduled_events()
    return sorted(datetime.fromisoformat(e["scheduled_start_time"]) for e in events)


def test_a_meeting_makes_events_for_the_next_sessions_once(harness: DiscordHarness) -> None:
    _meeting(harness, "set thu 16:00 Europe/Berlin for 90m at Room 2")
    harness.wiring.sweep()
    made = harness.fake.requests("POST", EVENTS)
    assert [r.status for r in made] == [200] * EVENTS_AHEAD
    assert _starts(harness) == [FIRST + n * WEEK for n in range(EVENTS_AHEAD)]
    first = made[0].json
    assert first["entity_type"] == 3 and first["privacy_level"] == 2
    assert first["entity_metadata"] == {"location": "Room 2"}
    assert first["name"] == "Reading group"
    assert datetime.fromisoformat(first["scheduled_end_time"]) == FIRST + timedelta(minutes=90)
    assert "Room 2" in first["description"]
    assert "channel_id" not in first  # EXTERNAL: no channel
    before = len(_calls(harness))
    harness.clock.at += timedelta(minutes=1)
    harness.wiring.sweep()
    assert _new_calls(harness, before) == []  # nothing changed: nothing sent


def test_a_move_modifies_a_skip_deletes_and_off_deletes_the_rest(harness: DiscordHarness) -> None:
    fake = harness.fake
    _meeting(harness, "set thu 16:00 Europe/Berlin for 90m at Room 2")
    harness.wiring.sweep()
    by_start = {e["scheduled_start_time"]: e["id"] for e in fake.scheduled_events()}
    second = by_start[(FIRST + WEEK).isoformat()]

    before = len(_calls(harness))
    _meeting(harness, "move 2026-01-15 to 2026-01-16 17:00")
    harness.wiring.sweep()
    [(method, body)] = _new_calls(harness, before)
    [patch] = fake.requests("PATCH", ONE_EVENT)
    assert (method, patch.path.rsplit("/", 1)[-1]) == ("PATCH", second)
    moved = datetime(2026, 1, 16, 16, 0, tzinfo=UTC)
    assert datetime.fromisoformat(body["scheduled_start_time"]) == moved
    assert datetime.fromisoformat(body["scheduled_end_time"]) == moved + timedelta(minutes=90)
    assert "Moved" in body["description"]

    before = len(_calls(harness))
    _meeting(harness, "skip 2026-01-22")
    harness.wiring.sweep()
    # The skipped session's event goes; the session now fourth ahead (5 Feb) gets one, after
    # a look that no event of it was made and never noted.
    assert [m for m, _ in _new_calls(harness, before)] == ["DELETE", "GET", "POST"]
    assert _starts(harness) == [FIRST, moved, FIRST + 3 * WEEK, FIRST + 4 * WEEK]

    before = len(_calls(harness))
    _meeting(harness, "off")
    harness.wiring.sweep()
    assert [m for m, _ in _new_calls(harness, before)] == ["DELETE"] * EVENTS_AHEAD
    assert fake.scheduled_events() == []
    before = len(_calls(harness))
    harness.clock.at += timedelta(minutes=1)
    harness.wiring.sweep()
    assert _new_calls(harness, before) == []


def test_an_event_deleted_in_discord_is_made_again_when_its_session_changes(
    harness: DiscordHarness,
) -> None:
    fake = harness.fake
    _meeting(harness, "set thu 16:00 Europe/Berlin at Room 2")
    harness.wiring.sweep()
    first = min(fake.scheduled_events(), key=lambda e: e["scheduled_start_time"])
    fake.state.scheduled.delete(guild_id=fake.guild_id, event_id=first["id"])  # by a person
    before = len(_calls(harness))
    _meeting(harness, "move 2026-01-08 to 2026-01-08 18:00")
    harness.wiring.sweep()
    assert [m for m, _ in _new_calls(harness, before)] == ["PATCH", "GET", "POST"]
    assert len(fake.scheduled_events()) == EVENTS_AHEAD


def test_hostile_places_are_cut_to_discords_limits_and_ping_nobody(
    harness: DiscordHarness,
) -> None:
    place = "@everyone <@" + harness.fake.alice_id + "> 🎉 " + "room " * 2000
    _meeting(harness, "set thu 16:00 Europe/Berlin at " + place)
    harness.wiring.sweep()
    made = harness.fake.requests("POST", EVENTS)
    assert [r.status for r in made] == [200] * EVENTS_AHEAD  # the fake enforces the limits
    body = made[0].json
    location = body["entity_metadata"]["location"]
    for text in (body["name"], location, body["description"]):
        assert "@everyone" not in text and "<@" not in text
    assert location.startswith("@\u200beveryone <\u200b@") and location.endswith("…")
    assert len(body["description"]) <= 1000


def test_a_missing_permission_is_logged_once_and_reminders_still_go_out(
    harness: DiscordHarness, caplog: pytest.LogCaptureFixture
) -> None:
    fake = harness.fake
    fake.withhold_manage_events()
    _meeting(harness, "set thu 16:00 Europe/Berlin at Room 2")
    harness.clock.at = FIRST - timedelta(days=1)  # the day-before reminder is due
    with caplog.at_level(logging.WARNING, logger="paperclub"):
        harness.wiring.sweep()
        harness.clock.at += timedelta(minutes=1)
        harness.wiring.sweep()  # the channel's events wait: not asked again
        harness.clock.at += REFUSED_WAIT
        harness.wiring.sweep()  # asked again, refused again, not logged again
    refused = fake.requests("POST", EVENTS)
    assert [(r.status, r.response["code"]) for r in refused] == [(403, 50013)] * 2
    lines = [r for r in caplog.records if "no session events" in r.getMessage()]
    assert len(lines) == 1 and "Create Events" in lines[0].getMessage()
    reminders = [m for m in fake.messages() if "Reading group" in m.get("content", "")]
    assert len(reminders) == 1
    assert fake.scheduled_events() == []


def test_an_event_made_and_never_noted_is_found_not_made_twice(harness: DiscordHarness) -> None:
    _meeting(harness, "set thu 16:00 Europe/Berlin for 90m at Room 2")
    harness.wiring.sweep()
    # A process that died between Discord's answer and the note: the id is not kept.
    with harness.wiring.database() as store:
        (first, *_) = store.session_records(
            channel=harness.key, since=FIRST - WEEK, until=FIRST + WEEK
        )
        store.note_platform_event(session_id=first.id, event_id=None, sequence=-1)
    harness.clock.at += timedelta(minutes=1)
    harness.wiring.sweep()
    assert len(harness.fake.requests("POST", EVENTS)) == EVENTS_AHEAD  # none made twice
    assert len(harness.fake.scheduled_events()) == EVENTS_AHEAD
    assert [r.method for r in harness.fake.requests("PATCH", ONE_EVENT)] == ["PATCH"]
