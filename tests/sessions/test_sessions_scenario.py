"""Issue 33's scenario for what exists, per platform: an admin sets a weekly meeting by the
platform's own slash command path, skips one date and moves another; over eight simulated
weeks across Berlin's change to summer time the real sweep sends each reminder once, at its
instant; members answer by button and by command and the reminder is redrawn with the counts;
the calendar feed, read back with icalendar, shows every session under a stable UID, the moved
one at its new time with a higher SEQUENCE and the skipped one CANCELLED; on Discord, the
sessions' scheduled events are made, the moved one's modified and the skipped one's deleted.
The place is hostile
(tests/sessions/scenario_support): every reminder shows it as typed, and nothing pings."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from datetime import UTC, datetime, time, timedelta

import pytest

from tests.sessions.rooms import DiscordMeeting, console_meeting, discord_meeting, slack_meeting
from tests.sessions.scenario_support import (
    CHANGED_AT,
    CHANGES,
    END,
    EXPECTED,
    MOVED,
    MOVED_START,
    RSVP_AT,
    SERIES,
    SET_AT,
    SET_UP,
    SHOWN_PLACE,
    SKIPPED,
    Event,
    MeetingRoom,
    Weeks,
    calendar_events,
)

Room = Callable[..., AbstractContextManager[MeetingRoom]]
ROOMS: dict[str, Room] = {
    "console": console_meeting,
    "slack": slack_meeting,
    "discord": discord_meeting,
}
EVENTS = "/guilds/{guild_id}/scheduled-events"
ONE_EVENT = "/guilds/{guild_id}/scheduled-events/{id}"
BERLIN_WINTER, BERLIN_SUMMER = timedelta(hours=1), timedelta(hours=2)
LATER = "rsvp going 2026-04-13"  # the member answers for a later session by command


def _tally(answers: Mapping[str, str]) -> str:
    """The counts a reminder shows for these answers (bot/wording/meetings.counts_runs)."""
    going, maybe, no = (
        sum(a == kind for a in answers.values()) for kind in ("going", "maybe", "no")
    )
    return f"Going {going} · Maybe {maybe} · Not going {no}"


def _words(text: str) -> str:
    """Text without bold and italic marks (Slack's `*`, Discord's `**`), for phrase checks."""
    return text.replace("*", "")


def _set_up(*, room: MeetingRoom) -> None:
    """The admin sets the meeting (a member may not)."""
    said = _words(room.command(SET_UP))
    assert "every Monday at 18:00 Europe/Berlin for 90 minutes" in said, said[:600]
    assert "Next session: Mon 02 Mar 2026, 18:00–19:30 Europe/Berlin" in said, said[:600]
    if room.member != room.admin:
        assert "Only admins" in room.command(CHANGES[0], member=True)


def _change(*, room: MeetingRoom) -> None:
    """The skip and the move, by the admin; /paperclub sessions shows both."""
    for text in CHANGES:
        assert "The meeting:" in room.command(text)
    listed = _words(room.command("sessions", member=True))
    assert "Sun 29 Mar 2026, 18:00–19:30 Europe/Berlin" in listed, listed[:2000]
    assert "Mon 06 Apr 2026, 18:00–19:30 Europe/Berlin · cancelled" in listed, listed[:2000]
    assert "Mon 30 Mar" not in listed


def _answer(*, room: MeetingRoom, weeks: Weeks) -> dict[str, str]:
    """On the Saturday before the moved session: the member clicks Going on its day-ahead
    reminder, the admin types maybe, the member clicks Not going; the redrawn reminder and
    the listing count them. The member also answers for 13 April by command. The answers to
    the moved session, by person."""
    at, reminder = weeks.received[8]
    assert at == EXPECTED[8] and "in 23 hours" in _words(room.shown(message_id=reminder))
    answers: dict[str, str] = {}
    said = _words(room.rsvp(message_id=reminder, action="rsvp_going"))
    answers[room.member] = "going"
    assert "You are going for Sun 29 Mar 2026" in said, said
    if room.redraws():
        assert _tally(answers) in room.shown(message_id=reminder)
    said = _words(room.command("rsvp maybe"))
    answers[room.admin] = "maybe"
    assert "You are a maybe for Sun 29 Mar 2026" in said, said
    said = _words(room.rsvp(message_id=reminder, action="rsvp_no"))
    answers[room.member] = "no"
    assert "You are not going for Sun 29 Mar 2026" in said, said
    if room.redraws():
        shown = room.shown(message_id=reminder)
        assert _tally(answers) in shown, shown[-300:]
        # The redraw is that reminder, with the time left as of the click.
        assert "in 22 hours: Sun 29 Mar 2026, 18:00–19:30" in _words(shown)
    assert _tally(answers) in room.command("sessions", member=True)
    assert "You are going for Mon 13 Apr 2026" in _words(room.command(LATER, member=True))
    return answers


@pytest.mark.parametrize("name", sorted(ROOMS))
def test_eight_weeks_of_a_weekly_meeting_on_each_platform(name: str, sqlite_url: str) -> None:
    with ROOMS[name](url=sqlite_url) as room:
        weeks = Weeks(room=room)
        room.clock.at = SET_AT
        _set_up(room=room)
        first = calendar_events(room=room)
        weeks.run(until=CHANGED_AT)
        _change(room=room)
        weeks.run(until=RSVP_AT)
        answers = _answer(room=room, weeks=weeks)
        weeks.run(until=END)
        _check_reminders(room=room, weeks=weeks, answers=answers)
        _check_calendar(first=first, last=calendar_events(room=room))
        if isinstance(room, DiscordMeeting):
            _check_discord_events(room=room)


def _check_reminders(*, room: MeetingRoom, weeks: Weeks, answers: Mapping[str, str]) -> None:
    """Each reminder once, at its instant, on the meeting's wall clock; the place shown as
    typed and nothing pinging; the moved session's half-hour reminder with its counts."""
    assert [at for at, _ in weeks.received] == list(EXPECTED)
    assert len(room.reminders()) == len(EXPECTED)
    for n, (at, reminder) in enumerate(weeks.received):
        shown = _words(room.shown(message_id=reminder))
        assert "18:00–19:30 Europe/Berlin" in shown, shown[:300]
        lead = "in 30 minutes" if n % 2 else "in 24 hours"
        if n == 8:  # 23 hours ahead when sent (_answer); redrawn at the click, an hour later
            lead = "in 22 hours" if room.redraws() else "in 23 hours"
        assert lead in shown, shown[:200]
        assert room.harmful(message_id=reminder, typed=SHOWN_PLACE) == [], (at, shown[:800])
    assert _tally(answers) in room.shown(message_id=weeks.received[9][1])
    assert "Going 1 · Maybe 0" in room.shown(message_id=weeks.received[10][1])  # 13 April


