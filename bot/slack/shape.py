"""The shape of a signed request's body, checked before Bolt sees it: a body Slack would never
send (a JSON array, 10,000-deep nesting, a field of the wrong type) is a 400 and reaches no
listener, so nothing of it is stored and no listener trips over it with a 500."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

# A field's expected type (or types), a nested object's schema, or a list of objects.
Schema = Mapping[str, Any]

_MESSAGE: Schema = {
    "ts": str,
    "thread_ts": str,
    "text": str,
    "user": str,
    "subtype": str,
    "bot_id": str,
    "metadata": dict,
    "blocks": list,
}
_EVENT: Schema = {
    # channel_created, team_join, user_change ... carry an object where messages have an id.
    "type": str,
    "subtype": str,
    "channel": (str, dict),
    "user": (str, dict),
    "ts": str,
    "thread_ts": str,
    "event_ts": str,
    "text": str,
    "reaction": str,
    "deleted_ts": str,
    "bot_id": str,
    "item": {"type": str, "channel": str, "ts": str},
    "message": _MESSAGE,
    "previous_message": _MESSAGE,
}
# Events API envelopes: event_callback, url_verification, app_rate_limited.
_ENVELOPE: Schema = {
    "type": str,
    "team_id": str,
    "api_app_id": str,
    "event_id": str,
    "event_time": int,
    "challenge": str,
    "event": _EVENT,
}
_ID: Schema = {"id": str}
_STATE: Schema = {"values": dict}
# A modal or the App Home, as block_actions, view_submission and view_closed carry it.
_VIEW: Schema = {
    "id": str,
    "type": str,
    "callback_id": str,
    "private_metadata": str,
    "hash": str,
    "team_id": str,
    "app_installed_team_id": str,
    "blocks": list,
    "state": _STATE,
}
# Interactivity payloads: block_actions and the rest.
_INTERACTION: Schema = {
    "type": str,
    "api_app_id": str,
    "team": {"id": str, "enterprise_id": str},
    "user": {"id": str, "team_id": str},
    "channel": _ID,
    "actions": [{"action_id": str, "value": str, "action_ts": str, "block_id": str}],
    "response_url": str,
    "trigger_id": str,
    "container": dict,
    "state": _STATE,
    "view": _VIEW,
    "message": _MESSAGE,
}


class Malformed(ValueError):
    """The body cannot be a request Slack sends; the message says why, for the 400."""


def _check(*, value: object, schema: Schema, where: str) -> None:
    """Every field the schema names that the object has is of its type (null allowed)."""
    if not isinstance(value, dict):
        raise Malformed(f"{where or 'the body'} must be a JSON object")
    for key, expected in schema.items():
        field, path = value.get(key), f"{where}.{key}" if where else key
        if field is None:
            continue
        if isinstance(expected, Mapping):
            _check(value=field, schema=expected, where=path)
        elif isinstance(expected, list):
            if not isinstance(field, list):
                raise Malformed(f"{path} must be a list")
            for index, item in enumerate(field):
                _check(value=item, schema=expected[0], where=f"{path}[{index}]")
        elif not isinstance(field, expected) or isinstance(field, bool):
            kinds = expected if isinstance(expected, tuple) else (expected,)
            raise Malformed(f"{path} must be a {' or '.join(k.__name__ for k in kinds)}")


def _json(*, text: str) -> object:
    """Parsed JSON; a deep nesting is refused like any other bad JSON."""
    try:
        return json.loads(text)
    except RecursionError:  # the C decoder recurses once per level
        raise Malformed("the JSON is nested too deeply") from None
    except ValueError:
        raise Malformed("the body is not valid JSON") from None


def check_body(*, text: str, content_type: str) -> None:
    """Raise Malformed unless the body could be an event, a command or an interaction."""
    if "json" in content_type or text.lstrip().startswith(("{", "[")):
        _check(value=_json(text=text), schema=_ENVELOPE, where="")
        return
    fields = dict(parse_qsl(text, keep_blank_values=True))
    if "payload" in fields and "command" not in fields:
        _check(value=_json(text=fields["payload"]), schema=_INTERACTION, where="payload")
