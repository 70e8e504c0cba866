"""One Zotero library as the fake keeps it: a version counter, items, collections, deletions,
and the write rules the real server applies to each object of a multi-object POST.

The rules follow zotero/dataserver's API tests (tests/remote-php/tests/API/3/VersionTest.php):
a key-based write to an existing object needs a version (428 without), a stale or zero
version is 412 for that object, a version for a missing object is 404 ("use 0 instead"); every
object changed by one request gets the library's next version, and the library version moves
once per request that changed anything.
"""

from __future__ import annotations

import copy
import re
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

KEY_CHARS = (
    "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"  # dataserver's DataObjectUtilities::$allowedKeyChars
)
ITEM_TYPES = frozenset(
    {"journalArticle", "preprint", "book", "bookSection", "conferencePaper", "report"}
    | {"thesis", "webpage", "document", "note"}
)
KINDS = {"items": "Item", "collections": "Collection"}
NAME_MAX = 255  # characters of a collection name or a tag (Zotero_Collections/Tags::$maxLength)
NOTE_MAX = 500_000  # characters of a note (Zotero_Notes::$MAX_NOTE_LENGTH)
FIELD_MAX_BYTES = 65_535  # UTF-8 bytes of a field value (Zotero_Items::$maxDataValueLength)
CREATOR_MAX_BYTES = 255  # UTF-8 bytes of a creator's first, last or single name
_NOT_FIELDS = frozenset({"key", "version", "itemType", "note", "parentItem", "tags"})
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # cleanString: all but tab and line feed


def clean(value: Any) -> Any:
    """Control characters (but tab and line feed) stripped from every string, recursively, as
    dataserver's Zotero_Utilities::cleanStringRecursive does to incoming JSON."""
    if isinstance(value, str):
        return _CONTROL.sub("", value)
    if isinstance(value, list):
        return [clean(v) for v in value]
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    return value


def new_key() -> str:
    """An object key as the server makes them: 8 characters of KEY_CHARS."""
    return "".join(secrets.choice(KEY_CHARS) for _ in range(8))


def valid_key(*, key: object) -> bool:
    """Whether a value is a well-formed object key."""
    return isinstance(key, str) and len(key) == 8 and all(c in KEY_CHARS for c in key)


