"""Whether the semantic extra is used: on by default wherever it is installed, or turned off
(keyword search alone, no related papers, queue order only). Read by bot.config."""

from __future__ import annotations

from collections.abc import Callable

SEMANTIC_VARIABLES: dict[str, str] = {
    "PAPERCLUB_SEMANTIC": "auto (default): meaning in search, related papers, taste when "
    "paperclub[semantic] is installed; off: keyword only.",
}
_GetFn = Callable[[str], "str | None"]


def semantic_enabled(*, get: _GetFn, error: type[ValueError]) -> bool:
    """True unless PAPERCLUB_SEMANTIC is off; anything but auto or off names the variable."""
    text = (get("PAPERCLUB_SEMANTIC") or "auto").lower()
    if text not in ("auto", "off"):
        raise error(f"PAPERCLUB_SEMANTIC must be auto or off, got {text!r}.")
    return text == "auto"
