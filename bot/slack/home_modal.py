"""The schedule form as a Block Kit modal, and what a submitted one says; the pieces of a
modal (plain text, options, zone groups, input blocks, a submitted input's state) are shared
with the other forms (meeting_modal, nominate_modal).

The time is a timepicker, the zone a static select of IANA zones (grouped by region, at most
100 options a group, as Slack allows), the days checkboxes; the channel rides in
private_metadata, and the submission is read back from the view's state."""

from __future__ import annotations

import itertools
from typing import Any

from bot.schedule_text import DAY_NAMES
from bot.services.home import ScheduleForm
from bot.slack import ids, render
from bot.slack.render import Names
from bot.wording import home as words

GROUP_MAX = 100  # options in one option group
LABEL_MAX = 75  # an option group's label and an option's text


def plain(text: str) -> dict[str, Any]:
    """A plain_text object."""
    return {"type": "plain_text", "text": text[:LABEL_MAX], "emoji": True}


def option(value: str, label: str | None = None) -> dict[str, Any]:
    """One option of a select or of the checkboxes."""
    return {"text": plain(label or value), "value": value}


def zone_groups(*, zones: tuple[str, ...]) -> list[dict[str, Any]]:
    """Zones grouped by region ("America", "America (2)" ...), each group within Slack's 100."""
    groups: list[dict[str, Any]] = []
    for region, members in itertools.groupby(zones, key=lambda z: z.split("/")[0]):
        listed = list(members)
        for n, start in enumerate(range(0, len(listed), GROUP_MAX), start=1):
            label = region if n == 1 else f"{region} ({n})"
            chunk = listed[start : start + GROUP_MAX]
            groups.append({"label": plain(label), "options": [option(z) for z in chunk]})
    return groups


def input_block(*, block_id: str, label: str, element: dict[str, Any]) -> dict[str, Any]:
    """An input block."""
    return {"type": "input", "block_id": block_id, "label": plain(label), "element": element}


def schedule_modal(*, form: ScheduleForm, names: Names) -> dict[str, Any]:
    """The modal to open for an admin who pressed "Set the schedule…"."""
    current = form.current
    zone = current.timezone if current.timezone in form.zones else "UTC"
    intro = render.mrkdwn(runs=words.form_intro(channel=form.channel).runs, names=names)
    days = [option(name, label) for name, label in zip(DAY_NAMES, words.DAY_LABELS, strict=True)]
    chosen = [days[d - 1] for d in sorted(current.weekdays)]
    time_picker = {
        "type": "timepicker",
        "action_id": ids.SCHEDULE_TIME,
        "initial_time": f"{current.post_time:%H:%M}",
    }
    zone_select = {
        "type": "static_select",
        "action_id": ids.SCHEDULE_ZONE,
        "option_groups": zone_groups(zones=form.zones),
        "initial_option": option(zone),
    }
    checkboxes: dict[str, Any] = {
        "type": "checkboxes",
        "action_id": ids.SCHEDULE_DAYS,
        "options": days,
    }
    if chosen:
        checkboxes["initial_options"] = chosen
    return {
        "type": "modal",
        "callback_id": ids.SCHEDULE_VIEW,
        "private_metadata": form.channel.channel,
        "title": plain(words.FORM_TITLE),
        "submit": plain(words.FORM_SUBMIT),
        "close": plain(words.FORM_CLOSE),
        "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": intro, "verbatim": True}},
            input_block(block_id=ids.SCHEDULE_TIME, label=words.FORM_TIME, element=time_picker),
            input_block(block_id=ids.SCHEDULE_ZONE, label=words.FORM_ZONE, element=zone_select),
            input_block(block_id=ids.SCHEDULE_DAYS, label=words.FORM_DAYS, element=checkboxes),
        ],
    }


def state_of(*, view: dict[str, Any], block_id: str) -> dict[str, Any]:
    """One input's state in a submitted view ({} when missing or malformed)."""
    values = ((view.get("state") or {}).get("values")) or {}
    found = (values.get(block_id) or {}).get(block_id)
    return found if isinstance(found, dict) else {}


def submitted(*, view: dict[str, Any]) -> tuple[str | None, str | None, list[str]]:
    """The time, zone and days a submitted schedule form holds, as typed (not yet checked)."""
    time = state_of(view=view, block_id=ids.SCHEDULE_TIME).get("selected_time")
    option = state_of(view=view, block_id=ids.SCHEDULE_ZONE).get("selected_option") or {}
    zone = option.get("value") if isinstance(option, dict) else None
    ticked = state_of(view=view, block_id=ids.SCHEDULE_DAYS).get("selected_options") or []
    days = [str(o.get("value")) for o in ticked if isinstance(o, dict)]
    return (str(time) if time else None), (str(zone) if zone else None), days


# Form fields (services.home.read_form) -> the input block that shows their error.
FIELD_BLOCKS = {"time": ids.SCHEDULE_TIME, "zone": ids.SCHEDULE_ZONE, "days": ids.SCHEDULE_DAYS}
