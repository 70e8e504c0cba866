"""The links the bot makes on Discord, and which URLs it links at all.

A masked link `[label](url)` hides its target behind words, so it is made only to a URL that
is ours: arXiv abstract pages, doi.org, Discord message links (threads, posts), and the exact
URLs a caller vouches for (the daily post vouches for its paper's own URL, whose label is that
URL itself) unless they lead to Discord. Its label must name no other host: one naming another
is shown as data beside a "↗" link (our own URLs), or as for any other URL (vouched ones).
Any other http(s) URL is shown as its label then the URL itself in `<…>` (clickable, never
hidden, never unfurled into a preview); a Discord URL that is not ours (an invite) only as
inert text. Targets are always written `<url>`, which stops Discord's preview.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from urllib.parse import quote, urlsplit

from bot.discord.markdown import clean, data, escape, size, squash

URL_MAX = 512  # longer URLs are not linked: a description has room for a few links only
LABEL_MAX = 200  # units of escaped label: at least 100 characters a reader sees
LABEL_MIN = 80  # a label squeezed under this beside its URL is shown alone, without the link
ARROW = "↗"
# Host -> the path every URL of ours on it starts with (https only).
OURS = {"arxiv.org": "/abs/", "doi.org": "/", "discord.com": "/channels/"}

# Characters a URL keeps as they are; everything else (spaces, ( ) < > [ ] \ ` | " and
# non-ASCII) is %-encoded, so the URL can stand inside `(<…>)` and never ends it early.
_URL_SAFE = "!#$%&'*+,/:;=?@~"
# A URL's scheme and host, or a domain in words; not one inside a path or an address
# ("doi:10.1016/j.cell" names no domain).
_SCHEME_HOST = re.compile(r"[a-z][\w+.-]*://[^\s/?#<>|]*", re.IGNORECASE)
_DOMAIN = re.compile(r"(?<![\w/.@%-])((?:[\w-]+\.)+[a-z]{2,})(?![\w-])", re.IGNORECASE)
_RISK = re.compile(r"@(?=everyone|here)|:(?=//)", re.IGNORECASE)
_INVITE_DOT = re.compile(r"(?<=discord)\.|(?<=discordapp)\.", re.IGNORECASE)
_AUTHORITY_END = re.compile(r"[/?#]")


def safe_url(raw: str | None) -> str | None:
    """An http(s) URL %-encoded to stand in markdown; None when absent, another scheme, without
    a host or longer than URL_MAX."""
    if not raw or not (raw := clean(raw).strip()).lower().startswith(("http://", "https://")):
        return None
    url = quote(raw, safe=_URL_SAFE, errors="replace")
    scheme, _, rest = url.partition("://")
    # Discord's server reads pings, invites and URLs in raw text, a link's target included:
    # %-encoded, they mean the same to a browser and nothing to Discord. The host keeps its
    # dots (discord.com is where our own message links go).
    rest = _RISK.sub(_percent, rest)
    authority = _AUTHORITY_END.split(rest, maxsplit=1)[0]
    url = f"{scheme}://{authority}{_INVITE_DOT.sub(_percent, rest[len(authority) :])}"
    if len(url) > URL_MAX or not host_of(url):
        return None
    return url


def _percent(match: re.Match[str]) -> str:
    """A matched character %-encoded."""
    return f"%{ord(match.group(0)):02X}"


def host_of(url: str) -> str | None:
    """The host a URL points at (read as http when it has no scheme), lower-case; None if none."""
    try:
        return urlsplit(url if "://" in url else "http://" + url).hostname or None
    except ValueError:
        return None


def _within(host: str, site: str) -> bool:
    """Whether host is site or one of its subdomains."""
    return host == site or host.endswith("." + site)


def is_ours(*, url: str, vouched: Collection[str] = ()) -> bool:
    """Whether a safe URL is one the bot may hide behind a label (see the module docstring)."""
    if url in vouched:
        return True
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return False
    host = parts.hostname or ""
    prefix = OURS.get(host)
    return (
        parts.scheme == "https"
        and prefix is not None
        and port is None
        and not parts.username
        and parts.path.startswith(prefix)
    )


def names_elsewhere(*, label: str, url: str) -> bool:
    """Whether a label names a URL or a domain on another host than the URL's."""
    target = host_of(url)
    hosts = [host_of(m.group(0)) for m in _SCHEME_HOST.finditer(label)]
    hosts += [m.group(1).lower() for m in _DOMAIN.finditer(label)]
    return any(
        host is None or target is None or not (_within(host, target) or _within(target, host))
        for host in hosts
    )


def on_discord(*, url: str) -> bool:
    """Whether a URL goes to Discord itself (an invite, a gift, a message), or names it before
    its path ("https://x@discord.gg/…", "https://evildiscord.gg/…"): Discord's server finds an
    invite in such raw text whatever the real host is."""
    authority = _AUTHORITY_END.split(url.partition("://")[2], maxsplit=1)[0]
    return bool(_INVITE_DOT.search(authority))


def maskable(*, url: str, label: str, vouched: Collection[str] = ()) -> bool:
    """Whether a safe URL may be hidden behind a label: it is ours, or it is vouched for, leads
    away from Discord (no invite posing as a paper) and the label names no other host."""
    if is_ours(url=url):
        return True
    honest = not names_elsewhere(label=label, url=url) and not on_discord(url=url)
    return url in vouched and honest


def _shown(*, url: str) -> str:
    """A URL that is not ours, shown: `<url>`, or inert text for a Discord URL (an invite
    unfurls from the raw text even inside `<…>`)."""
    return escape(url) if on_discord(url=url) else f"<{url}>"


def _fits(*, label: str, room: int) -> bool:
    """Whether a label keeps enough of itself in `room` units beside its link: all of it, or
    LABEL_MIN units (else the reader is better served by the label alone)."""
    return room > 0 and room >= min(size(escape(label)), LABEL_MIN)


def link(*, url: str, label: str, limit: int, vouched: Collection[str] = ()) -> str:
    """A link within `limit` units: masked when ours, else the label and the URL shown; the
    label alone (as data) when there is no safe URL or too little room for both."""
    safe = safe_url(url)
    raw = squash(clean(label))
    if safe is None:
        return data(text=raw or url, limit=limit)
    if not maskable(url=safe, label=raw, vouched=vouched):
        shown = _shown(url=safe)
        if not raw or raw in (url, safe):
            return shown if size(shown) <= limit else data(text=raw or url, limit=limit)
        room = limit - size(shown) - 3
        if _fits(label=raw, room=room):
            return f"{data(text=raw, limit=room)} ({shown})"
        return data(text=raw, limit=limit)
    if names_elsewhere(label=raw, url=safe):
        room = min(LABEL_MAX, limit - size(safe) - 7 - len(ARROW))
        if _fits(label=raw, room=room):
            return f"{data(text=raw, limit=room)} [{ARROW}](<{safe}>)"
        return data(text=raw, limit=limit)
    room = min(LABEL_MAX, limit - size(safe) - 6)
    if _fits(label=raw or safe, room=room):
        return f"[{data(text=raw or safe, limit=room)}](<{safe}>)"
    return data(text=raw or safe, limit=limit)
