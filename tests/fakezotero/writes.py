"""The fake Zotero's writes: a multi-object POST (the library version precondition, then each
object by Library.write_one, reported as successful/success/unchanged/failed) and a
single-object PATCH, PUT or DELETE under its version (428 without one, 412 when stale)."""

from __future__ import annotations

import json
from typing import Any

from .library import KINDS, Library, WriteError
from .listing import envelope
from .server import Answer, text

WRITE_MAX = 50  # objects in one POST


def multi_write(
    *, library: Library, kind: str, h: dict[str, str], body: bytes, base: str
) -> Answer:
    """A POST of up to WRITE_MAX objects (the write token is checked by the caller)."""
    header = h.get("if-unmodified-since-version")
    if header is not None and int(header) != library.version:
        return Answer(
            412,
            (
                f"Library has been modified since specified version "
                f"(expected {header}, found {library.version})"
            ).encode(),
            {"Content-Type": "text/plain", "Last-Modified-Version": str(library.version)},
        )
    try:
        objects = json.loads(body)
    except ValueError:
        return text(status=400, message="Invalid JSON")
    if not isinstance(objects, list):
        return text(status=400, message="Uploaded data must be a JSON array")
    if len(objects) > WRITE_MAX:
        return text(
            status=413, message=f"Only {WRITE_MAX} objects can be saved in a single request"
        )
    report: dict[str, dict[str, Any]] = {
        "successful": {},
        "success": {},
        "unchanged": {},
        "failed": {},
    }
    nxt, changed = library.version + 1, False
    for index, one in enumerate(objects):
        slot = str(index)
        try:
            if not isinstance(one, dict):
                raise WriteError(
                    400, "Invalid value for index 0 in uploaded data; expected JSON object"
                )
            outcome = library.write_one(
                kind=kind, data=one, keyed_needs_version=header is None, next_version=nxt
            )
        except WriteError as refused:
            report["failed"][slot] = {
                "key": one.get("key", "") if isinstance(one, dict) else "",
                "code": refused.code,
                "message": refused.message,
            }
            continue
        if outcome == "unchanged":
            report["unchanged"][slot] = one["key"]
            continue
        changed = True
        report["success"][slot] = one["key"]
        report["successful"][slot] = envelope(
            library=library, kind=kind, data=library.objects[kind][one["key"]], base=base
        )
    if changed:
        library.version = nxt
    headers = {
        "Content-Type": "application/json",
        "Last-Modified-Version": str(library.version),
    }
    return Answer(200, json.dumps(report).encode(), headers)


def single_write(
    *, method: str, library: Library, kind: str, key: str, h: dict[str, str], body: bytes
) -> Answer:
    """PATCH, PUT or DELETE of one object, needing its current version."""
    current = library.get(kind=kind, key=key)
    name = KINDS[kind]
    data: dict[str, Any] = {}
    if method in ("PATCH", "PUT"):
        try:
            data = json.loads(body)
        except ValueError:
            return text(status=400, message="Invalid JSON")
        if not isinstance(data, dict):
            return text(status=400, message="Uploaded data must be a JSON object")
    given = h.get("if-unmodified-since-version") or data.get("version")
    if current is None:
        return text(status=404, message=f"{name} doesn't exist")
    if given is None:
        return text(status=428, message="If-Unmodified-Since-Version not provided")
    if int(given) != current["version"]:
        return Answer(
            412,
            (
                f"{name} has been modified since specified version "
                f"(expected {given}, found {current['version']})"
            ).encode(),
            {"Content-Type": "text/plain", "Last-Modified-Version": str(current["version"])},
        )
    try:
        if method == "DELETE":
            library.delete(kind=kind, key=key)
        else:
            library.replace(kind=kind, key=key, data=data, patch=method == "PATCH")
    except WriteError as refused:
        return text(status=refused.code, message=refused.message)
    return Answer(204, b"", {"Last-Modified-Version": str(library.version)})
