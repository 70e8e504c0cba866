"""The Zotero commands' edge (bot/ports/zotero_desk.py): a key checked with /keys/current and
one read of the library, the source collection found by key or name, keys sealed with
PAPERCLUB_SECRET_KEY (bot.sealing) before they are kept.

A command waits for Zotero briefly (COMMAND_WAIT_S, two tries): a person is waiting for the
answer, and the sync, not the command, is the one that comes back later.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from bot.config.settings import Settings
from bot.ports.zotero import LibraryKind
from bot.ports.zotero_desk import DeskRefused, KeyChecked, LibraryWanted
from bot.sealing import TokenCipher, UnreadableToken
from bot.zotero.client import ZoteroClient
from bot.zotero.errors import AccessDenied, KeyRevoked, Missing, ZoteroError
from bot.zotero.paging import PAGE_LIMIT, read_all
from bot.zotero.records import KeyAccess, LibraryRef, is_object_key
from bot.zotero.session import ZoteroSession

COMMAND_WAIT_S = 10.0  # longest Retry-After or Backoff a command sleeps through
COMMAND_TRIES = 2

# Makes the session of one API key (on PAPERCLUB_ZOTERO_API_URL).
SessionFor = Callable[[str], ZoteroSession]


def _normal(*, name: str) -> str:
    """A collection name as compared: one spacing, any case."""
    return " ".join(name.split()).casefold()


def _library(*, access: KeyAccess, wanted: LibraryWanted) -> LibraryRef:
    """The library typed, a profile URL's user name read as the key's own library."""
    if wanted.kind == "username":
        if wanted.username.casefold() != access.username.casefold():
            raise DeskRefused("no_access", detail="a zotero.org profile not the key's owner's")
        return LibraryRef(kind="users", id=access.user_id)
    kind: LibraryKind = wanted.kind
    return LibraryRef(kind=kind, id=wanted.id)


def _found(*, collections: list[dict[str, Any]], wanted: str) -> tuple[str, str]:
    """The key and name of the collection keyed or named `wanted` (the oldest of a name)."""
    key = wanted.strip().upper()  # keys are upper case; a key typed in lower case is one too
    by_key = [c for c in collections if is_object_key(value=key) and c.get("key") == key]
    named = by_key or [
        c
        for c in collections
        if _normal(name=str((c.get("data") or {}).get("name", ""))) == _normal(name=wanted)
    ]
    if not named:
        raise DeskRefused("no_collection")
    named.sort(key=lambda c: (int(c.get("version", 0)), str(c.get("key"))))
    first = named[0]
    return str(first["key"]), str((first.get("data") or {}).get("name", ""))


def _reachable(*, session: ZoteroSession, library: LibraryRef) -> None:
    """One cheap read of the library: a group the key holds "all groups" for may not exist."""
    reply = session.send(
        method="GET", url=session.url(path=f"{library.prefix}/collections?limit=1")
    )
    if reply.status == 404:
        raise Missing(f"no library {library.prefix[1:]}")
    if reply.status != 200:
        raise ZoteroError(f"reading {library.prefix[1:]}: HTTP {reply.status}")


@dataclass(frozen=True)
class Desk:
    """Checks on `session_for`'s sessions, seals with `cipher`."""

    cipher: TokenCipher
    session_for: SessionFor

    def _session(self, *, api_key: str) -> ZoteroSession:
        return replace(self.session_for(api_key), max_wait=COMMAND_WAIT_S, attempts=COMMAND_TRIES)

    def check(self, *, api_key: str, library: LibraryWanted, collection: str | None) -> KeyChecked:
        """The key's access, the library read once, the collection looked for."""
        session = self._session(api_key=api_key)
        try:
            access = ZoteroClient(session=session, library=LibraryRef("users", 0)).check_key()
            ref = _library(access=access, wanted=library)
            if not access.may_read(library=ref):
                raise DeskRefused("no_access", detail=f"the key may not read {ref.prefix[1:]}")
            if not access.may_write(library=ref):
                raise DeskRefused("read_only", detail=f"the key may not write {ref.prefix[1:]}")
            if ref.kind == "users" and not access.notes:
                raise DeskRefused(
                    "no_notes", detail=f"the key may not see {ref.prefix[1:]}'s notes"
                )
            if collection is None:
                _reachable(session=session, library=ref)
                listed: list[dict[str, Any]] = []
            else:
                url = session.url(path=f"{ref.prefix}/collections?limit={PAGE_LIMIT}")
                read = read_all(session=session, url=url)
                listed = read[0] if read else []
        except KeyRevoked:
            raise DeskRefused("revoked") from None
        except (AccessDenied, Missing) as denied:
            raise DeskRefused("no_access", detail=str(denied)) from None
        except ZoteroError as failed:
            raise DeskRefused("unavailable", detail=str(failed)) from None
        if collection is None:
            return KeyChecked(library_kind=ref.kind, library_id=ref.id)
        key, name = _found(collections=listed, wanted=collection)
        return KeyChecked(library_kind=ref.kind, library_id=ref.id, source=key, source_name=name)

    def seal(self, *, api_key: str) -> str:
        """Sealed under the newest PAPERCLUB_SECRET_KEY."""
        sealed = self.cipher.seal(value=api_key)
        assert sealed is not None  # a str in, a str out
        return sealed

    def open(self, *, sealed_key: str) -> str:
        """Opened by any configured secret."""
        try:
            opened = self.cipher.open(value=sealed_key)
        except UnreadableToken:
            raise DeskRefused("unreadable") from None
        assert opened is not None
        return opened


def sessions(*, settings: Settings) -> SessionFor:
    """A session per key on PAPERCLUB_ZOTERO_API_URL, naming PAPERCLUB_CONTACT; a loopback or
    private address only with PAPERCLUB_SOURCES_PRIVATE (the tests' fake)."""
    base, private = settings.zotero_api, settings.sources.allow_private

    def session_for(api_key: str) -> ZoteroSession:
        return ZoteroSession(
            api_key=api_key, base=base, contact=settings.contact, allow_private=private
        )

    return session_for


def make_desk(*, settings: Settings) -> Desk | None:
    """The desk, None when PAPERCLUB_SECRET_KEY is unset (no key could be kept sealed)."""
    if not settings.secret_keys:
        return None
    return Desk(
        cipher=TokenCipher(keys=settings.secret_keys), session_for=sessions(settings=settings)
    )
