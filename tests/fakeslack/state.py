"""The fake's memory: channels, users, messages, call log, injected faults; thread-safe."""

from __future__ import annotations

import copy
import itertools
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from .model import ApiError, Channel, Failure, JsonDict, RecordedCall, User
from .views_state import Views


@dataclass
class _Waitable:
    """A list guarded by a condition so tests can block until something arrives."""

    items: list[JsonDict] = field(default_factory=list)


class Workspace:
    """Everything the fake remembers; every public method is thread-safe."""

    def __init__(
        self,
        *,
        team_id: str,
        team_name: str,
        bot_user_id: str,
        bot_id: str,
        bot_name: str,
        app_id: str,
        bot_token: str,
        app_token: str,
        ts_base: int,
    ) -> None:
        # One re-entrant lock for all state: each Web API call runs whole under it, so
        # concurrent calls see each other's effects atomically, like a single Slack shard.
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.team_id, self.team_name = team_id, team_name
        self.bot_user_id, self.bot_id, self.bot_name = bot_user_id, bot_id, bot_name
        self.app_id = app_id
        self.bot_tokens: set[str] = {bot_token}
        self.app_tokens: set[str] = {app_token}
        self.revoked_tokens: set[str] = set()
        self.channels: dict[str, Channel] = {}
        self.users: dict[str, User] = {}
        self.add_user(User(id=bot_user_id, name=bot_name, is_bot=True, real_name=bot_name))
        self._messages: dict[str, list[JsonDict]] = {}
        self._ephemerals: dict[str, list[JsonDict]] = {}
        self._calls: list[RecordedCall] = []
        self._failures: dict[str, list[Failure]] = {}
        self._delays: dict[str, list[list[float]]] = {}
        self._responses: dict[str, _Waitable] = {}
        self._tickets: set[str] = set()
        self._ts_counter = itertools.count(1)
        self._ts_base = ts_base
        self.views = Views()  # App Homes and modals (web_views.py)

    # -- directory -------------------------------------------------------------------

    def add_channel(self, channel: Channel) -> None:
        """Create or replace a channel."""
        with self.lock:
            self.channels[channel.id] = channel
            self._messages.setdefault(channel.id, [])
            self._ephemerals.setdefault(channel.id, [])

    def add_user(self, user: User) -> None:
        """Create or replace a user."""
        with self.lock:
            self.users[user.id] = user

    def find_channel(self, ref: str) -> Channel:
        """Resolve a channel id, or a name with or without '#', as Slack does."""
        with self.lock:
            if ref in self.channels:
                return self.channels[ref]
            name = ref.removeprefix("#")
            for channel in self.channels.values():
                if channel.name == name:
                    return channel
        raise ApiError("channel_not_found")

    def token_kind(self, token: str | None) -> str:
        """Classify a token: 'bot', 'app', 'missing', 'revoked' or 'invalid'."""
        with self.lock:
            if not token:
                return "missing"
            if token in self.revoked_tokens:
                return "revoked"
            if token in self.bot_tokens:
                return "bot"
            if token in self.app_tokens:
                return "app"
        return "invalid"

    # -- messages --------------------------------------------------------------------

    def next_ts(self) -> str:
        """A fresh message ts, strictly increasing across the workspace."""
        with self.lock:
            n = next(self._ts_counter)
        # 100 µs apart: ts strings sort the same as numbers, and look like Slack's.
        seconds, fraction = divmod(n * 100, 1_000_000)
        return f"{self._ts_base + seconds}.{fraction:06d}"

    def store_message(self, channel: str, message: JsonDict) -> JsonDict:
        """Append a message (a dict with at least ts) and maintain its thread's counters."""
        with self.lock:
            message = copy.deepcopy(message)
            message["channel"] = channel
            thread_ts = message.get("thread_ts")
            if thread_ts and thread_ts != message["ts"]:
                parent = self.find_message(channel, thread_ts)
                if parent is not None:
                    message.setdefault("parent_user_id", parent.get("user"))
                    parent["thread_ts"] = parent["ts"]
                    parent["reply_count"] = parent.get("reply_count", 0) + 1
                    users = parent.setdefault("reply_users", [])
                    if message.get("user") and message["user"] not in users:
                        users.append(message["user"])
                    parent["reply_users_count"] = len(users)
                    parent["latest_reply"] = message["ts"]
            bucket = self._messages.setdefault(channel, [])
            bucket.append(message)
            bucket.sort(key=lambda m: float(m["ts"]))
            self.changed.notify_all()
            return message

    def find_message(self, channel: str, ts: str) -> JsonDict | None:
        """The live (mutable) stored message, or None."""
        with self.lock:
            for message in self._messages.get(channel, []):
                if message["ts"] == ts:
                    return message
        return None

    def get_message(self, channel: str, ts: str) -> JsonDict:
        """The live (mutable) stored message; message_not_found when there is none."""
        message = self.find_message(channel, ts)
        if message is None:
            raise ApiError("message_not_found")
        return message

    def remove_message(self, channel: str, ts: str) -> JsonDict:
        """Delete a message -> it as it was; a reply leaves its parent's counters."""
        with self.lock:
            message = self.get_message(channel, ts)
            self._messages[channel].remove(message)
            root = message.get("thread_ts")
            parent = self.find_message(channel, root) if root and root != ts else None
            if parent is not None:
                left = [m for m in self._messages[channel] if m.get("thread_ts") == root]
                replies = [m for m in left if m["ts"] != root]
                parent["reply_count"] = len(replies)
                parent["reply_users"] = list(dict.fromkeys(m["user"] for m in replies))
                parent["reply_users_count"] = len(parent["reply_users"])
                parent["latest_reply"] = replies[-1]["ts"] if replies else root
            self.changed.notify_all()
            return message

    def all_messages(self, channel: str) -> list[JsonDict]:
        """Live list of a channel's messages, oldest first (callers hold the lock)."""
        return self._messages.get(channel, [])

    def messages(self, channel: str) -> list[JsonDict]:
        """Copies of every message in a channel, replies included, oldest first."""
        with self.lock:
            return copy.deepcopy(self._messages.get(channel, []))

    def store_ephemeral(self, channel: str, message: JsonDict) -> None:
        """Remember an ephemeral message (never visible in history)."""
        with self.lock:
            self._ephemerals.setdefault(channel, []).append(copy.deepcopy(message))

    def ephemerals(self, channel: str) -> list[JsonDict]:
        """Copies of the ephemeral messages sent in a channel."""
        with self.lock:
            return copy.deepcopy(self._ephemerals.get(channel, []))

    # -- call log and fault injection ------------------------------------------------

    def record(self, call: RecordedCall) -> None:
        """Append a call to the log."""
        with self.lock:
            self._calls.append(call)
            self.changed.notify_all()

    def recorded(self, method: str | None = None) -> list[RecordedCall]:
        """The call log, optionally for one method."""
        with self.lock:
            return [c for c in self._calls if method is None or c.method == method]

    def add_failure(self, method: str, failure: Failure) -> None:
        """Queue a fault for the next call(s) of a method."""
        with self.lock:
            self._failures.setdefault(method, []).append(failure)

    def take_failure(self, method: str) -> Failure | None:
        """Consume one use of the first queued fault for a method."""
        with self.lock:
            queue = self._failures.get(method, [])
            if not queue:
                return None
            failure = queue[0]
            failure.remaining -= 1
            if failure.remaining <= 0:
                queue.pop(0)
            return failure

    def add_delay(self, method: str, seconds: float, times: int) -> None:
        """Queue a delay for the next call(s) of a method."""
        with self.lock:
            self._delays.setdefault(method, []).append([seconds, float(times)])

    def take_delay(self, method: str) -> float:
        """Consume one use of the first queued delay; 0 when none."""
        with self.lock:
            queue = self._delays.get(method, [])
            if not queue:
                return 0.0
            entry = queue[0]
            entry[1] -= 1
            if entry[1] <= 0:
                queue.pop(0)
            return entry[0]

    # -- response_url receiver and Socket Mode tickets -------------------------------

    def new_response_id(self) -> str:
        """Register a fresh response_url id."""
        with self.lock:
            rid = uuid.uuid4().hex
            self._responses[rid] = _Waitable()
            return rid

    def add_response(self, rid: str, body: JsonDict) -> bool:
        """Record a JSON body POSTed to a response_url; False when the id is unknown."""
        with self.lock:
            if rid not in self._responses:
                return False
            self._responses[rid].items.append(copy.deepcopy(body))
            self.changed.notify_all()
            return True

    def responses(self, rid: str | None) -> list[JsonDict]:
        """Bodies posted to one response_url, or to all of them in arrival order."""
        with self.lock:
            if rid is not None:
                return copy.deepcopy(self._responses[rid].items)
            return [copy.deepcopy(b) for w in self._responses.values() for b in w.items]

    def wait_for(self, predicate: Any, timeout: float) -> bool:
        """Block until predicate() (evaluated under the lock) is true, or time runs out."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self.changed.wait(remaining)
            return True

    def issue_ticket(self) -> str:
        """A Socket Mode connection ticket, as apps.connections.open hands out."""
        with self.lock:
            ticket = uuid.uuid4().hex
            self._tickets.add(ticket)
            return ticket

    def ticket_known(self, ticket: str) -> bool:
        """Whether apps.connections.open issued this ticket."""
        with self.lock:
            return ticket in self._tickets