def _now() -> str:
    """Zotero's timestamp form: 2014-06-12T21:28:55Z."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class WriteError(Exception):
    """One object refused: the code and message of its `failed` entry (or of a whole answer)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Library:
    """A user or group library: `kind` is "users" or "groups" as in the URL prefix."""

    kind: str
    id: int
    name: str
    version: int = 0
    objects: dict[str, dict[str, dict[str, Any]]] = field(
        default_factory=lambda: {"items": {}, "collections": {}}
    )
    deleted: dict[str, dict[str, int]] = field(
        default_factory=lambda: {"items": {}, "collections": {}}
    )

    @property
    def type(self) -> str:
        """The `library.type` of the JSON: "user" or "group"."""
        return "user" if self.kind == "users" else "group"

    def live(self, *, kind: str) -> list[dict[str, Any]]:
        """Every stored object's data of one kind (not copies: callers copy before handing out)."""
        return list(self.objects[kind].values())

    def get(self, *, kind: str, key: str) -> dict[str, Any] | None:
        """One object's data, or None."""
        return self.objects[kind].get(key)

    def children(self, *, key: str) -> list[dict[str, Any]]:
        """The child items (notes) of an item."""
        return [d for d in self.objects["items"].values() if d.get("parentItem") == key]

    # -- writes -------------------------------------------------------------------------------

    def check(self, *, kind: str, data: dict[str, Any]) -> None:
        """WriteError 400/409 for an object the server would refuse whatever its version."""
        if kind == "collections":
            if not isinstance(data.get("name"), str) or not data["name"].strip():
                raise WriteError(400, "Collection name cannot be empty")
            if len(data["name"]) > NAME_MAX:
                raise WriteError(413, f"Collection name '{data['name'][:50]}…' too long")
            parent = data.get("parentCollection", False)
            if parent and parent not in self.objects["collections"]:
                raise WriteError(409, f"Parent collection {parent} doesn't exist")
            return
        item_type = data.get("itemType")
        if item_type is None:
            raise WriteError(400, "'itemType' property not provided")
        if item_type not in ITEM_TYPES:
            raise WriteError(400, f"'{item_type}' is not a valid itemType")
        tags = data.get("tags", [])
        if not isinstance(tags, list) or not all(
            isinstance(t, dict) and isinstance(t.get("tag"), str) for t in tags
        ):
            raise WriteError(400, "'tags' property must be an array of objects with 'tag'")
        for tag in tags:
            if len(tag["tag"]) > NAME_MAX:
                raise WriteError(413, f"Tag '{tag['tag'][:50]}…' too long")
        for name, value in data.items():
            long = isinstance(value, str) and len(value.encode("utf-8")) > FIELD_MAX_BYTES
            if long and name not in _NOT_FIELDS:
                raise WriteError(413, f"{name} field value '{value[:50]}…' too long")
        for person in data.get("creators", []):
            for part in ("firstName", "lastName", "name"):
                value = str(person.get(part, ""))
                if len(value.encode("utf-8")) > CREATOR_MAX_BYTES:
                    raise WriteError(413, f"Creator value '{value[:50]}…' too long")
        if len(str(data.get("note", ""))) > NOTE_MAX:
            raise WriteError(413, f"Note '{str(data['note'])[:80]}...' too long")
        for key in data.get("collections", []):
            if key not in self.objects["collections"]:
                raise WriteError(409, f"Collection {key} doesn't exist")
        parent = data.get("parentItem")
        if parent:
            if item_type != "note":
                raise WriteError(400, "Only notes and attachments can be child items")
            if parent not in self.objects["items"]:
                raise WriteError(400, f"Parent item {parent} doesn't exist")
            if data.get("collections"):
                raise WriteError(400, "Child items cannot be assigned to collections")

    def write_one(
        self, *, kind: str, data: dict[str, Any], keyed_needs_version: bool, next_version: int
    ) -> str:
        """Apply one object of a POST at `next_version`: "created", "updated" or "unchanged";
        WriteError when refused. Existing objects are merged as PATCH does. A key-based write
        needs a `version` (0 for a new object) when the request sent no
        If-Unmodified-Since-Version (dataserver's Zotero_API::checkJSONObjectVersion with
        requireVersion 1): 428 otherwise, whether or not the key exists."""
        name = KINDS[kind]
        data.update(clean(data))
        key = data.get("key")
        if key is not None and not valid_key(key=key):
            raise WriteError(400, f"'{key}' is not a valid {name.lower()} key")
        if key is not None and "version" not in data and keyed_needs_version:
            raise WriteError(
                428,
                "Either If-Unmodified-Since-Version or 'version' property must be provided "
                "for 'key'-based writes",
            )
        current = self.objects[kind].get(key) if key else None
        given = data.get("version")
        if current is None:
            if given not in (None, 0):
                raise WriteError(
                    404, f"{name} doesn't exist (expected version {given}; use 0 instead)"
                )
            fresh = {k: v for k, v in data.items() if k != "version"}
            fresh["key"] = key or new_key()
            self.check(kind=kind, data=fresh)
            self._store(kind=kind, data=fresh, version=next_version, created=True)
            data["key"] = fresh["key"]
            return "created"
        # No version of its own: the request's If-Unmodified-Since-Version, checked against the
        # library already, is the precondition (without one, 428 above).
        if given is not None and given != current["version"]:
            raise WriteError(
                412,
                f"{name} has been modified since specified version "
                f"(expected {given}, found {current['version']})",
            )
        merged = {**current, **{k: v for k, v in data.items() if k != "version"}}
        self.check(kind=kind, data=merged)
        if merged == current:
            return "unchanged"
        self._store(kind=kind, data=merged, version=next_version, created=False)
        return "updated"

    def replace(self, *, kind: str, key: str, data: dict[str, Any], patch: bool) -> None:
        """A single-object PUT (replace) or PATCH (merge) already checked for its version."""
        current = self.objects[kind][key]
        body = {k: clean(v) for k, v in data.items() if k not in ("version", "key")}
        if patch:
            merged = {**current, **body}
        else:
            kept = {k: current[k] for k in ("key", "dateAdded", "parentItem") if k in current}
            merged = {**kept, **body}
        self.check(kind=kind, data=merged)
        if merged != current:
            self.version += 1
            self._store(kind=kind, data=merged, version=self.version, created=False)

    def delete(self, *, kind: str, key: str) -> None:
        """Delete an object (an item's child notes with it) at the next library version."""
        self.version += 1
        doomed = [key]
        if kind == "items":
            doomed += [child["key"] for child in self.children(key=key)]
        for gone in doomed:
            self.objects[kind].pop(gone, None)
            self.deleted[kind][gone] = self.version
        if kind == "collections":
            for item in self.objects["items"].values():
                if key in item.get("collections", []):
                    item["collections"] = [c for c in item["collections"] if c != key]

    def _store(self, *, kind: str, data: dict[str, Any], version: int, created: bool) -> None:
        """Keep an object at `version`, with the fields the server fills in."""
        stored = copy.deepcopy(data)
        stored["version"] = version
        if kind == "collections":
            stored.setdefault("parentCollection", False)
            stored.setdefault("relations", {})
        else:
            stamp = _now()
            if created:
                stored.setdefault("dateAdded", stamp)
            stored["dateModified"] = stamp
            stored.setdefault("tags", [])
            stored.setdefault("relations", {})
            if stored.get("itemType") != "note" or not stored.get("parentItem"):
                stored.setdefault("collections", [])
        self.objects[kind][stored["key"]] = stored
        self.deleted[kind].pop(stored["key"], None)
