"""What the Zotero client hands back: which library, what a key may do, what changed since a
version (what a write stored: created.py)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Literal

KEY_CHARS = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"  # Zotero's object key alphabet (no 0, 1, O)
KEY_LENGTH = 8


def new_object_key() -> str:
    """A key for an object not yet written (8 of KEY_CHARS, as Zotero's own clients make).

    Keeping the key before the write makes the write recognisable afterwards: a replay finds
    the object under it instead of making a second one."""
    return "".join(secrets.choice(KEY_CHARS) for _ in range(KEY_LENGTH))


def new_write_token() -> str:
    """A Zotero-Write-Token: 32 hex characters (the server takes 5 to 32)."""
    return secrets.token_hex(16)


def is_object_key(*, value: object) -> bool:
    """Whether a value is a well-formed Zotero object key."""
    return (
        isinstance(value, str) and len(value) == KEY_LENGTH and all(c in KEY_CHARS for c in value)
    )


@dataclass(frozen=True, slots=True)
class LibraryRef:
    """A library: `kind` "users" or "groups" and its numeric id (the URL prefix's parts)."""

    kind: Literal["users", "groups"]
    id: int

    @property
    def prefix(self) -> str:
        """/users/123 or /groups/456."""
        return f"/{self.kind}/{self.id}"


@dataclass(frozen=True, slots=True)
class KeyAccess:
    """What /keys/current says of the key: whose it is and what it may read and write."""

    user_id: int
    username: str
    user_library: bool
    user_write: bool
    # Group id -> may write; "all" groups appear as the single id 0.
    groups: dict[int, bool] = field(default_factory=dict)
    # The user library's notes ("Allow notes access"): without it the server hides them from
    # the key (404), so no discussion note could be written. A group's access covers its notes.
    notes: bool = False

    def may_read(self, *, library: LibraryRef) -> bool:
        """Whether the key may read `library`."""
        if library.kind == "users":
            return library.id == self.user_id and self.user_library
        return library.id in self.groups or 0 in self.groups

    def may_write(self, *, library: LibraryRef) -> bool:
        """Whether the key may write to `library`."""
        if library.kind == "users":
            return library.id == self.user_id and self.user_write
        return self.groups.get(library.id, self.groups.get(0, False))


@dataclass(frozen=True, slots=True)
class Changes:
    """Objects changed after a version (full JSON, newest first) and the library's version they
    were read at: the cursor to ask `since` next time."""

    objects: tuple[dict[str, Any], ...]
    version: int
