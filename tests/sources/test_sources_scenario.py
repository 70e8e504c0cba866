"""Issue 32's scenario, per platform: watches added by command; two simulated weeks of arXiv
announcements (a weekend, a holiday, a replacement of a read paper, a cross-list in two
watched categories) read by the real reader and shown by the real sweep yield at most N
suggestions a day, none already read, none twice; promote and "Not for us" work by command;
with autofill on, the channel posts every scheduled day from an empty queue."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import date, timedelta

import pytest

from bot.wording.suggestions import ADD_LABEL, HIDE_LABEL
from tests.fakesources import FakeArxiv
from tests.sources.scenario_console import console_room
from tests.sources.scenario_discord import discord_room
from tests.sources.scenario_slack import slack_room
from tests.sources.scenario_support import (
    CROSS_ID,
    DAYS,
    FIRST,
    HOLIDAY,
    HOSTILE_MARKS,
    LATE,
    MORNING,
    PER_DAY,
    READ_ID,
    SETTINGS,
    WATCHES,
    Platform,
    Scenario,
    at_mailing,
    calendar,
    fortnight,
)

Room = Callable[..., AbstractContextManager[Platform]]
ROOMS: dict[str, Room] = {"console": console_room, "slack": slack_room, "discord": discord_room}
TUESDAY = FIRST + timedelta(days=1)
NEXT_TUESDAY = FIRST + timedelta(days=8)


def _set_up(*, room: Platform) -> None:
    """The first Monday, before arXiv is read: the admin adds two watches and the settings."""
    room.clock.at = at_mailing(day=FIRST) - timedelta(hours=1)
    for text in WATCHES:
        assert "cs." in room.command(text)
    listed = room.command("watch")
    assert "cs.LG" in listed and "cs.CL" in listed
    for text in SETTINGS:
        room.command(text)
    assert "up to 2" in room.command(f"suggestions size {PER_DAY}")


def _decide_by_command(*, scenario: Scenario) -> tuple[int, int]:
    """On the first Tuesday: the first of the tray promoted, the second hidden, both by
    command; a second decision changes nothing. Their ids."""
    room = scenario.platform
    today = scenario.days[-1]
    assert today.day == TUESDAY and len(today.tray_items) == PER_DAY
    wanted, unwanted = today.tray_items
    assert f"#{wanted.id}" in room.command("suggestions")  # today's tray, on demand
    assert "Added" in room.command(f"suggestions add {wanted.id}")
    assert "Hidden" in room.command(f"suggestions hide {unwanted.id}")
    assert "Added" not in room.command(f"suggestions add {unwanted.id}")  # decided already
    assert "no suggestion" in room.command("suggestions hide 999999")
    states = {s.id: s.state for s in scenario.all_suggestions()}
    assert states[wanted.id] == "promoted" and states[unwanted.id] == "hidden"
    return wanted.id, unwanted.id


def _decide_by_button(*, scenario: Scenario) -> tuple[int, int]:
    """On the second Tuesday: a member clicks Add to queue on the first of the tray and Not
    for us on the second; Add to queue on the hidden one afterwards changes nothing."""
    room = scenario.platform
    today = scenario.days[-1]
    assert today.day == NEXT_TUESDAY and today.tray is not None and today.tray.message_id
    wanted, unwanted = today.tray_items
    tray = today.tray.message_id
    assert room.offered(message_id=tray) in (None, {str(wanted.id), str(unwanted.id)})
    assert "Added" in room.click(message_id=tray, suggestion_id=wanted.id, label=ADD_LABEL)
    assert "Hidden" in room.click(message_id=tray, suggestion_id=unwanted.id, label=HIDE_LABEL)
    # Redrawn in place: the decided ones' buttons are gone, and typing still answers.
    assert room.offered(message_id=tray) in (None, set())
    assert "Added" not in room.command(f"suggestions add {unwanted.id}")
    states = {s.id: s.state for s in scenario.all_suggestions()}
    assert states[wanted.id] == "promoted" and states[unwanted.id] == "hidden"
    return wanted.id, unwanted.id


@pytest.mark.parametrize("name", sorted(ROOMS))
def test_a_fortnight_of_announcements_on_each_platform(name: str, sqlite_url: str) -> None:
    with ROOMS[name](url=sqlite_url) as room, FakeArxiv(today=FIRST, calendar=calendar()) as arxiv:
        scenario = Scenario(platform=room, arxiv=arxiv)
        _set_up(room=room)
        decided: dict[date, tuple[int, int]] = {}
        for day in fortnight():
            scenario.morning(day=day)
            if day == TUESDAY:
                decided[day] = _decide_by_command(scenario=scenario)
            if day == NEXT_TUESDAY:
                decided[day] = _decide_by_button(scenario=scenario)
        _check(scenario=scenario, decided=decided)


def _check(*, scenario: Scenario, decided: dict[date, tuple[int, int]]) -> None:
    """The issue's invariants over the fortnight; `decided`: the suggestions promoted and
    hidden on a day (each promoted one is the next day's post)."""
    room, everything = scenario.platform, scenario.all_suggestions()
    # One request per watched feed and day; the late mailing's first two were 304s, and none
    # of its papers was lost.
    statuses = [r.status for r in scenario.arxiv.requests]
    assert len(statuses) == 2 * DAYS + 2 and statuses.count(304) == 2, statuses
    listed = scenario.arxiv.calendar.papers_up_to(day=LATE)
    late = {paper.arxiv_id for when, paper in listed if when == LATE}
    assert late and late <= {s.candidate.arxiv_id for s in everything}
    assert scenario.fetch_time.sleeps == [3.0] * (DAYS + 1)  # each round's two feeds 3 s apart
    by_id = {s.id: s for s in everything}
    # A cross-list in two watched feeds is one suggestion; a replacement of a read paper none.
    assert [s.candidate.arxiv_id for s in everything].count(CROSS_ID) == 1
    assert READ_ID not in {s.candidate.arxiv_id for s in everything}
    shown_ids: list[int] = []
    shown_papers: list[str | None] = []
    shown_titles: list[str] = []
    for day in scenario.days:
        if day.tray is None:
            continue
        assert 1 <= len(day.tray_items) <= PER_DAY, day
        assert day.tray.message_id, day  # posted on the platform
        words = room.shown(message_id=day.tray.message_id)
        titles = [s.candidate.title for s in day.tray_items]
        assert room.harmful(message_id=day.tray.message_id, titles=titles) == [], day
        for item in day.tray_items:
            assert f"#{item.id}" in words
            assert item.candidate.arxiv_id not in day.read_before  # none already read
        shown_ids += [s.id for s in day.tray_items]
        shown_papers += [s.candidate.arxiv_id for s in day.tray_items]
        shown_titles += titles
    assert len(shown_ids) == len(set(shown_ids))  # none twice
    assert len(shown_papers) == len(set(shown_papers))
    # Hostile titles were among them, and were shown as data.
    hostile = [t for t in shown_titles if any(m in t for m in HOSTILE_MARKS)]
    assert len(hostile) >= 2, shown_titles
    # A promoted paper is the next day's post, a hidden one never; every weekday has a post,
    # weekends none.
    posts = {d.day: d.posted_arxiv_id for d in scenario.days}
    assert len(decided) == 2
    for when, (promoted, hidden) in decided.items():
        assert posts[when + timedelta(days=1)] == by_id[promoted].candidate.arxiv_id
        assert by_id[hidden].candidate.arxiv_id not in posts.values()
    assert len([p for p in posts.values() if p]) == len({p for p in posts.values() if p})
    for when, posted in posts.items():
        if when.weekday() < 5:
            assert posted, f"no post on {when:%a %d %b}"
        else:
            assert posted is None
    # Mailing days have a tray, days without one (weekends, the holiday) none; the holiday's
    # post still came.
    for seen in scenario.days:
        mailed = seen.day.weekday() < 5 and seen.day != HOLIDAY
        assert (seen.tray is not None) == mailed, f"tray {seen.tray} on {seen.day:%a %d %b}"
    assert posts[HOLIDAY]


def test_a_day_arxiv_announces_nothing_has_no_tray(sqlite_url: str) -> None:
    with console_room(url=sqlite_url) as room, FakeArxiv(today=FIRST, calendar=calendar()) as arxiv:
        # Read at the sweep's own time: Friday's read is exactly 24 hours before Saturday's.
        scenario = Scenario(platform=room, arxiv=arxiv, read_at=MORNING)
        _set_up(room=room)
        saturday = FIRST + timedelta(days=5)
        for day in fortnight()[:6]:
            scenario.morning(day=day)
        assert {d.day: d.tray is not None for d in scenario.days}[saturday] is False
