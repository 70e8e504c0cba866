"""Zotero's settings: where its Web API is asked (tests point it at a fake) and how often the
links are synced. Read by bot.config.settings from the values it gathered; frozen. A Zotero key
is kept only sealed, with PAPERCLUB_SECRET_KEY (Settings.secret_keys)."""

from __future__ import annotations

from collections.abc import Callable

from bot.config.values import http_url, seconds

ZOTERO_VARIABLES: dict[str, str] = {
    "PAPERCLUB_ZOTERO_API_URL": "Zotero's Web API (default https://api.zotero.org).",
    "PAPERCLUB_ZOTERO_SYNC": "Seconds between Zotero syncs of each linked channel (default 300).",
}
DEFAULT_ZOTERO_API = "https://api.zotero.org"
DEFAULT_SYNC_SECONDS = 300.0  # a vote shows in Zotero within five minutes; a quiet library
# answers 304 (Zotero asks clients to poll no more than they need).
_GetFn = Callable[[str], "str | None"]


def zotero_settings(*, get: _GetFn) -> tuple[str, float]:
    """The API's base URL and the seconds between syncs, checked (ConfigError naming the
    variable)."""
    name = "PAPERCLUB_ZOTERO_API_URL"
    url = http_url(name=name, text=(get(name) or DEFAULT_ZOTERO_API).rstrip("/"))
    text = get("PAPERCLUB_ZOTERO_SYNC") or str(DEFAULT_SYNC_SECONDS)
    return url, seconds(name="PAPERCLUB_ZOTERO_SYNC", text=text, low=1, high=86_400)
