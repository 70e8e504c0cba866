"""Reading a whole listing: pages of at most 100 objects, followed by the `Link` header's
rel="next" until there is none, the library version checked the same on every page (a write
between two pages would shift the offsets: the listing is read again from the start)."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.zotero.errors import Missing, ZoteroError
from bot.zotero.session import ZoteroSession
from bot.zotero.transport import Reply

PAGE_LIMIT = 100  # the API's maximum `limit`
RESTARTS = 3  # readings of a listing that keeps changing before giving up
PAGES_MAX = 10_000  # a million objects: beyond it a Link loop, not a library
_LINK = re.compile(r'<([^>]*)>\s*;\s*rel="?([a-z]+)"?')


def links(*, header: str | None) -> dict[str, str]:
    """A Link header's URLs by rel ("next", "last"...); {} when absent."""
    return {rel: url for url, rel in _LINK.findall(header or "")}


def version_of(*, reply: Reply) -> int:
    """The Last-Modified-Version of an answer; ZoteroError when missing (not Zotero)."""
    value = (reply.header("Last-Modified-Version") or "").strip()
    if not value.isdigit():
        raise ZoteroError(f"an answer without Last-Modified-Version (HTTP {reply.status})")
    return int(value)


def json_of(*, reply: Reply) -> Any:
    """The JSON body of an answer; ZoteroError when it is not JSON."""
    try:
        return json.loads(reply.body)
    except ValueError:
        raise ZoteroError(f"an answer that is not JSON (HTTP {reply.status})") from None


class _Moved(Exception):
    """The library version changed between two pages."""


def _pages(
    *, session: ZoteroSession, url: str, headers: dict[str, str]
) -> tuple[list[dict[str, Any]], int] | None:
    """Every object of one reading and its version; None for 304 Not Modified."""
    found: list[dict[str, Any]] = []
    version: int | None = None
    current: str | None = url
    for _ in range(PAGES_MAX):
        if current is None:
            break
        reply = session.send(method="GET", url=current, headers=headers if version is None else {})
        if reply.status == 304:
            return None
        if reply.status == 404:
            raise Missing(f"no longer in Zotero: {current.split('?')[0][-120:]}")
        if reply.status != 200:
            raise ZoteroError(f"reading a listing: HTTP {reply.status}")
        seen = version_of(reply=reply)
        if version is not None and seen != version:
            raise _Moved
        version = seen
        page = json_of(reply=reply)
        if not isinstance(page, list):
            raise ZoteroError("a listing that is not a JSON array")
        found += [one for one in page if isinstance(one, dict)]
        nxt = links(header=reply.header("Link")).get("next")
        if nxt is not None and not session.owns(url=nxt):
            raise ZoteroError("a Link header pointing outside the API: not followed")
        current = nxt
    else:
        raise ZoteroError(f"a listing of more than {PAGES_MAX} pages")
    return found, version if version is not None else 0


def read_all(
    *, session: ZoteroSession, url: str, if_modified_since: int | None = None
) -> tuple[list[dict[str, Any]], int] | None:
    """Every object of a listing (url with its own query, `limit` included) and the library
    version read; None when `if_modified_since` is the current version (304)."""
    headers = {}
    if if_modified_since is not None:
        headers["If-Modified-Since-Version"] = str(if_modified_since)
    for _ in range(RESTARTS):
        try:
            return _pages(session=session, url=url, headers=headers)
        except _Moved:
            continue
    raise ZoteroError(f"the library kept changing while it was read ({RESTARTS} tries)")
