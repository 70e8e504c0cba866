"""FakeZotero: the Zotero Web API v3 on 127.0.0.1, shaped as the real server answers.

Keys (`add_key`, `revoke`), user and group libraries (`library`), `/keys/current`; item and
collection reads with `since`, `format=json|versions|keys`, `itemKey`, paging by `start`/`limit`
(100 at most, 25 by default) with `Total-Results` and a `Link` header, `If-Modified-Since-Version`
(304); multi-object POST (50 at most) with `Zotero-Write-Token` (5-32 characters, remembered 12
hours per key: a reuse is 412 "Write token already used", a failed request stores nothing) and
`If-Unmodified-Since-Version` (412 when stale); single-object PATCH/PUT/DELETE needing a version
(428 without, 412 when stale); `/deleted?since=`. Every answer carries `Zotero-API-Version: 3`,
every library answer `Last-Modified-Version`. Errors are plain text, as dataserver sends them.

Not modelled: searches, tags endpoints, attachments and files, sorting other than the default
(newest version first, standing in for dateModified descending), full-text, groups metadata.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from .library import KINDS, Library
from .listing import page_answer, single_answer
from .server import Answer, ZoteroServer, text
from .writes import multi_write, single_write

TOKEN_LIFE_S = 43_200  # dataserver's $writeTokenCacheTime: 12 hours

_PATH = re.compile(
    r"^/(?P<kind>users|groups)/(?P<id>\d+)/(?P<what>items|collections|deleted)"
    r"(?:/(?P<key>[A-Z0-9]{8}))?(?:/(?P<sub>items|children|top))?(?:/(?P<top>top))?$"
)


@dataclass
class Grant:
    """What an API key may do: its user's library, and groups by id (read, write)."""

    key: str
    user_id: int
    username: str
    write: bool = True
    groups: dict[int, bool] | None = None  # None: every group, as "all" in the access JSON
    revoked: bool = False
    # "Allow notes access" of the user's library. Without it the server hides the library's
    # notes from the key: left out of listings, 404 for one (dataserver PermissionsTest's
    # testKeyNoteAccess, ItemsController). A group's access covers its notes (Zotero_Key::load).
    notes: bool = True


