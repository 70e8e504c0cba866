"""The archive's sign-in signer from the settings; free of Flask, so the wiring can install it
for `/paperclub web` without loading the web stack."""

from __future__ import annotations

import ipaddress

from bot.config.settings import Settings
from bot.services.web_links import Signer

PREFIX = "/archive"  # where the process's HTTP server serves the archive


def signer(*, settings: Settings) -> Signer | None:
    """The sign-in links' signer when a key is set; its links point at PAPERCLUB_WEB_URL, else
    at where this process serves the archive (its own port, or /archive)."""
    web = settings.web
    if web.signin_key is None:
        return None
    own = f"http://{settings.http_host}:{web.port}" if web.port else None
    base = web.url or own or f"http://{settings.http_host}:{settings.http_port}{PREFIX}"
    return Signer(key=web.signin_key, base=base, minutes=web.link_minutes)


class Exposed(Exception):
    """The archive would answer beyond this machine with no sign-in asked."""


def exposure(*, host: str, settings: Settings) -> str | None:
    """Why the archive may not listen on `host`, or None: a deployment listens on loopback only
    or asks for a sign-in link (the image listens on 0.0.0.0)."""
    if settings.web.signin_key is not None or host == "localhost":
        return None
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        pass  # a host name: it may resolve beyond this machine
    return (
        f"the web archive would listen on {host} with no sign-in; set PAPERCLUB_WEB_SIGNIN_KEY "
        "(the bot then hands out sign-in links) or listen on 127.0.0.1"
    )
