"""The archive's sign-in signer from the settings; free of Flask, so the wiring can install it
for `/paperclub web` without loading the web stack."""

from __future__ import annotations

from bot.config import Settings
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
