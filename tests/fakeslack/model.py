"""Plain data the fake keeps: channels, users, injected faults, recorded calls."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JsonDict = dict[str, Any]


class ApiError(Exception):
    """A Web API method's `{"ok": false, "error": ...}` answer, raised inside a method."""

    def __init__(self, error: str, messages: list[str] | None = None) -> None:
        super().__init__(error)
        self.error = error
        self.messages = messages or []


@dataclass
class Channel:
    """A conversation the fake knows."""

    id: str
    name: str
    is_member: bool = True
    is_private: bool = False
    is_im: bool = False  # the bot's direct message with one person (web_directs.py)
    created: int = 1_700_000_000
    members: set[str] = field(default_factory=set)  # people in it (users.conversations)


@dataclass
class User:
    """A workspace member as users.info shows them."""

    id: str
    name: str
    is_admin: bool = False
    is_owner: bool = False
    is_bot: bool = False
    deleted: bool = False
    real_name: str = ""
    display_name: str = ""
    tz: str = "Europe/London"
    tz_offset: int = 0


@dataclass
class Failure:
    """One injected fault: an HTTP status, an error code, or a dropped connection."""

    status: int
    error: str | None
    retry_after: int | None
    after_effect: bool
    drop: bool
    remaining: int


@dataclass(frozen=True)
class RecordedCall:
    """One request the fake received, with what it answered (response None: dropped)."""

    method: str
    params: JsonDict
    token: str | None
    status: int
    response: JsonDict | None
