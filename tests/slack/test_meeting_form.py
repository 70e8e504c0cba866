"""Issue 33's App Home meeting form, over Socket Mode and HTTP: an admin's "Meeting…" button
opens a modal (views.open), a submitted one saves through `/paperclub meeting set` (one
write: the series and its reminders), wrong fields are told beside them (response_action
errors), a member can neither open nor submit it, and a hostile place is kept inert."""

from __future__ import annotations

import json
from datetime import date, time, timedelta
from typing import Any

from bot.meetings.meeting_text import PLACE_LIMIT
from bot.meetings.reminders import Before
from bot.ports.meetings import MeetingPlan
from bot.slack import ids
from tests.fakeslack import interactive_body
from tests.fakeslack.payloads import view_submission_payload
from tests.fakeslack.web_members import add_member
from tests.slack.conftest import ADMIN, CHANNEL, KEY, MEMBER, Harness
from tests.slack.test_app_home import buttons, open_home, press, press_and_wait, texts

MEETING = ids.action_id(action="home_meeting")
HOSTILE = "<!channel> <@U0ADMIN> *bold* <https://evil.test|click me> &amp; :tada: 🎉 Room 2"


def _deliver(harness: Harness, payload: dict[str, Any]) -> dict[str, Any]:
    """Deliver an interaction as this mode does; the ack's payload (empty when none)."""
    if harness.mode == "socket":
        ack = harness.fake.wait_ack(harness.fake.push("interactive", payload))
        return dict(ack.get("payload") or {})
    status, body = harness.post(interactive_body(payload))
    assert status == 200
    return dict(json.loads(body)) if body.strip() else {}


def _opened(harness: Harness, user: str) -> dict[str, Any]:
    """Press "Meeting…" on the Home; the modal the bot opened (waits for it)."""
    ws = harness.fake.ws
    before = len(ws.views.opened)
    press(harness, "home_meeting", user=user)
    assert ws.wait_for(lambda: len(ws.views.opened) > before, 10), "no modal opened"
    with ws.lock:
        who, view = ws.views.opened[-1]
    assert who == user
    return view


def _picked(value: str | None) -> dict[str, Any] | None:
    """A static select's selected option as Slack sends it."""
    return {"text": {"type": "plain_text", "text": value}, "value": value} if value else None


def _values(**typed: str | None) -> dict[str, Any]:
    """The form's state as Slack sends it on submission (a field not given: left empty)."""
    selects = {"day": ids.MEETING_DAY, "zone": ids.MEETING_ZONE, "every": ids.MEETING_EVERY}
    texts_ = {
        "duration": ids.MEETING_DURATION,
        "place": ids.MEETING_PLACE,
        "reminders": ids.MEETING_REMINDERS,
    }
    state: dict[str, Any] = {}
    for field, block in selects.items():
        chosen = {"type": "static_select", "selected_option": _picked(typed.get(field))}
        state[block] = {block: chosen}
    state[ids.MEETING_TIME] = {
        ids.MEETING_TIME: {"type": "timepicker", "selected_time": typed.get("time")}
    }
    state[ids.MEETING_FIRST] = {
        ids.MEETING_FIRST: {"type": "datepicker", "selected_date": typed.get("first")}
    }
    for field, block in texts_.items():
        state[block] = {block: {"type": "plain_text_input", "value": typed.get(field)}}
    return state


def _submit(harness: Harness, view: dict[str, Any], user: str, **typed: str | None) -> Any:
    """Submit the form as `user`; the ack's payload."""
    payload = view_submission_payload(view=view, user_id=user, values=_values(**typed))
    return _deliver(harness, payload)


def _plan(harness: Harness) -> MeetingPlan | None:
    """The channel's meeting as stored."""
    with harness.bot.database(write=False) as store:
        return store.meeting_plan(channel=KEY)


