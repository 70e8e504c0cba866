"""The one-line reason under a suggestion: why the ranking put it in the tray.

Titles and names are data, kept whole in their runs (each platform escapes and clips them);
only spaces are squashed, so a title of many lines stays on the reason's one line.
"""

from __future__ import annotations

from bot.messages import Run, Strong, runs
from bot.sources.rank import Reason

CLOSE = ("close to ", ", which the group voted up")
KEYWORD = "matches your keyword "
NEW = "newly announced"
MAX_SHOWN = 120  # characters of a title or name shown in the reason; the rest is "…"


def _shown(*, text: str) -> str:
    """`text` on one line, at most MAX_SHOWN characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_SHOWN else flat[: MAX_SHOWN - 1].rstrip() + "…"


def times(*, count: int) -> str:
    """'once', 'twice', '3 times'."""
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def reason_runs(*, reason: Reason) -> tuple[Run, ...]:
    """'close to *X*, which the group voted up', 'matches your keyword *pipeline*', 'new from
    *Ada Lovelace*, an author the group read twice' or 'newly announced'."""
    value = _shown(text=reason.value or "")
    if reason.kind == "close" and value:
        return runs(CLOSE[0], Strong(value), CLOSE[1])
    if reason.kind == "keyword" and value:
        return runs(KEYWORD, Strong(value))
    if reason.kind == "author" and value and reason.count > 0:
        return runs(
            "new from ", Strong(value), f", an author the group read {times(count=reason.count)}"
        )
    return runs(NEW)
