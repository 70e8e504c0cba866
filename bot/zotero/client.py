"""The Zotero operations Paper Club needs, on one library: check the key, read a collection's
items changed since a version, make a collection under a chosen key, create items (and child
notes) once, update and delete them under a version precondition.

Never twice: a create carries a Zotero-Write-Token and keys chosen before the first try, so
when a try's answer is lost and the replay is refused (412 "Write token already used", or the
object "already exists"), the objects are looked up by those keys instead of written again.
Never over someone's edit: updates and deletes send If-Unmodified-Since-Version; a 412 re-reads
the object and tries once more with its new version (a PATCH sends only our fields, so the
user's other edits stay).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

from bot.zotero.created import Created
from bot.zotero.errors import VersionConflict, WriteFailed, ZoteroError
from bot.zotero.mapping import collection_name
from bot.zotero.paging import PAGE_LIMIT, json_of, read_all, version_of
from bot.zotero.records import (
    Changes,
    KeyAccess,
    LibraryRef,
    is_object_key,
    new_object_key,
    new_write_token,
)
from bot.zotero.session import ZoteroSession

WRITE_MAX = 50  # objects in one write request (the API's limit)
_MAYBE_THERE = frozenset({412, 428})  # an object's failure when its key is already taken


@dataclass(frozen=True)
class ZoteroClient:
    """The operations, on `library`, through `session` (which holds the key and the pacing)."""

    session: ZoteroSession
    library: LibraryRef

    def _url(self, *, path: str, **query: str | int) -> str:
        suffix = f"?{urlencode(query)}" if query else ""
        return self.session.url(path=f"{self.library.prefix}{path}{suffix}")

    # -- reads --------------------------------------------------------------------------------

    def check_key(self) -> KeyAccess:
        """What the key may do (KeyRevoked when it no longer works)."""
        reply = self.session.send(method="GET", url=self.session.url(path="/keys/current"))
        info = json_of(reply=reply)
        if reply.status != 200 or not isinstance(info, dict) or "userID" not in info:
            raise ZoteroError(f"/keys/current answered HTTP {reply.status}")
        access = info.get("access") or {}
        user = access.get("user") or {}
        groups: dict[int, bool] = {}
        for name, grant in (access.get("groups") or {}).items():
            readable = isinstance(grant, dict) and grant.get("library")
            if readable and (name == "all" or str(name).isdigit()):
                groups[0 if name == "all" else int(name)] = bool(grant.get("write"))
        return KeyAccess(
            user_id=int(info["userID"]),
            username=str(info.get("username", "")),
            user_library=bool(user.get("library")),
            user_write=bool(user.get("write")),
            groups=groups,
            notes=bool(user.get("notes")),  # left out when not granted
        )

    def changed_items(self, *, since: int, collection: str | None = None) -> Changes:
        """Top-level items (of `collection`, or the whole library) changed after `since`: all
        pages; unchanged since then (304) gives no objects and `since` back."""
        where = (
            f"/collections/{quote(collection, safe='')}/items/top" if collection else "/items/top"
        )
        url = self._url(path=where, since=since, format="json", limit=PAGE_LIMIT)
        read = read_all(session=self.session, url=url, if_modified_since=since)
        if read is None:
            return Changes(objects=(), version=since)
        return Changes(objects=tuple(read[0]), version=read[1])

    def item(self, *, key: str) -> dict[str, Any] | None:
        """One item's full JSON, None when it does not exist (deleted)."""
        reply = self.session.send(method="GET", url=self._url(path=f"/items/{quote(key, safe='')}"))
        if reply.status == 404:
            return None
        if reply.status != 200:
            raise ZoteroError(f"reading item {key}: HTTP {reply.status}")
        found = json_of(reply=reply)
        if not isinstance(found, dict):
            raise ZoteroError("an item that is not a JSON object")
        return found

    def deleted_items(self, *, since: int) -> tuple[tuple[str, ...], int]:
        """Keys of the items deleted after `since` (from the trash or for good), and the
        library version: what a sync removes on its side."""
        reply = self.session.send(method="GET", url=self._url(path="/deleted", since=since))
        found = json_of(reply=reply)
        if reply.status != 200 or not isinstance(found, dict):
            raise ZoteroError(f"reading deletions: HTTP {reply.status}")
        keys = tuple(str(k) for k in found.get("items") or [])
        return keys, version_of(reply=reply)

    def _existing(self, *, keys: list[str]) -> tuple[dict[str, int], int]:
        """Which of these item keys exist, with their versions; and the library's version."""
        found: dict[str, int] = {}
        library = 0
        for start in range(0, len(keys), WRITE_MAX):  # itemKey takes 50 keys at most
            url = self._url(
                path="/items",
                itemKey=",".join(keys[start : start + WRITE_MAX]),
                format="versions",
                # A key taken by an item in the trash is taken all the same (its create is
                # refused 412): unseen, its post would be sent again every pass.
                includeTrashed=1,
            )
            reply = self.session.send(method="GET", url=url)
            versions = json_of(reply=reply)
            if reply.status != 200 or not isinstance(versions, dict):
                raise ZoteroError(f"looking items up: HTTP {reply.status}")
            found |= {str(k): int(v) for k, v in versions.items()}
            library = max(library, version_of(reply=reply))
        return found, library

    # -- collections --------------------------------------------------------------------------

    def make_collection(self, *, key: str, name: str) -> bool:
        """Make the collection `key` (chosen and kept by the caller first) called `name`, cut
        and cleaned as Zotero stores names (mapping.collection_name); whether it is there now.
        Once, even by two syncs at a time: the write token is derived from library and key,
        and a replay refused (412), or the key found taken (its object refused 412 or 428, or
        "exists": the server's token check is not atomic) is looked up by key. False when the
        token was used and nothing is under the key (made, then deleted in Zotero): the caller
        chooses another key. No look-up by name: two channels may name theirs alike."""
        seed = f"paperclub collection {self.library.prefix} {key}".encode()
        token = hashlib.sha256(seed).hexdigest()[:32]
        # Version 0: a new object under a chosen key (without it Zotero refuses a key-based
        # write, 428; with it, a key already taken is refused 412 instead of overwritten).
        body = [{"key": key, "version": 0, "name": collection_name(name=name)}]
        reply = self._post(path="/collections", objects=body, token=token)
        if reply.status == 200:
            report = json_of(reply=reply)
            if not isinstance(report, dict):
                raise ZoteroError("a write report that is not a JSON object")
            if any("0" in (report.get(part) or {}) for part in ("success", "unchanged")):
                return True
            failure = (report.get("failed") or {}).get("0") or {}
            code, message = int(failure.get("code", 0)), str(failure.get("message", ""))
            if code not in _MAYBE_THERE and "exists" not in message:
                raise WriteFailed(f"collection not made: {code} {message[:200]}", status=code)
        elif reply.status != 412:
            raise WriteFailed(f"collection not made: HTTP {reply.status}", status=reply.status)
        return self.has_collection(key=key)

    def has_collection(self, *, key: str) -> bool:
        """Whether the collection `key` exists and is not in the trash (Zotero 7 trashes a
        collection as `"deleted": true` in its data: papers put there would be out of sight)."""
        url = self._url(path=f"/collections/{quote(key, safe='')}")
        reply = self.session.send(method="GET", url=url)
        if reply.status == 404:
            return False
        if reply.status != 200:
            raise ZoteroError(f"reading collection {key}: HTTP {reply.status}")
        found = json_of(reply=reply)
        data = found.get("data") if isinstance(found, dict) else None
        return not (isinstance(data, dict) and data.get("deleted"))

    # -- writes -------------------------------------------------------------------------------

    def _post(self, *, path: str, objects: list[dict[str, Any]], token: str) -> Any:
        return self.session.send(
            method="POST",
            url=self._url(path=path),
            headers={"Zotero-Write-Token": token},
            payload=objects,
        )

    def create_items(self, *, items: list[dict[str, Any]], token: str | None = None) -> Created:
        """Write up to 50 new items (a note after its parent) once. Items without a `key` get
        one here; a caller that must survive a crash keeps keys and `token` before calling and
        passes the same ones again: what was stored is then found, not doubled."""
        if not 0 < len(items) <= WRITE_MAX:
            raise ValueError(f"between 1 and {WRITE_MAX} items per write, not {len(items)}")
        # Version 0 on each: new objects under chosen keys (see make_collection).
        keyed = [
            {**one, "version": 0}
            if is_object_key(value=one.get("key"))
            else {**one, "key": new_object_key(), "version": 0}
            for one in items
        ]
        keys = [str(one["key"]) for one in keyed]
        reply = self._post(path="/items", objects=keyed, token=token or new_write_token())
        if reply.status == 412:  # the token was used: an earlier try (or run) wrote these
            there, version = self._existing(keys=keys)
            missing = {
                i: (412, "write token already used; not stored")
                for i, k in enumerate(keys)
                if k not in there
            }
            kept = {i: k for i, k in enumerate(keys) if k in there}
            return Created(
                keys=kept,
                failed=missing,
                version=version,
                found=frozenset(kept),
                versions={i: there[k] for i, k in kept.items()},
            )
        if reply.status != 200:
            raise WriteFailed(f"items not written: HTTP {reply.status}", status=reply.status)
        report = json_of(reply=reply)
        stored = {
            int(i): str(k)
            for part in ("success", "unchanged")
            for i, k in (report.get(part) or {}).items()
        }
        failed = {
            int(i): (int(f.get("code", 0)), str(f.get("message", "")))
            for i, f in (report.get("failed") or {}).items()
        }
        maybe = [keys[i] for i, (code, _) in failed.items() if code in _MAYBE_THERE]
        versions: dict[int, int] = {}
        if maybe:
            there, _ = self._existing(keys=maybe)
            for i in [i for i in failed if keys[i] in there]:
                stored[i] = keys[i]
                versions[i] = there[keys[i]]
                del failed[i]
        return Created(
            keys=stored,
            failed=failed,
            version=version_of(reply=reply),
            found=frozenset(versions),
            versions=versions,
        )

    def update_item(
        self, *, key: str, changes: dict[str, Any], version: int, tries: int = 2
    ) -> int:
        """PATCH our fields of an item or note if it is still at `version`; on 412 re-read it
        and try again at its new version, `tries` sends in all (1: a 412 is the caller's to
        mend, as changes merged from a stale read must be merged again). The item's new
        version; WriteFailed(404) when it was deleted, VersionConflict when it changed."""
        url = self._url(path=f"/items/{quote(key, safe='')}")
        body = {k: v for k, v in changes.items() if k not in ("key", "version")}
        for attempt in range(tries):
            reply = self.session.send(
                method="PATCH",
                url=url,
                payload=body,
                headers={"If-Unmodified-Since-Version": str(version)},
            )
            if reply.status == 204:
                return version_of(reply=reply)
            if reply.status == 404:
                raise WriteFailed(f"item {key} no longer exists", status=404)
            if reply.status != 412:
                raise WriteFailed(
                    f"item {key} not updated: HTTP {reply.status}", status=reply.status
                )
            current = self.item(key=key)
            if current is None:
                raise WriteFailed(f"item {key} no longer exists", status=404)
            if attempt + 1 < tries:
                version = int(current["version"])
        raise VersionConflict(f"item {key} changed again while it was updated")

    def delete_item(self, *, key: str, version: int) -> None:
        """Delete an item (its child notes with it) if still at `version`, re-read once on 412;
        one already gone is fine (a replayed delete finds nothing)."""
        url = self._url(path=f"/items/{quote(key, safe='')}")
        for attempt in range(2):
            reply = self.session.send(
                method="DELETE", url=url, headers={"If-Unmodified-Since-Version": str(version)}
            )
            if reply.status in (204, 404):
                return
            if reply.status != 412:
                raise WriteFailed(
                    f"item {key} not deleted: HTTP {reply.status}", status=reply.status
                )
            current = self.item(key=key)
            if current is None:
                return
            if attempt == 0:
                version = int(current["version"])
        raise VersionConflict(f"item {key} changed again while it was deleted")