def _check_calendar(*, first: list[Event], last: list[Event]) -> None:
    """The feed at the end: every session of the weeks under the UID the first read gave it,
    the moved one at its new time with a higher SEQUENCE, the skipped one CANCELLED, the
    place read back as typed."""
    at_first = {e.start: e for e in first}
    by_uid = {e.uid: e for e in last}
    assert len(by_uid) == len(last)  # one event per UID
    for day in SERIES:
        offset = BERLIN_WINTER if day < MOVED_TO_SUMMER else BERLIN_SUMMER
        planned = datetime.combine(day, time(18), tzinfo=UTC) - offset
        uid = at_first[planned].uid  # the feed's first read had it, at its series time
        event = by_uid[uid]
        assert event.location == SHOWN_PLACE
        if day == MOVED:
            assert event.start == MOVED_START and event.status == "CONFIRMED"
            assert event.sequence > at_first[planned].sequence
        elif day == SKIPPED:
            assert event.status == "CANCELLED" and event.sequence > at_first[planned].sequence
        else:
            assert event.start == planned and event.status == "CONFIRMED"
            assert event.sequence == at_first[planned].sequence


def _check_discord_events(*, room: DiscordMeeting) -> None:
    """Discord received each session's scheduled event once (made ahead), the moved
    session's modified to its new time, and the skipped session's deleted, never made again."""
    fake = room.base.harness.fake
    made = {
        datetime.fromisoformat(r.json["scheduled_start_time"]): str(r.response["id"])
        for r in fake.requests("POST", EVENTS)
    }
    assert all(r.status == 200 for r in fake.requests(None, EVENTS))
    summer = [datetime.combine(d, time(16), tzinfo=UTC) for d in SERIES if d >= MOVED_TO_SUMMER]
    winter = [datetime.combine(d, time(17), tzinfo=UTC) for d in SERIES if d < MOVED_TO_SUMMER]
    assert set(winter + summer) <= set(made), sorted(made)
    skipped = datetime.combine(SKIPPED, time(16), tzinfo=UTC)
    moved = datetime.combine(MOVED, time(16), tzinfo=UTC)
    [patch] = fake.requests("PATCH", ONE_EVENT)
    assert patch.path.rsplit("/", 1)[-1] == made[moved] and patch.status == 200
    assert datetime.fromisoformat(patch.json["scheduled_start_time"]) == MOVED_START
    [delete] = fake.requests("DELETE", ONE_EVENT)
    assert delete.path.rsplit("/", 1)[-1] == made[skipped] and delete.status == 204


MOVED_TO_SUMMER = MOVED  # Berlin's clocks go forward on the Sunday before it
