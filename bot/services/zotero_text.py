"""What `/paperclub watch zotero connect` was typed with: the library (groups/123, users/456,
or a zotero.org URL), the API key, `from <collection>` (a name of several words, or a key) and
`into queue|tray`.

Nothing typed is put in an error: a key and a library typed the wrong way round would show the
key to whoever reads the answer over the admin's shoulder, so ConnectTextError names the part,
never its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bot.ports.zotero import SOURCE_INTO, LibraryKind, SourceInto
from bot.ports.zotero_desk import LibraryWanted

_PATH = re.compile(r"^/?(groups|users)/(\d{1,12})(?:/|$)", re.I)
_HOSTS = ("zotero.org", "www.zotero.org", "api.zotero.org")
_COLLECTION_IN_URL = re.compile(r"/collections/([23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8})(?:/|$)")
# Zotero's own user names: letters, digits, dots, dashes and underscores.
_USERNAME = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# Zotero's API keys are 24 letters and digits; a little leeway, nothing else.
_API_KEY = re.compile(r"^[A-Za-z0-9]{16,64}$")
_QUOTES = "\"'“”‘’«»"
# Profile paths that are pages of zotero.org, not user names.
_NOT_USERS = frozenset({"groups", "users", "settings", "support", "search", "user", "start"})


class ConnectTextError(ValueError):
    """What is wrong with the command, in words that never repeat what was typed."""


@dataclass(frozen=True, slots=True)
class ConnectText:
    """The parts of a connect command (`api_key` repr'd as hidden)."""

    library: LibraryWanted
    api_key: str = field(repr=False)
    collection: str | None = None
    into: SourceInto = "tray"


def read_library(*, text: str) -> tuple[LibraryWanted, str | None]:
    """The library typed, and the collection key its URL names (None when it names none)."""
    found = _PATH.match(text)
    if found:
        return LibraryWanted(kind=_kind(found.group(1)), id=int(found.group(2))), None
    url = text if "://" in text else f"https://{text}"
    parts = urlsplit(url)
    if (parts.hostname or "").lower() not in _HOSTS:
        raise ConnectTextError(
            "the library is groups/<number>, users/<number> or a zotero.org address"
        )
    in_url = _COLLECTION_IN_URL.search(parts.path)
    collection = in_url.group(1) if in_url else None
    found = _PATH.match(parts.path)
    if found:
        return LibraryWanted(kind=_kind(found.group(1)), id=int(found.group(2))), collection
    first = parts.path.strip("/").split("/")[0]
    if _USERNAME.match(first) and first.lower() not in _NOT_USERS:
        return LibraryWanted(kind="username", username=first), collection
    raise ConnectTextError("that zotero.org address names no library")


def _kind(word: str) -> LibraryKind:
    return "groups" if word.lower() == "groups" else "users"


def _unquoted(*, text: str) -> str:
    """A collection name without the quotes it may be typed in (Slack makes them curly)."""
    stripped = text.strip()
    if len(stripped) >= 2 and stripped[0] in _QUOTES and stripped[-1] in _QUOTES:
        return stripped[1:-1].strip()
    return stripped


def read_connect(*, words: list[str]) -> ConnectText:
    """`<library> <key> [from <collection>] [into queue|tray]`, the words after `connect`."""
    if len(words) < 2:
        raise ConnectTextError("connect needs a library and an API key")
    library, in_url = read_library(text=words[0])
    if not _API_KEY.match(words[1]):
        raise ConnectTextError("the second word is not a Zotero API key (24 letters and digits)")
    rest = words[2:]
    into: SourceInto | None = None
    # A last "into queue|tray" says where; other words after "into" are the collection's name.
    if len(rest) >= 2 and rest[-2].lower() == "into" and rest[-1].lower() in SOURCE_INTO:
        into = "queue" if rest[-1].lower() == "queue" else "tray"
        rest = rest[:-2]
    collection = in_url
    if rest:
        if rest[0].lower() != "from" or len(rest) < 2:
            raise ConnectTextError("after the key come only from <collection> and into queue|tray")
        collection = _unquoted(text=" ".join(rest[1:]))
        if not collection:
            raise ConnectTextError("from is followed by a collection's name or key")
    if into is not None and collection is None:
        raise ConnectTextError("into says where a source's papers go: it needs from <collection>")
    return ConnectText(
        library=library, api_key=words[1], collection=collection, into=into or "tray"
    )
