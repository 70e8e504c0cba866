"""Web API methods for surfaces: views.publish (a person's App Home) and views.open (a modal),
validated as Slack does before anything is kept."""

from __future__ import annotations

import copy
from typing import Any

from .blocks import validate_blocks
from .model import ApiError, JsonDict
from .params import json_arg, text_arg
from .state import Workspace

MAX_VIEW_BLOCKS = 100
MAX_TITLE = 24  # a modal's title, submit and close texts
MAX_PRIVATE_METADATA = 3000
MAX_CALLBACK_ID = 255
MAX_INPUT_LABEL = 2000


def _missing(name: str) -> ApiError:
    """Slack's answer to a required argument left out."""
    return ApiError("invalid_arguments", [f"[ERROR] missing required field: {name}"])


def _short_text(view: JsonDict, key: str, problems: list[str], *, required: bool) -> None:
    """A modal's title, submit or close: plain_text of at most 24 characters."""
    value = view.get(key)
    if value is None:
        if required:
            problems.append(f"[ERROR] missing required field: {key} [json-pointer:/view/{key}]")
        return
    text = value.get("text") if isinstance(value, dict) else None
    if not isinstance(value, dict) or value.get("type") != "plain_text" or not text:
        problems.append(f"[ERROR] must be a plain_text object [json-pointer:/view/{key}]")
    elif len(text) > MAX_TITLE:
        problems.append(
            f"[ERROR] must be less than {MAX_TITLE + 1} characters [json-pointer:/view/{key}/text]"
        )


def _inputs(blocks: list[Any], problems: list[str]) -> bool:
    """Check input blocks (a label, an element); whether there is any."""
    found = False
    for i, block in enumerate(blocks):
        if not isinstance(block, dict) or block.get("type") != "input":
            continue
        found = True
        label = block.get("label")
        if not isinstance(label, dict) or label.get("type") != "plain_text":
            problems.append(f"[ERROR] must provide a plain_text label [json-pointer:/blocks/{i}]")
        elif not 1 <= len(str(label.get("text") or "")) <= MAX_INPUT_LABEL:
            problems.append(f"[ERROR] label text out of range [json-pointer:/blocks/{i}/label]")
        element = block.get("element")
        if not isinstance(element, dict) or not isinstance(element.get("type"), str):
            problems.append(f"[ERROR] must provide an element [json-pointer:/blocks/{i}]")
    return found


def _view(params: JsonDict, *, kind: str) -> JsonDict:
    """The view argument, checked: its type, blocks and, for a modal, title and buttons."""
    view = json_arg(params, "view", "invalid_arguments")
    if view is None or view == "":
        raise _missing("view")
    if not isinstance(view, dict):
        raise ApiError("invalid_arguments", ["[ERROR] view must be an object"])
    if view.get("type") != kind:
        raise ApiError("invalid_arguments", [f"[ERROR] view type must be {kind}"])
    blocks = view.get("blocks")
    if not isinstance(blocks, list):
        raise ApiError("invalid_arguments", ["[ERROR] missing required field: blocks"])
    validate_blocks(blocks, maximum=MAX_VIEW_BLOCKS)
    problems: list[str] = []
    has_inputs = _inputs(blocks, problems)
    if kind == "modal":
        _short_text(view, "title", problems, required=True)
        _short_text(view, "submit", problems, required=has_inputs)
        _short_text(view, "close", problems, required=False)
    if len(str(view.get("private_metadata") or "")) > MAX_PRIVATE_METADATA:
        problems.append("[ERROR] private_metadata too long [json-pointer:/view/private_metadata]")
    if len(str(view.get("callback_id") or "")) > MAX_CALLBACK_ID:
        problems.append("[ERROR] callback_id too long [json-pointer:/view/callback_id]")
    if problems:
        raise ApiError("invalid_arguments", problems)
    return view


def _stored(ws: Workspace, view: JsonDict, *, root: str | None = None) -> JsonDict:
    """The view as Slack answers and keeps it: ids, state and defaults filled in."""
    view_id = ws.views.new_id()
    full: JsonDict = {
        "id": view_id,
        "team_id": ws.team_id,
        "type": view["type"],
        "blocks": copy.deepcopy(view["blocks"]),
        "private_metadata": str(view.get("private_metadata") or ""),
        "callback_id": str(view.get("callback_id") or ""),
        "state": {"values": {}},
        "hash": f"{view_id}.{len(ws.views.published) + len(ws.views.opened)}",
        "title": view.get("title") or {"type": "plain_text", "text": "View Title"},
        "clear_on_close": bool(view.get("clear_on_close")),
        "notify_on_close": bool(view.get("notify_on_close")),
        "close": view.get("close"),
        "submit": view.get("submit"),
        "previous_view_id": None,
        "root_view_id": root or view_id,
        "app_id": ws.app_id,
        "external_id": str(view.get("external_id") or ""),
        "app_installed_team_id": ws.team_id,
        "bot_id": ws.bot_id,
    }
    return full


def views_publish(ws: Workspace, params: JsonDict) -> JsonDict:
    """views.publish: the Home a person sees from now on (replacing the one before)."""
    user = text_arg(params, "user_id")
    if not user:
        raise _missing("user_id")
    view = _view(params, kind="home")
    if user not in ws.users or ws.users[user].is_bot:
        raise ApiError("not_found")
    stored = _stored(ws, view)
    ws.views.homes[user] = stored
    ws.views.published.append((user, copy.deepcopy(stored)))
    ws.changed.notify_all()
    return {"view": copy.deepcopy(stored)}


def views_open(ws: Workspace, params: JsonDict) -> JsonDict:
    """views.open: a modal for the person whose interaction issued the trigger (used once)."""
    trigger = text_arg(params, "trigger_id")
    if not trigger:
        raise _missing("trigger_id")
    view = _view(params, kind="modal")
    if trigger in ws.views.exchanged:
        raise ApiError("exchanged_trigger_id")
    user = ws.views.triggers.get(trigger)
    if user is None:
        raise ApiError("invalid_trigger_id")
    ws.views.exchanged.add(trigger)
    stored = _stored(ws, view)
    ws.views.opened.append((user, copy.deepcopy(stored)))
    ws.changed.notify_all()
    return {"view": copy.deepcopy(stored)}
