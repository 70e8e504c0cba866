"""One setting's value read from its variable's text, or a ConfigError naming the variable."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

HOSTNAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$")


class ConfigError(ValueError):
    """A setting is missing or malformed; the message names the variable."""


def listen_host(*, text: str) -> str:
    """An IP address (0.0.0.0 or :: for every interface) or a host name to listen on."""
    try:
        return str(ipaddress.ip_address(text.strip("[]")))
    except ValueError:
        if HOSTNAME.match(text):
            return text
    raise ConfigError(
        f"PAPERCLUB_HTTP_HOST must be an address like 127.0.0.1 or 0.0.0.0, got {text!r}."
    )


def contact(*, text: str | None) -> str:
    """An email address (for a User-Agent and Crossref's mailto), or ""."""
    if text and not re.fullmatch(r"[^@\s()<>;,]+@[^@\s()<>;,]+\.[A-Za-z]{2,}", text):
        raise ConfigError(f"PAPERCLUB_CONTACT must be an email address, got {text!r}.")
    return text or ""


def http_url(*, name: str, text: str) -> str:
    """An http(s) URL, or a ConfigError naming the variable."""
    if not re.match(r"^https?://[^\s/]+", text):
        raise ConfigError(f"{name} must be an http(s) URL, got {text!r}.")
    return text


def seconds(*, name: str, text: str, low: float, high: float) -> float:
    """A number of seconds from `low` to `high`, or a ConfigError naming the variable."""
    try:
        value = float(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ConfigError(f"{name} must be seconds ({low:g}-{high:g}), got {text!r}.")
    return value


def reactions(*, name: str, text: str) -> frozenset[str]:
    """Reaction names, with or without colons: `+1,thumbsup` or `:+1:, :thumbsup:`."""
    names = frozenset(part.strip().strip(":") for part in text.split(",") if part.strip(":, "))
    bad = [n for n in names if not re.fullmatch(r"[a-z0-9_+\-']+", n)]
    if not names or bad:
        raise ConfigError(f"{name} must be reaction names like +1,thumbsup, got {text!r}.")
    return names


def database_url(*, text: str | None, cwd: Path) -> str:
    """Default to paperclub.db in the working directory, made absolute so chdir can't move it."""
    if not text:
        return f"sqlite:///{cwd / 'paperclub.db'}"
    if "://" not in text:
        raise ConfigError(
            "PAPERCLUB_DATABASE_URL must be a URL like sqlite:///paperclub.db or "
            f"postgresql+psycopg://user@host/db, got {text!r}."
        )
    if text.startswith(("postgres://", "postgresql://")):
        # Hosting providers hand out these; psycopg 3 is the driver we ship.
        text = "postgresql+psycopg://" + text.split("://", 1)[1]
    return text
