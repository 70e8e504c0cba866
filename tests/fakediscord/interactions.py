"""Interactions: INTERACTION_CREATE payloads, and what the app answered to each one."""

from __future__ import annotations

import copy
import secrets
from dataclasses import dataclass, field
from typing import Any

from .directory import Directory
from .journal import Journal
from .model import ApiError, JsonDict, unknown
from .payloads import ALL_PERMISSIONS, ATTACHMENT_SIZE_LIMIT

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT = 1, 2, 3, 5
# Callback types (interaction response types).
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL = (
    1,
    4,
    5,
    6,
    7,
    9,
)
ALLOWED_CALLBACKS = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE,
        UPDATE_MESSAGE,
        MODAL,
    },
    # A modal is no answer to a modal; an update is to the message its button was on.
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}
# Option types whose Python value says what they are, for commands nobody registered.
_INFERRED_TYPES: tuple[tuple[type, int], ...] = ((bool, 5), (int, 4), (float, 10), (str, 3))


@dataclass
class InteractionRecord:
    """One interaction sent to the app and everything it answered."""

    id: str
    token: str
    type: int
    channel_id: str
    guild_id: str
    user_id: str
    payload: JsonDict
    message_id: str | None = None
    callbacks: list[JsonDict] = field(default_factory=list)
    original_id: str | None = None
    original_ephemeral: bool = False
    loading: bool = False
    followup_ids: list[str] = field(default_factory=list)

    @property
    def acknowledged(self) -> bool:
        """Whether a callback has been accepted."""
        return bool(self.callbacks)


class Interactions:
    """Every interaction, by id and token, and the ephemeral messages answered to them."""

    def __init__(self, *, journal: Journal) -> None:
        self._journal = journal
        self.lock = journal.lock
        self._records: dict[str, InteractionRecord] = {}
        self._by_token: dict[str, str] = {}
        self.ephemerals: dict[str, JsonDict] = {}

    def add(self, *, record: InteractionRecord) -> None:
        """Remember an interaction about to be dispatched."""
        with self.lock:
            self._records[record.id] = record
            self._by_token[record.token] = record.id

    def for_callback(self, *, interaction_id: str, token: str) -> InteractionRecord:
        """The live record a callback is for: 404 unknown, 400 if already acknowledged."""
        with self.lock:
            record = self._records.get(interaction_id)
            if record is None or record.token != token:
                raise unknown(what="interaction", code=10062)
            if record.acknowledged:
                raise ApiError(
                    status=400, code=40060, message="Interaction has already been acknowledged."
                )
            return record

    def for_webhook(self, *, token: str) -> InteractionRecord:
        """The live record a followup/original edit is for; 404 Unknown Webhook before any ack."""
        with self.lock:
            record = self._records.get(self._by_token.get(token, ""))
            if record is None or not record.acknowledged:
                raise unknown(what="Webhook", code=10015)
            return record

    def lookup(self, *, interaction_id: str) -> InteractionRecord:
        """The live record (callers hold the lock); KeyError if unknown."""
        with self.lock:
            return self._records[interaction_id]

    def get(self, *, interaction_id: str) -> InteractionRecord:
        """A copy of one record (KeyError if unknown)."""
        with self.lock:
            return copy.deepcopy(self._records[interaction_id])

    def all(self) -> list[InteractionRecord]:
        """Copies of every record, in dispatch order."""
        with self.lock:
            return [copy.deepcopy(r) for r in self._records.values()]


def new_token() -> str:
    """An interaction token (Discord's are long opaque strings)."""
    return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)


def interaction_payload(
    *,
    id: str,
    token: str,
    type: int,
    application_id: str,
    guild_id: str,
    channel: JsonDict,
    member: JsonDict,
    data: JsonDict,
    message: JsonDict | None = None,
) -> JsonDict:
    """INTERACTION_CREATE data for a guild interaction, every documented field present."""
    payload: JsonDict = {
        "id": id,
        "application_id": application_id,
        "type": type,
        "data": data,
        "guild_id": guild_id,
        "guild": {"id": guild_id, "locale": "en-US", "features": []},
        "channel_id": channel["id"],
        "channel": channel,
        "member": member,
        "token": token,
        "version": 1,
        "app_permissions": ALL_PERMISSIONS,
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": guild_id},
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if message is not None:
        payload["message"] = message
    return payload


def _declared_options(*, command: JsonDict | None, path: list[str]) -> list[JsonDict]:
    """The option declarations under a (group, sub)command path of a registered command."""
    options: list[JsonDict] = [] if command is None else command.get("options", [])
    for name in path:
        options = next((o.get("options", []) for o in options if o["name"] == name), [])
    return options


def option_type(*, declared: list[JsonDict], name: str, value: Any) -> int:
    """The option type: as registered, else guessed from the Python value."""
    for option in declared:
        if option["name"] == name:
            return int(option["type"])
    for python_type, number in _INFERRED_TYPES:
        if isinstance(value, python_type):
            return number
    raise TypeError(f"option {name}={value!r}: pass a str, int, float or bool")


def command_data(
    *,
    command: JsonDict | None,
    command_id: str,
    name: str,
    subcommand: str | None,
    options: dict[str, Any],
) -> tuple[JsonDict, dict[str, int]]:
    """An application command's interaction data -> (data, option types by name).

    `subcommand` may be "sub" or "group sub"; options go to the innermost level.
    """
    path = subcommand.split() if subcommand else []
    declared = _declared_options(command=command, path=path)
    types = {k: option_type(declared=declared, name=k, value=v) for k, v in options.items()}
    leaf: list[JsonDict] = [{"name": k, "type": types[k], "value": v} for k, v in options.items()]
    for depth, part in reversed(list(enumerate(path))):
        kind = 2 if depth < len(path) - 1 else 1
        leaf = [{"name": part, "type": kind, "options": leaf}]
    data: JsonDict = {"id": command_id, "name": name, "type": 1, "options": leaf}
    if command is not None and command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    return data, types


def resolved_options(
    *, directory: Directory, options: dict[str, Any], types: dict[str, int], guild_id: str
) -> JsonDict:
    """`resolved` data for user (6) and channel (7) options, as Discord adds it."""
    resolved: JsonDict = {}
    for name, value in options.items():
        if types[name] == 6:
            resolved.setdefault("users", {})[str(value)] = directory.user(user_id=str(value))
            member = directory.member(
                guild_id=guild_id, user_id=str(value), with_user=False, permissions=True
            )
            resolved.setdefault("members", {})[str(value)] = member
        elif types[name] == 7:
            channel = directory.channel_view(channel_id=str(value))
            channel["permissions"] = ALL_PERMISSIONS
            resolved.setdefault("channels", {})[str(value)] = channel
    return resolved


def callback_answer(
    *, record: InteractionRecord, cb_type: int, message: JsonDict | None
) -> JsonDict:
    """The InteractionCallbackResponse (?with_response=true) for an accepted callback."""
    interaction: JsonDict = {"id": record.id, "type": record.type}
    if message is not None:
        interaction["response_message_id"] = message["id"]
        interaction["response_message_loading"] = cb_type == DEFERRED_CHANNEL_MESSAGE
        interaction["response_message_ephemeral"] = bool(message["flags"] & 64)
    answer: JsonDict = {"interaction": interaction}
    if message is not None:
        answer["resource"] = {"type": cb_type, "message": message}
    return answer
