"""What `/paperclub watch zotero` needs from the network and the sealing (issue 35): check an
API key against a library (and find the collection read as a source), seal a key before it is
kept, open a kept one to check it again. The edge is bot/zotero/desk.py.

The key passes through as a plain string only on its way to Zotero or to be sealed: nothing
here puts it in an error, a reply or a log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from bot.ports.zotero import LibraryKind

# Why a key cannot be connected (or no longer works):
# revoked: Zotero refuses the key (deleted, revoked, mistyped);
# no_access: the key may not read the library (or there is no such library);
# read_only: it may read the library but not write to it (every link writes the channel's
#   collection);
# no_notes: a user library's key without "Allow notes access" (the server hides the notes
#   from it, so the discussion notes could not be written; a group's access covers its notes);
# no_collection: the library has no collection of that name or key;
# unavailable: Zotero did not answer usably (down, busy, unreachable);
# unreadable: the kept key cannot be opened (PAPERCLUB_SECRET_KEY lost the key that sealed it).
Problem = Literal[
    "revoked", "no_access", "read_only", "no_notes", "no_collection", "unavailable", "unreadable"
]


class DeskRefused(Exception):
    """The key, the library or the collection will not do, and why (`problem`). `detail` is a
    plain reason from Zotero's answer for the log and the status (never the key)."""

    def __init__(self, problem: Problem, *, detail: str = "") -> None:
        super().__init__(f"{problem}: {detail}" if detail else problem)
        self.problem: Problem = problem
        self.detail = detail


@dataclass(frozen=True, slots=True)
class LibraryWanted:
    """The library as typed: its kind and id, or (kind "username") the zotero.org user name of
    a profile URL, which is the key's own library when the names match."""

    kind: LibraryKind | Literal["username"]
    id: int = 0
    username: str = ""


@dataclass(frozen=True, slots=True)
class KeyChecked:
    """A key that works for a library: the library (a profile URL resolved to its user id) and
    the source collection found (key and name; None when none was asked for)."""

    library_kind: LibraryKind
    library_id: int
    source: str | None = None
    source_name: str = ""


class ZoteroDesk(Protocol):
    """The network and sealing part of the Zotero commands."""

    def check(self, *, api_key: str, library: LibraryWanted, collection: str | None) -> KeyChecked:
        """Whether `api_key` may read and write `library`, and the collection called or keyed
        `collection` in it; DeskRefused with the reason when not."""
        ...

    def seal(self, *, api_key: str) -> str:
        """The key as kept in the database."""
        ...

    def open(self, *, sealed_key: str) -> str:
        """A kept key, to check it again; DeskRefused("unreadable") when no configured secret
        opens it."""
        ...
