"""Button values too long for Discord's 100-unit custom ids, kept by their short key."""

from __future__ import annotations

import threading
from collections import OrderedDict

from bot.discord.render import value_key

KEPT = 10_000  # a search page's button each; the oldest keys go first


class ButtonKeys:
    """key -> value for the buttons this process sent; a click on an older one reads as stale."""

    def __init__(self, *, kept: int = KEPT) -> None:
        """An empty memory of at most `kept` values."""
        self._values: OrderedDict[str, str] = OrderedDict()
        self._kept = kept
        self._lock = threading.Lock()

    def key(self, *, value: str) -> str:
        """The short key for `value`, remembered (the render.Key protocol)."""
        key = value_key(value=value)
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self._kept:
                self._values.popitem(last=False)
        return key

    def value(self, *, carried: str) -> str | None:
        """What a button carried: the value itself, or the one its key stands for (None when
        the key is forgotten: a restart, or too many buttons since)."""
        if not carried.startswith("~"):
            return carried
        with self._lock:
            return self._values.get(carried)

    def forget(self) -> None:
        """Forget every key (what a restart does)."""
        with self._lock:
            self._values.clear()
