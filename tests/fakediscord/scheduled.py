"""Guild Scheduled Events as Discord's docs shape them (resources/guild-scheduled-event): the
fields and their limits, what EXTERNAL events must carry, the status moves Discord allows,
and the bot's Manage Events permission, which tests may take away.

Lengths are counted in UTF-16 code units, as Discord's JavaScript counts them."""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

from .directory import Directory
from .journal import Journal
from .model import ApiError, JsonDict, Snowflakes, unknown
from .validation import error_leaf, invalid_form

MANAGE_EVENTS = 1 << 33
CREATE_EVENTS = 1 << 44
STAGE, VOICE, EXTERNAL = 1, 2, 3
GUILD_ONLY = 2
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
# Status moves Discord allows: SCHEDULED to ACTIVE or CANCELED, ACTIVE to COMPLETED.
MOVES = {SCHEDULED: {SCHEDULED, ACTIVE, CANCELED}, ACTIVE: {ACTIVE, COMPLETED}}
LIMITS = {"name": (1, 100), "description": (1, 1000), "location": (1, 100)}
UNKNOWN_EVENT = 10070
REQUIRED = error_leaf(code="BASE_TYPE_REQUIRED", message="This field is required")


def size(text: str) -> int:
    """UTF-16 code units."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _instant(value: Any) -> dt.datetime | None:
    """An ISO-8601 timestamp with its offset, or None when it is not one."""
    try:
        parsed = dt.datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _length_errors(*, errors: JsonDict, field: str, value: Any, path: tuple[str, ...]) -> None:
    """A text field outside its bounds."""
    low, high = LIMITS[field]
    if not isinstance(value, str) or not low <= size(value) <= high:
        leaf = error_leaf(
            code="BASE_TYPE_BAD_LENGTH", message=f"Must be between {low} and {high} in length."
        )
        node = errors
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = leaf


def check_event(*, body: JsonDict, creating: bool, entity_type: int | None = None) -> None:
    """400 Invalid Form Body for a create (every required field) or a modify (what it sends,
    read with the event's entity type), as Discord answers."""
    errors: JsonDict = {}
    required = ("name", "privacy_level", "scheduled_start_time", "entity_type")
    for field in required if creating else ():
        if body.get(field) is None:
            errors[field] = REQUIRED
    kind = body.get("entity_type", entity_type)
    if "entity_type" in body and body["entity_type"] not in (STAGE, VOICE, EXTERNAL):
        errors["entity_type"] = error_leaf(code="BASE_TYPE_CHOICES", message="Bad entity type.")
    if "privacy_level" in body and body["privacy_level"] != GUILD_ONLY:
        errors["privacy_level"] = error_leaf(
            code="BASE_TYPE_CHOICES", message="Value must be one of {2}."
        )
    for field in ("name", "description"):
        if field in body and (field == "name" or body[field] is not None):
            _length_errors(errors=errors, field=field, value=body[field], path=(field,))
    for field in ("scheduled_start_time", "scheduled_end_time"):
        if body.get(field) is not None and _instant(body[field]) is None:
            errors[field] = error_leaf(code="DATE_TIME_TYPE_PARSE", message="Invalid timestamp.")
    if kind == EXTERNAL and (creating or "entity_type" in body):
        if body.get("scheduled_end_time") is None:
            errors["scheduled_end_time"] = REQUIRED  # EXTERNAL events must say when they end
        location = (body.get("entity_metadata") or {}).get("location")
        if location is None:
            errors["entity_metadata"] = {"location": REQUIRED}
        if body.get("channel_id") is not None:
            errors["channel_id"] = error_leaf(
                code="BASE_TYPE_INVALID", message="EXTERNAL events have no channel."
            )
    if kind == EXTERNAL and (body.get("entity_metadata") or {}).get("location") is not None:
        location = body["entity_metadata"]["location"]
        _length_errors(
            errors=errors, field="location", value=location, path=("entity_metadata", "location")
        )
    start = _instant(body.get("scheduled_start_time"))
    end = _instant(body.get("scheduled_end_time"))
    if start and end and end <= start:
        errors["scheduled_end_time"] = error_leaf(
            code="GUILD_SCHEDULED_EVENT_END_BEFORE_START", message="End must be after start."
        )
    if errors:
        raise invalid_form(errors=errors)


class ScheduledEvents:
    """Every guild's scheduled events, kept under the journal's lock."""

    def __init__(self, *, journal: Journal, ids: Snowflakes, directory: Directory) -> None:
        self.lock = journal.lock
        self._ids, self._directory = ids, directory
        self._events: dict[str, JsonDict] = {}

    def bot_may(self, *, guild_id: str, bits: int) -> bool:
        """Whether the bot's roles in the guild grant any of these permission bits."""
        with self.lock:
            guild = self._directory.guild(guild_id=guild_id)
            granted = 0
            for role in guild.roles:
                if role["id"] in (guild.id, guild.bot_role_id):
                    granted |= int(role["permissions"])
            return bool(granted & bits)

    def withhold(self, *, guild_id: str, bits: int) -> None:
        """Take these permissions from the bot's role (and @everyone) in the guild."""
        with self.lock:
            guild = self._directory.guild(guild_id=guild_id)
            for role in guild.roles:
                if role["id"] in (guild.id, guild.bot_role_id):
                    role["permissions"] = str(int(role["permissions"]) & ~bits)

    def create(self, *, guild_id: str, body: JsonDict, creator: JsonDict) -> JsonDict:
        """A new event, SCHEDULED (a copy)."""
        with self.lock:
            event_id = self._ids.next()
            self._events[event_id] = {
                "id": event_id,
                "guild_id": guild_id,
                "channel_id": body.get("channel_id"),
                "creator_id": creator["id"],
                "creator": copy.deepcopy(creator),
                "name": body["name"],
                "description": body.get("description"),
                "scheduled_start_time": body["scheduled_start_time"],
                "scheduled_end_time": body.get("scheduled_end_time"),
                "privacy_level": body["privacy_level"],
                "status": SCHEDULED,
                "entity_type": body["entity_type"],
                "entity_id": None,
                "entity_metadata": copy.deepcopy(body.get("entity_metadata")),
                "image": None,
                "recurrence_rule": None,
            }
            return copy.deepcopy(self._events[event_id])

    def live(self, *, guild_id: str, event_id: str) -> JsonDict:
        """The stored event, or 404 Unknown Guild Scheduled Event."""
        with self.lock:
            event = self._events.get(event_id)
            if event is None or event["guild_id"] != guild_id:
                raise unknown(what="Guild Scheduled Event", code=UNKNOWN_EVENT)
            return event

    def modify(self, *, guild_id: str, event_id: str, body: JsonDict) -> JsonDict:
        """Change the fields sent; a status Discord does not allow from the current one is
        400 (a CANCELED or COMPLETED event changes no more)."""
        with self.lock:
            event = self.live(guild_id=guild_id, event_id=event_id)
            check_event(body=body, creating=False, entity_type=event["entity_type"])
            status = body.get("status", event["status"])
            if status not in MOVES.get(event["status"], set()):
                raise ApiError(status=400, code=180000, message="Cannot update a finished event")
            event.update({k: copy.deepcopy(v) for k, v in body.items() if k in event})
            return copy.deepcopy(event)

    def delete(self, *, guild_id: str, event_id: str) -> JsonDict:
        """Remove the event; what it was."""
        with self.lock:
            event = self.live(guild_id=guild_id, event_id=event_id)
            del self._events[event_id]
            return copy.deepcopy(event)

    def of_guild(self, *, guild_id: str) -> list[JsonDict]:
        """The guild's events, oldest first (copies)."""
        with self.lock:
            return [copy.deepcopy(e) for e in self._events.values() if e["guild_id"] == guild_id]
