"""What an event a test pushes by hand says happened, made true in the workspace's state: on
Slack an event reports a change already made, so the Web API (reactions.get,
conversations.replies) must show it too. Tests that push raw envelopes (bursts, retries,
faults) keep a state a read-back of the bot agrees with; `people` acts change state first and
need none of this. Applying an event twice changes nothing (redeliveries)."""

from __future__ import annotations

from typing import Any

from .model import JsonDict
from .state import Workspace


def witness(ws: Workspace, payload: JsonDict) -> None:
    """Apply an Events API payload's event to `ws`, where it names a known message."""
    event: dict[str, Any] = payload.get("event") or {}
    kind, channel = event.get("type"), str(event.get("channel", ""))
    with ws.lock:
        if kind in ("reaction_added", "reaction_removed"):
            item = event.get("item") or {}
            _reaction(ws, event, str(item.get("channel", "")), str(item.get("ts", "")))
        elif kind == "message" and not event.get("subtype") and event.get("thread_ts"):
            known = ws.find_message(channel, str(event.get("ts", ""))) is not None
            if not known and ws.find_message(channel, str(event["thread_ts"])) is not None:
                kept = {k: v for k, v in event.items() if k not in ("channel", "event_ts")}
                ws.store_message(channel, kept)
        elif kind == "message" and event.get("subtype") == "message_changed":
            changed = event.get("message") or {}
            found = ws.find_message(channel, str(changed.get("ts", "")))
            if found is not None:
                found["text"] = changed.get("text", found.get("text"))
        elif kind == "message" and event.get("subtype") == "message_deleted":
            ts = str(event.get("deleted_ts", ""))
            if ws.find_message(channel, ts) is not None:
                ws.remove_message(channel, ts)


def _reaction(ws: Workspace, event: dict[str, Any], channel: str, ts: str) -> None:
    """Add or take back one person's reaction on a known message."""
    message = ws.find_message(channel, ts)
    if message is None:
        return
    name, user = str(event.get("reaction", "")), str(event.get("user", ""))
    reactions: list[JsonDict] = message.setdefault("reactions", [])
    entry = next((r for r in reactions if r["name"] == name), None)
    if event.get("type") == "reaction_added":
        if entry is None:
            entry = {"name": name, "users": [], "count": 0}
            reactions.append(entry)
        if user not in entry["users"]:
            entry["users"].append(user)
    elif entry is not None and user in entry["users"]:
        entry["users"].remove(user)
    if entry is not None:
        entry["count"] = len(entry["users"])
        if not entry["users"]:
            reactions.remove(entry)