def _inputs(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The modal's input elements by block id."""
    return {b["block_id"]: b["element"] for b in view["blocks"] if b["type"] == "input"}


def test_admin_sets_the_meeting_in_the_form_and_sees_it_again(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, ADMIN)
    assert (MEETING, CHANNEL) in buttons(open_home(harness, ADMIN))
    view = _opened(harness, ADMIN)
    assert view["callback_id"] == ids.MEETING_VIEW and view["private_metadata"] == CHANNEL
    fresh = _inputs(view)
    assert "initial_option" not in fresh[ids.MEETING_DAY]  # no meeting yet: nothing chosen
    assert fresh[ids.MEETING_ZONE]["initial_option"]["value"] == "Europe/Berlin"
    assert fresh[ids.MEETING_DURATION]["initial_value"] == "60m"
    assert fresh[ids.MEETING_REMINDERS]["initial_value"] == "1d 30m"
    assert fresh[ids.MEETING_PLACE]["max_length"] == PLACE_LIMIT
    before = len(harness.fake.ws.views.published)
    place = HOSTILE + " " + "x" * 10_000  # past the input's limit: a forged submission
    answer = _submit(
        harness,
        view,
        ADMIN,
        day="thu",
        time="16:00",
        zone="America/New_York",
        every="2",
        first="2026-01-08",
        duration="1h 30m",
        place=place,
        reminders="2h, 15m",
    )
    assert "response_action" not in answer  # valid: the modal closes
    ws = harness.fake.ws
    assert ws.wait_for(lambda: len(ws.views.published) > before, 10), "no Home published"
    plan = _plan(harness)
    assert plan is not None and plan.reminders == (Before(minutes=120), Before(minutes=15))
    series = plan.meeting
    assert (series.weekday, series.start, series.zone) == (4, time(16), "America/New_York")
    assert series.every_weeks == 2 and series.first_date == date(2026, 1, 8)
    assert series.duration == timedelta(minutes=90)
    assert series.place == " ".join(place.split())[:PLACE_LIMIT]
    shown = texts(ws.views.published[-1][1])
    assert "In <#C0001>:" in shown and "every 2 weeks on Thursday at 16:00" in shown
    assert "Reminders: 2h, 15m before." in shown
    for live in ("<!channel>", "<@U0ADMIN>", "<https://evil", "*bold*"):
        assert live not in shown
    assert "&lt;!channel&gt;" in shown
    again = _inputs(_opened(harness, ADMIN))  # the form shows the meeting as it stands
    assert again[ids.MEETING_DAY]["initial_option"]["value"] == "thu"
    assert again[ids.MEETING_TIME]["initial_time"] == "16:00"
    assert again[ids.MEETING_EVERY]["initial_option"]["value"] == "2"
    assert again[ids.MEETING_FIRST]["initial_date"] == "2026-01-08"
    assert again[ids.MEETING_DURATION]["initial_value"] == "1h30m"
    assert again[ids.MEETING_REMINDERS]["initial_value"] == "2h 15m"
    assert again[ids.MEETING_PLACE]["initial_value"] == series.place
    typed = harness.command("meeting")  # the slash command says the same
    assert "every 2 weeks on Thursday at 16:00 America/New" in typed and "90 minutes" in typed


def test_wrong_fields_are_told_beside_them_and_nothing_is_saved(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, ADMIN)
    view = _opened(harness, ADMIN)
    empty = _submit(harness, view, ADMIN, reminders="")
    assert empty["response_action"] == "errors"
    assert set(empty["errors"]) == {
        ids.MEETING_DAY,
        ids.MEETING_TIME,
        ids.MEETING_ZONE,
        ids.MEETING_DURATION,
    }
    wrong = _submit(
        harness,
        view,
        ADMIN,
        day="someday",
        time="25:00",
        zone="Mars/Olympus",
        every="9",
        first="2026-13-01",
        duration="forever",
        reminders="soon " + "9" * 10_000,
    )
    errors = wrong["errors"]
    assert set(errors) == {
        ids.MEETING_DAY,
        ids.MEETING_TIME,
        ids.MEETING_ZONE,
        ids.MEETING_EVERY,
        ids.MEETING_FIRST,
        ids.MEETING_DURATION,
        ids.MEETING_REMINDERS,
    }
    assert "'25:00' is not a time of day like 16:00" in errors[ids.MEETING_TIME]
    assert all(len(text) <= 200 for text in errors.values())
    assert "Traceback" not in json.dumps(errors)
    assert _plan(harness) is None  # nothing changed


def test_a_member_can_neither_open_nor_submit_the_form(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, MEMBER)
    refused = press_and_wait(harness, "home_meeting", user=MEMBER)
    assert "Only Paper Club admins can change the meeting" in texts(refused)
    assert not harness.fake.ws.views.opened  # no form for a member
    forged_view = {
        "id": "V0FORGED",
        "type": "modal",
        "callback_id": ids.MEETING_VIEW,
        "private_metadata": CHANNEL,
        "blocks": [],
    }
    answer = _submit(
        harness,
        forged_view,
        MEMBER,
        day="mon",
        time="03:00",
        zone="UTC",
        every="1",
        duration="60m",
        reminders="off",
    )
    assert answer["response_action"] == "errors"
    assert "Only Paper Club admins" in answer["errors"][ids.MEETING_DAY]
    assert _plan(harness) is None