class FakeZotero(ZoteroServer):
    """The fake API (see the module). `clock` dates the write tokens (monotonic seconds)."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.grants: dict[str, Grant] = {}
        self.libraries: dict[tuple[str, int], Library] = {}
        self._tokens: dict[tuple[str, str], float] = {}
        self._state = threading.Lock()  # one request changes the libraries at a time

    def add_key(
        self,
        *,
        key: str,
        user_id: int,
        write: bool = True,
        groups: dict[int, bool] | None = None,
        notes: bool = True,
    ) -> Grant:
        """An API key for `user_id`'s library (and groups: None for all)."""
        grant = Grant(key, user_id, f"user{user_id}", write, groups, notes=notes)
        self.grants[key] = grant
        self.library(kind="users", id=user_id)
        return grant

    def revoke(self, *, key: str) -> None:
        """The key stops working: every request with it is 403 "Invalid key"."""
        self.grants[key].revoked = True

    def forget_write_tokens(self) -> None:
        """Forget the write tokens used: as the real server's check lets through a request
        that started before the token's first request committed (read at request start,
        stored after commit), the next reuse is not refused."""
        with self._state:
            self._tokens.clear()

    def library(self, *, kind: str, id: int) -> Library:
        """The library /`kind`/`id` (made empty on first use)."""
        found = self.libraries.get((kind, id))
        if found is None:
            found = self.libraries[(kind, id)] = Library(kind, id, f"{kind[:-1]} {id}")
        return found

    def seed(self, *, kind: str, id: int, objects: str, data: list[dict[str, Any]]) -> int:
        """Store objects as one write would (as if another client added them); the version."""
        library = self.library(kind=kind, id=id)
        with self._state:
            nxt = library.version + 1
            for one in data:
                library.write_one(
                    kind=objects, data=dict(one), keyed_needs_version=False, next_version=nxt
                )
            library.version = nxt
        return nxt

    # -- answering ----------------------------------------------------------------------------

    def answer(
        self, *, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> Answer:
        """Authenticate, route, answer."""
        params = {k: v[-1] for k, v in parse_qs(query).items()}
        lower = {k.lower(): v for k, v in headers.items()}
        bearer = lower.get("authorization", "")
        key = lower.get("zotero-api-key") or params.get("key") or bearer.removeprefix("Bearer ")
        grant = self.grants.get(key) if key else None
        if key and (grant is None or grant.revoked):
            return text(status=403, message="Invalid key")
        if path == "/keys/current" and method == "GET":
            return self._key_info(grant=grant) if grant else text(status=403, message="Forbidden")
        match = _PATH.match(path)
        if match is None:
            return text(status=404, message="Not found")
        lib_key = (match["kind"], int(match["id"]))
        if grant is None or not self._may_read(grant=grant, lib=lib_key):
            return text(status=403, message="Forbidden")
        if method != "GET" and not self._may_write(grant=grant, lib=lib_key):
            return text(status=403, message="Write access denied")
        library = self.library(kind=lib_key[0], id=lib_key[1])
        hide_notes = lib_key[0] == "users" and not grant.notes
        with self._state:
            if hide_notes and self._is_note(library=library, match=match):
                return text(status=404, message="Not found")
            return self._route(
                method=method,
                library=library,
                match=match,
                params=params,
                h=lower,
                body=body,
                hide_notes=hide_notes,
            )

    @staticmethod
    def _is_note(*, library: Library, match: re.Match[str]) -> bool:
        """Whether the path names one note (any method: the server denies it exists)."""
        if match["what"] != "items" or match["key"] is None:
            return False
        found = library.get(kind="items", key=match["key"])
        return found is not None and found.get("itemType") == "note"

    def _may_read(self, *, grant: Grant, lib: tuple[str, int]) -> bool:
        if lib[0] == "users":
            return lib[1] == grant.user_id
        return grant.groups is None or lib[1] in grant.groups

    def _may_write(self, *, grant: Grant, lib: tuple[str, int]) -> bool:
        if lib[0] == "users":
            return grant.write
        return (grant.groups is None and grant.write) or bool((grant.groups or {}).get(lib[1]))

    def _key_info(self, *, grant: Grant) -> Answer:
        """The key's JSON as /keys/current sends it (dataserver KeysTest); a permission not
        granted is left out, as Zotero_Key::toJSON stores and shows only granted ones."""
        user = {"library": True, "files": True, "write": grant.write}
        if grant.notes:
            user["notes"] = True
        groups: dict[str, Any]
        if grant.groups is None:
            groups = {"all": {"library": True, "write": grant.write}}
        else:
            groups = {str(g): {"library": True, "write": w} for g, w in grant.groups.items()}
        info = {
            "key": grant.key,
            "userID": grant.user_id,
            "username": grant.username,
            "displayName": "",
            "access": {"user": user, "groups": groups},
        }
        return Answer(200, json.dumps(info).encode(), {"Content-Type": "application/json"})

    def _route(
        self,
        *,
        method: str,
        library: Library,
        match: re.Match[str],
        params: dict[str, str],
        h: dict[str, str],
        body: bytes,
        hide_notes: bool = False,
    ) -> Answer:
        what, key, sub = match["what"], match["key"], match["sub"]
        # Listings leave out what the key may not see (dataserver Zotero_Items::search).
        seen = (
            None
            if not hide_notes
            else {d["key"] for d in library.live(kind="items") if d.get("itemType") != "note"}
        )
        if what == "deleted":
            return self._deleted(library=library, params=params)
        if key is None:
            if method == "GET":
                return page_answer(
                    library=library,
                    kind=what,
                    params=params,
                    base=self.url,
                    h=h,
                    path=match.group(0),
                    only=seen if what == "items" else None,
                )
            if method == "POST":
                return self._post(library=library, kind=what, h=h, body=body)
            return text(status=405, message="Method not allowed")
        if sub is not None and method == "GET":
            if library.get(kind=what, key=key) is None:
                return text(status=404, message=f"{KINDS[what]} not found")
            if what == "collections" and sub == "items":
                wanted = {
                    d["key"] for d in library.live(kind="items") if key in d.get("collections", [])
                }
            elif what == "items" and sub == "children":
                wanted = {d["key"] for d in library.children(key=key)}
            else:
                return text(status=404, message="Not found")
            return page_answer(
                library=library,
                kind="items",
                params=params,
                base=self.url,
                h=h,
                path=match.group(0),
                only=wanted if seen is None else wanted & seen,
            )
        return self._single(method=method, library=library, kind=what, key=key, h=h, body=body)

    def _deleted(self, *, library: Library, params: dict[str, str]) -> Answer:
        """Keys deleted since a version (`since` required)."""
        if "since" not in params:
            return text(status=400, message="'since' parameter must be provided")
        since = int(params["since"])
        found = {
            kind: sorted(k for k, v in library.deleted[kind].items() if v > since)
            for kind in ("collections", "items")
        }
        found |= {"searches": [], "tags": [], "settings": []}
        headers = {
            "Content-Type": "application/json",
            "Last-Modified-Version": str(library.version),
        }
        return Answer(200, json.dumps(found).encode(), headers)

    def _post(self, *, library: Library, kind: str, h: dict[str, str], body: bytes) -> Answer:
        """A multi-object write: the token and library version checked, then each object."""
        token = h.get("zotero-write-token")
        grant_key = h.get("zotero-api-key") or h.get("authorization", "")
        if token is not None:
            if not 5 <= len(token) <= 32:
                return text(status=400, message="Write token must be 5-32 characters in length")
            stamp = self._tokens.get((grant_key, token))
            if stamp is not None and self.clock() - stamp < TOKEN_LIFE_S:
                return text(status=412, message="Write token already used")
        answer = multi_write(library=library, kind=kind, h=h, body=body, base=self.url)
        if answer.status == 200 and token is not None:
            self._tokens[(grant_key, token)] = self.clock()
        return answer

    def _single(
        self, *, method: str, library: Library, kind: str, key: str, h: dict[str, str], body: bytes
    ) -> Answer:
        """GET, PATCH, PUT or DELETE of one object."""
        current = library.get(kind=kind, key=key)
        name = KINDS[kind]
        if method == "GET":
            if current is None:
                return text(status=404, message=f"{name} not found")
            return single_answer(library=library, kind=kind, key=key, base=self.url, h=h)
        return single_write(method=method, library=library, kind=kind, key=key, h=h, body=body)
