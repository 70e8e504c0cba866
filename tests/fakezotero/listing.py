"""How the fake Zotero writes what it reads out: an object's JSON envelope (key, version,
library, links, meta, data, as in the documented and captured answers in samples/), and a
listing's page with `Total-Results`, `Link` and `Last-Modified-Version`.

The Link header follows dataserver's Zotero_API::buildLinkHeader: first (when not this page),
prev, next, last (when not this page), then alternate, each `<url>; rel="name"`.
"""

from __future__ import annotations

import copy
import json
from typing import Any
from urllib.parse import urlencode, urlsplit

from .library import Library
from .server import Answer, text

LIMIT_DEFAULT = 25
LIMIT_MAX = 100
WEB = "https://www.zotero.org"


def _library_json(*, library: Library) -> dict[str, Any]:
    slug = f"{library.type}{library.id}" if library.kind == "users" else f"groups/{library.id}"
    return {
        "type": library.type,
        "id": library.id,
        "name": library.name,
        "links": {"alternate": {"href": f"{WEB}/{slug}", "type": "text/html"}},
    }


def _creator_summary(*, creators: list[dict[str, Any]]) -> str:
    """The meta.creatorSummary: "A", "A and B", "A et al." by last names."""
    names = [c.get("lastName") or c.get("name", "") for c in creators]
    if not names:
        return ""
    if len(names) == 1:
        return str(names[0])
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]} et al."


def envelope(*, library: Library, kind: str, data: dict[str, Any], base: str) -> dict[str, Any]:
    """One object as the API sends it in format=json."""
    key = data["key"]
    prefix = f"{base}/{library.kind}/{library.id}"
    links: dict[str, Any] = {
        "self": {"href": f"{prefix}/{kind}/{key}", "type": "application/json"},
        "alternate": {
            "href": f"{WEB}/{library.kind}/{library.id}/{kind}/{key}",
            "type": "text/html",
        },
    }
    meta: dict[str, Any]
    if kind == "collections":
        count = sum(key in i.get("collections", []) for i in library.live(kind="items"))
        subs = sum(c.get("parentCollection") == key for c in library.live(kind="collections"))
        meta = {"numCollections": subs, "numItems": count}
    elif data.get("itemType") == "note":
        meta = {"numChildren": 0}
        if data.get("parentItem"):
            links["up"] = {
                "href": f"{prefix}/items/{data['parentItem']}",
                "type": "application/json",
            }
    else:
        meta = {
            "creatorSummary": _creator_summary(creators=data.get("creators", [])),
            "numChildren": len(library.children(key=key)),
        }
        if data.get("date"):
            meta["parsedDate"] = str(data["date"])[:10]
    return {
        "key": key,
        "version": data["version"],
        "library": _library_json(library=library),
        "links": links,
        "meta": meta,
        "data": copy.deepcopy(data),
    }


def _link_header(*, url: str, params: dict[str, str], start: int, limit: int, total: int) -> str:
    """first/prev/next/last/alternate as dataserver builds them."""

    def at(offset: int) -> str:
        query = {k: v for k, v in params.items() if k not in ("start", "key")}
        if offset:
            query["start"] = str(offset)
        return f"{url}?{urlencode(query)}" if query else url

    last = max(0, (total - 1) // limit * limit)
    parts: list[str] = []
    if start != 0:
        parts.append(f'<{at(0)}>; rel="first"')
        parts.append(f'<{at(max(0, start - limit))}>; rel="prev"')
    if start + limit < total:
        parts.append(f'<{at(start + limit)}>; rel="next"')
    if last != start:
        parts.append(f'<{at(last)}>; rel="last"')
    parts.append(f'<{WEB}{urlsplit(url).path}>; rel="alternate"')
    return ", ".join(parts)


def page_answer(
    *,
    library: Library,
    kind: str,
    params: dict[str, str],
    base: str,
    h: dict[str, str],
    path: str,
    only: set[str] | None,
) -> Answer:
    """One page of a listing (items, collections, a collection's items, an item's children)."""
    since_ok = str(library.version)
    if (asked := h.get("if-modified-since-version")) is not None and int(asked) >= library.version:
        return Answer(304, b"", {"Last-Modified-Version": since_ok})
    fmt = params.get("format", "json")
    try:
        since = int(params.get("since", "0"))
        start = int(params.get("start", "0"))
        limit = min(int(params.get("limit", str(LIMIT_DEFAULT))), LIMIT_MAX)
    except ValueError:
        return text(status=400, message="Invalid parameter")
    found = [d for d in library.live(kind=kind) if d["version"] > since]
    if only is not None:
        found = [d for d in found if d["key"] in only]
    if path.endswith("/top"):
        found = [d for d in found if not d.get("parentItem")]
    if "itemKey" in params and kind == "items":
        keys = set(params["itemKey"].split(","))
        found = [d for d in found if d["key"] in keys]
    if "collectionKey" in params and kind == "collections":
        keys = set(params["collectionKey"].split(","))
        found = [d for d in found if d["key"] in keys]
    found.sort(key=lambda d: (-d["version"], d["key"]))
    headers = {"Last-Modified-Version": since_ok, "Content-Type": "application/json"}
    if fmt == "versions":  # every match, no paging (as the real server for format=versions)
        return Answer(200, json.dumps({d["key"]: d["version"] for d in found}).encode(), headers)
    page = found if fmt == "keys" else found[start : start + limit]
    if fmt == "keys":
        headers["Content-Type"] = "text/plain"
        return Answer(200, "".join(f"{d['key']}\n" for d in page).encode(), headers)
    headers["Total-Results"] = str(len(found))
    headers["Link"] = _link_header(
        url=f"{base}{path}", params=params, start=start, limit=limit, total=len(found)
    )
    body = [envelope(library=library, kind=kind, data=d, base=base) for d in page]
    return Answer(200, json.dumps(body).encode(), headers)


def single_answer(*, library: Library, kind: str, key: str, base: str, h: dict[str, str]) -> Answer:
    """One object; its own version in Last-Modified-Version (304 when not newer)."""
    data = library.objects[kind][key]
    version = str(data["version"])
    if (asked := h.get("if-modified-since-version")) is not None and int(asked) >= data["version"]:
        return Answer(304, b"", {"Last-Modified-Version": version})
    body = envelope(library=library, kind=kind, data=data, base=base)
    headers = {"Last-Modified-Version": version, "Content-Type": "application/json"}
    return Answer(200, json.dumps(body).encode(), headers)
