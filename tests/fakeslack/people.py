"""What people do on Slack whether or not the bot is connected: react, reply in a thread, edit,
delete. Each act changes the workspace's state at once and is delivered to the app as Slack's
Events API would: over an open Socket Mode connection, else to the Request URL (HTTP mode,
signed, retried up to 3 times at once as Slack's retry policy allows), else never: Slack keeps
no event for a connection that opens later.
"""

from __future__ import annotations

import copy
import urllib.error
from dataclasses import dataclass

from .model import JsonDict
from .payloads import (
    event_envelope_payload,
    message_changed_event,
    message_deleted_event,
    message_event,
    new_event_id,
    reaction_event,
)
from .signing import event_body, signed_request
from .socket_mode import SocketModeServer
from .state import Workspace

HTTP_RETRIES = 3


@dataclass(frozen=True)
class Act:
    """What one act did: the message's ts, and how its event went (`via` "socket_mode",
    "http" or None when it was dropped; `delivery` the envelope id or the event id)."""

    ts: str
    event_id: str
    via: str | None
    delivery: str | None


class People:
    """The people of one workspace acting on it (fake.people for the default one)."""

    def __init__(self, ws: Workspace, socket_mode: SocketModeServer | None) -> None:
        self._ws = ws
        self._socket_mode = socket_mode
        self._request_url: tuple[str, str] | None = None

    def deliver_to(self, url: str | None, signing_secret: str = "") -> None:
        """The app's Request URL for events (HTTP mode); None: no endpoint."""
        self._request_url = (url, signing_secret) if url else None

    # -- acts ----------------------------------------------------------------------------

    def react(self, user: str, channel: str, ts: str, name: str) -> Act | None:
        """`user` adds reaction `name` (e.g. "+1::skin-tone-2") to a message; None when they
        already had it (Slack sends no event then)."""
        with self._ws.lock:
            message = self._ws.get_message(channel, ts)
            reactions: list[JsonDict] = message.setdefault("reactions", [])
            entry = next((r for r in reactions if r["name"] == name), None)
            if entry is None:
                entry = {"name": name, "users": [], "count": 0}
                reactions.append(entry)
            if user in entry["users"]:
                return None
            entry["users"].append(user)
            entry["count"] = len(entry["users"])
            item_user = str(message.get("user", ""))
        event = reaction_event(
            user=user, reaction=name, channel=channel, item_ts=ts, item_user=item_user
        )
        return self._deliver(ts, event)

    def unreact(self, user: str, channel: str, ts: str, name: str) -> Act | None:
        """`user` removes their reaction `name`; None when they had none."""
        with self._ws.lock:
            message = self._ws.get_message(channel, ts)
            reactions: list[JsonDict] = message.get("reactions", [])
            entry = next((r for r in reactions if r["name"] == name), None)
            if entry is None or user not in entry["users"]:
                return None
            entry["users"].remove(user)
            entry["count"] = len(entry["users"])
            if not entry["users"]:
                reactions.remove(entry)
            item_user = str(message.get("user", ""))
        event = reaction_event(
            user=user,
            reaction=name,
            channel=channel,
            item_ts=ts,
            item_user=item_user,
            removed=True,
        )
        return self._deliver(ts, event)

    def reply(self, user: str, channel: str, thread_ts: str, text: str) -> Act:
        """`user` replies in the thread of `thread_ts`."""
        with self._ws.lock:
            parent = self._ws.get_message(channel, thread_ts)
            ts = self._ws.next_ts()
            event = message_event(
                channel=channel,
                user=user,
                text=text,
                ts=ts,
                thread_ts=thread_ts,
                parent_user_id=str(parent.get("user", "")),
                team=self._ws.team_id,
            )
            stored = {k: v for k, v in event.items() if k not in ("channel", "event_ts")}
            self._ws.store_message(channel, stored)
        return self._deliver(ts, event)

    def edit(self, channel: str, ts: str, text: str) -> Act:
        """The author edits their message to `text`."""
        with self._ws.lock:
            message = self._ws.get_message(channel, ts)
            previous = copy.deepcopy(message)
            event = message_changed_event(channel=channel, previous=previous, new_text=text)
            message["text"] = text
            message["edited"] = copy.deepcopy(event["message"]["edited"])
        return self._deliver(ts, event)

    def delete(self, channel: str, ts: str) -> Act:
        """The author deletes their message (a reply leaves its thread)."""
        with self._ws.lock:
            previous = self._ws.remove_message(channel, ts)
        return self._deliver(ts, message_deleted_event(channel=channel, previous=previous))

    # -- delivery -------------------------------------------------------------------------

    def _deliver(self, ts: str, event: JsonDict) -> Act:
        """Send the event where the app listens now, or drop it."""
        event_id = new_event_id()
        payload = event_envelope_payload(
            event,
            event_id=event_id,
            team_id=self._ws.team_id,
            api_app_id=self._ws.app_id,
            bot_user_id=self._ws.bot_user_id,
        )
        socket_mode = self._socket_mode
        if socket_mode is not None and socket_mode.open_connections:
            try:
                envelope = socket_mode.push("events_api", payload, timeout=1)
                return Act(ts, event_id, "socket_mode", envelope)
            except (ConnectionError, TimeoutError):
                pass  # the connection closed as it went out: Slack drops it too
        target = self._request_url
        if target is not None:
            for attempt in range(HTTP_RETRIES + 1):
                retry = (attempt, "http_error") if attempt else (None, None)
                body = event_body(payload, retry_num=retry[0], retry_reason=retry[1])
                try:
                    status, _ = signed_request(target[0], body, target[1], timeout=3)
                except (urllib.error.URLError, OSError):
                    continue
                if 200 <= status < 300:
                    return Act(ts, event_id, "http", event_id)
        return Act(ts, event_id, None, None)


__all__ = ["Act", "People"]
