"""The sources' settings: where arXiv's announcement feeds are read, whether a watch may
reach a private address, and how often the reader looks for due watches. Read by
bot.config.settings from the values it gathered; frozen."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from bot.config.values import seconds

SOURCES_VARIABLES: dict[str, str] = {
    "PAPERCLUB_ARXIV_FEED_URL": "arXiv's announcement feeds (default https://rss.arxiv.org).",
    "PAPERCLUB_SOURCES_PRIVATE": "1: watches may read loopback or private addresses (tests).",
    "PAPERCLUB_SOURCES_POLL": "Seconds between looks for due watches (default 60).",
}
_GetFn = Callable[[str], "str | None"]
_YES, _NO = frozenset({"1", "true", "yes", "on"}), frozenset({"0", "false", "no", "off", ""})
DEFAULT_ARXIV_FEED = "https://rss.arxiv.org"


@dataclass(frozen=True, slots=True)
class SourcesSettings:
    """Where and how watches are read. `allow_private`: off, a watch's feed may not make the
    bot request a loopback, link-local or private address (an intranet, a cloud's metadata
    service); `poll`: seconds between looks (a source is still read once a cycle)."""

    arxiv_feed_url: str = DEFAULT_ARXIV_FEED
    allow_private: bool = False
    poll: float = 60.0


def sources_settings(*, get: _GetFn, error: type[ValueError]) -> SourcesSettings:
    """The sources' settings, checked, raising `error` (settings.ConfigError) naming the
    variable."""
    url = (get("PAPERCLUB_ARXIV_FEED_URL") or DEFAULT_ARXIV_FEED).rstrip("/")
    if not re.match(r"^https?://[^\s/]+", url):
        raise error(f"PAPERCLUB_ARXIV_FEED_URL must be an http(s) URL, got {url!r}.")
    private = (get("PAPERCLUB_SOURCES_PRIVATE") or "0").strip().lower()
    if private not in _YES | _NO:
        raise error(f"PAPERCLUB_SOURCES_PRIVATE must be 1 or 0, got {private!r}.")
    poll_text = get("PAPERCLUB_SOURCES_POLL") or "60"
    poll = seconds(name="PAPERCLUB_SOURCES_POLL", text=poll_text, low=1, high=86_400)
    return SourcesSettings(arxiv_feed_url=url, allow_private=private in _YES, poll=poll)
