"""The web archive's settings: its own port outside HTTP mode, the workspace it shows, and the
sign-in key and public address of signed links. Read by bot.config.settings from the values it
gathered; frozen."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

WEB_VARIABLES: dict[str, str] = {
    "PAPERCLUB_WEB_PORT": "Port of the web archive in Socket Mode and console (unset: none).",
    "PAPERCLUB_WEB_WORKSPACE": "Workspace shown, e.g. slack:T0123 (default: the only one).",
    "PAPERCLUB_WEB_SIGNIN_KEY": "Key signing /paperclub web links; set: the archive needs one.",
    "PAPERCLUB_WEB_URL": "Public address of the archive, for signed links (https://host/archive).",
    "PAPERCLUB_TRUST_PROXY": "1: believe X-Forwarded-Proto (a TLS proxy in front sets it).",
}
_GetFn = Callable[[str], "str | None"]
_YES, _NO = frozenset({"1", "true", "yes", "on"}), frozenset({"0", "false", "no", "off", ""})
MIN_KEY = 16  # shorter keys are guessable; a sign-in link must not be forged


@dataclass(frozen=True, slots=True)
class WebSettings:
    """The archive's settings; `signin_key` None: no sign-in (listen on loopback instead)."""

    port: int | None = None
    workspace: str | None = None
    signin_key: bytes | None = field(default=None, repr=False)
    url: str = ""
    # How long a signed link works: long enough for a reading session, short enough that a
    # forwarded link soon stops working.
    link_minutes: int = 60
    # A TLS-terminating proxy sets X-Forwarded-Proto: believed only when the operator says one
    # is in front (anyone else could send the header); it makes the sign-in cookie Secure.
    trust_proxy: bool = False


def web_settings(*, get: _GetFn, error: type[ValueError]) -> WebSettings:
    """The archive's settings, checked, raising `error` (settings.ConfigError) naming the
    variable."""
    port_text = get("PAPERCLUB_WEB_PORT")
    if port_text is not None and not (port_text.isdigit() and int(port_text) < 65536):
        raise error(f"PAPERCLUB_WEB_PORT must be a port number, got {port_text!r}.")
    key = get("PAPERCLUB_WEB_SIGNIN_KEY")
    if key is not None and len(key) < MIN_KEY:
        raise error(f"PAPERCLUB_WEB_SIGNIN_KEY must be at least {MIN_KEY} characters.")
    url = (get("PAPERCLUB_WEB_URL") or "").rstrip("/")
    if url and not re.match(r"^https?://[^\s/]+", url):
        raise error(f"PAPERCLUB_WEB_URL must be an http(s) URL, got {url!r}.")
    trust_text = (get("PAPERCLUB_TRUST_PROXY") or "0").strip().lower()
    if trust_text not in _YES | _NO:
        raise error(f"PAPERCLUB_TRUST_PROXY must be 1 or 0, got {trust_text!r}.")
    return WebSettings(
        port=None if port_text is None else int(port_text),
        workspace=get("PAPERCLUB_WEB_WORKSPACE"),
        signin_key=key.encode() if key else None,
        url=url,
        trust_proxy=trust_text in _YES,
    )
