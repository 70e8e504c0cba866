"""Which thread messages are a person's comments: one rule for the live listener
(listeners/messages.py) and the read-back (readback.py), so both store the same replies."""

from __future__ import annotations

from typing import Any

# Subtypes that are a person's words in a thread (a broadcast reply is still a reply).
REPLY_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})


def by_a_person(message: dict[str, Any]) -> bool:
    """Bots' messages (ours included) are not comments."""
    return bool(message.get("user")) and not message.get("bot_id")
