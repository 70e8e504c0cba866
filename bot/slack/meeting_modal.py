"""The meeting form as a Block Kit modal, and what a submitted one holds.

The day and how often are static selects, the start a timepicker, the zone the schedule form's
select of IANA zones, the first date a datepicker; the length, the place and the reminders are
typed. The channel rides in private_metadata; the submission is read back from the view's
state, as typed, and checked by the core (bot/services/meeting_form)."""

from __future__ import annotations

from typing import Any

from bot.meetings.meeting_text import PLACE_LIMIT, WEEKDAYS
from bot.services.meeting_form import EVERY_MOST, MeetingFields, MeetingForm
from bot.slack import ids, render
from bot.slack.home_modal import input_block, option, plain, state_of, zone_groups
from bot.slack.render import Names
from bot.wording import home as home_words
from bot.wording import meeting_form as words

TYPED_MAX = 100  # characters of a typed length or list of reminders


def _text_input(*, action_id: str, initial: str, limit: int) -> dict[str, Any]:
    """A one-line text input, filled with `initial` (Slack refuses an empty initial_value)."""
    element: dict[str, Any] = {
        "type": "plain_text_input",
        "action_id": action_id,
        "max_length": limit,
    }
    if initial:
        element["initial_value"] = initial[:limit]
    return element


def _hinted(block: dict[str, Any], *, hint: str, optional: bool = False) -> dict[str, Any]:
    """An input block with a hint under it; optional ones may be left empty."""
    block["hint"] = plain(hint)
    if optional:
        block["optional"] = True
    return block


def _selects(*, form: MeetingForm) -> list[dict[str, Any]]:
    """The day, the start, the zone and how often."""
    days = [option(day, label) for day, label in zip(WEEKDAYS, home_words.DAY_LABELS, strict=True)]
    day: dict[str, Any] = {"type": "static_select", "action_id": ids.MEETING_DAY, "options": days}
    if form.weekday is not None:
        day["initial_option"] = days[form.weekday - 1]
    start: dict[str, Any] = {"type": "timepicker", "action_id": ids.MEETING_TIME}
    if form.start is not None:
        start["initial_time"] = f"{form.start:%H:%M}"
    zone = form.zone if form.zone in form.zones else "UTC"
    zones = {
        "type": "static_select",
        "action_id": ids.MEETING_ZONE,
        "option_groups": zone_groups(zones=form.zones),
        "initial_option": option(zone),
    }
    often = [option(str(n), words.every_label(weeks=n)) for n in range(1, EVERY_MOST + 1)]
    every = {
        "type": "static_select",
        "action_id": ids.MEETING_EVERY,
        "options": often,
        "initial_option": often[min(max(form.every_weeks, 1), EVERY_MOST) - 1],
    }
    return [
        input_block(block_id=ids.MEETING_DAY, label=words.DAY, element=day),
        input_block(block_id=ids.MEETING_TIME, label=words.TIME, element=start),
        input_block(block_id=ids.MEETING_ZONE, label=words.ZONE, element=zones),
        input_block(block_id=ids.MEETING_EVERY, label=words.EVERY, element=every),
    ]


def _typed(*, form: MeetingForm) -> list[dict[str, Any]]:
    """The first date, the length, the place and the reminders."""
    first: dict[str, Any] = {"type": "datepicker", "action_id": ids.MEETING_FIRST}
    if form.first_date is not None:
        first["initial_date"] = form.first_date.isoformat()
    length = _text_input(action_id=ids.MEETING_DURATION, initial=form.duration, limit=TYPED_MAX)
    place = _text_input(action_id=ids.MEETING_PLACE, initial=form.place, limit=PLACE_LIMIT)
    leads = _text_input(action_id=ids.MEETING_REMINDERS, initial=form.reminders, limit=TYPED_MAX)
    return [
        _hinted(
            input_block(block_id=ids.MEETING_FIRST, label=words.FIRST, element=first),
            hint=words.FIRST_HINT,
            optional=True,
        ),
        _hinted(
            input_block(block_id=ids.MEETING_DURATION, label=words.DURATION, element=length),
            hint=words.DURATION_HINT,
        ),
        _hinted(
            input_block(block_id=ids.MEETING_PLACE, label=words.PLACE, element=place),
            hint=words.PLACE_HINT,
            optional=True,
        ),
        _hinted(
            input_block(block_id=ids.MEETING_REMINDERS, label=words.REMINDERS, element=leads),
            hint=words.REMINDERS_HINT,
            optional=True,
        ),
    ]


def meeting_modal(*, form: MeetingForm, names: Names) -> dict[str, Any]:
    """The modal to open for an admin who pressed "Meeting…"."""
    intro = render.mrkdwn(runs=words.form_intro(channel=form.channel).runs, names=names)
    return {
        "type": "modal",
        "callback_id": ids.MEETING_VIEW,
        "private_metadata": form.channel.channel,
        "title": plain(words.FORM_TITLE),
        "submit": plain(words.FORM_SUBMIT),
        "close": plain(words.FORM_CLOSE),
        "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": intro, "verbatim": True}},
            *_selects(form=form),
            *_typed(form=form),
        ],
    }


def _picked(*, view: dict[str, Any], block_id: str) -> str | None:
    """A static select's chosen value."""
    chosen = state_of(view=view, block_id=block_id).get("selected_option")
    found = chosen.get("value") if isinstance(chosen, dict) else None
    return str(found) if found else None


def _value(*, view: dict[str, Any], block_id: str, key: str) -> str | None:
    """A picker's or a text input's value (`key`: selected_time, selected_date, value)."""
    found = state_of(view=view, block_id=block_id).get(key)
    return str(found) if found else None


def submitted(*, view: dict[str, Any]) -> MeetingFields:
    """What a submitted meeting form holds, as typed (not yet checked)."""
    return MeetingFields(
        day=_picked(view=view, block_id=ids.MEETING_DAY),
        time=_value(view=view, block_id=ids.MEETING_TIME, key="selected_time"),
        zone=_picked(view=view, block_id=ids.MEETING_ZONE),
        every=_picked(view=view, block_id=ids.MEETING_EVERY),
        first=_value(view=view, block_id=ids.MEETING_FIRST, key="selected_date"),
        duration=_value(view=view, block_id=ids.MEETING_DURATION, key="value"),
        place=_value(view=view, block_id=ids.MEETING_PLACE, key="value"),
        reminders=_value(view=view, block_id=ids.MEETING_REMINDERS, key="value"),
    )


# Form fields (services.meeting_form.read_meeting_form) -> the input block showing their error.
FIELD_BLOCKS = {
    "day": ids.MEETING_DAY,
    "time": ids.MEETING_TIME,
    "zone": ids.MEETING_ZONE,
    "every": ids.MEETING_EVERY,
    "first": ids.MEETING_FIRST,
    "duration": ids.MEETING_DURATION,
    "place": ids.MEETING_PLACE,
    "reminders": ids.MEETING_REMINDERS,
}
