"""Zotero's settings: where its Web API is asked (tests point it at a fake) and how often the
links are synced. Read by bot.config.settings from the values it gathered; frozen. A Zotero key
is kept only sealed, with PAPERCLUB_SECRET_KEY (Settings.secret_keys)."""

from __future__ import annotations

import re
from collections.abc import Callable

ZOTERO_VARIABLES: dict[str, str] = {
    "PAPERCLUB_ZOTERO_API_URL": "Zotero's Web API (default https://api.zotero.org).",
    "PAPERCLUB_ZOTERO_SYNC": "Seconds between Zotero syncs of each linked channel (default 300).",
}
DEFAULT_ZOTERO_API = "https://api.zotero.org"
DEFAULT_SYNC_SECONDS = 300.0  # a vote shows in Zotero within five minutes; a quiet library
# answers 304 (Zotero asks clients to poll no more than they need).
_GetFn = Callable[[str], "str | None"]


def zotero_settings(*, get: _GetFn, error: type[ValueError]) -> tuple[str, float]:
    """The API's base URL and the seconds between syncs, checked, raising `error` naming the
    variable."""
    url = (get("PAPERCLUB_ZOTERO_API_URL") or DEFAULT_ZOTERO_API).rstrip("/")
    if not re.match(r"^https?://[^\s/]+", url):
        raise error(f"PAPERCLUB_ZOTERO_API_URL must be an http(s) URL, got {url!r}.")
    text = get("PAPERCLUB_ZOTERO_SYNC") or str(DEFAULT_SYNC_SECONDS)
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 1 <= seconds <= 86_400:
        raise error(f"PAPERCLUB_ZOTERO_SYNC must be seconds (1-86400), got {text!r}.")
    return url, seconds
