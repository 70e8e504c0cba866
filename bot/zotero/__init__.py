"""Zotero: the bot's client of the Zotero Web API v3 (api.zotero.org), for reading a library's
collection as a source and writing posted papers and their discussions into one.

session.py sends (API version and key headers, Backoff and Retry-After, retries, a revoked key
told apart), transport.py makes one exchange on bot/outbound's deadline and address check,
paging.py reads whole listings by their Link headers, client.py holds the operations (never
twice: write tokens and keys chosen before writing; versions on every update), mapping.py and
note.py turn papers and discussions into item and note JSON.

Why not pyzotero (urschrei/pyzotero, the well-kept Python client): it would not serve the
guarantees issue 35 asks for, and it costs more than it brings.
- It draws a new Zotero-Write-Token on every call, so a call retried after a lost answer is a
  second write; and it cannot look up what a lost write stored, as it lets the server choose
  the keys. Our creates keep token and keys across tries (and across a crash, when the caller
  keeps them), which is what "never twice" needs.
- Its Backoff and 429 handling sleeps with time.sleep inside the call, for as long as the
  server says; we need an injectable clock (tests that do not sleep) and long waits handed
  back to the scheduler (ZoteroBusy) instead of a blocked worker.
- A 412 surfaces as an exception to re-read and retry by hand either way, and a revoked key is
  not told apart from a read-only one.
- Its dependencies: httpx (the bot's outbound HTTP is the standard library's, bounded by
  bot/outbound's deadline and address checks), whenever, feedparser, and bibtexparser<2,
  which conflicts with the bibtexparser>=2 the project depends on.
Its endpoint can be pointed at a fake, so testability was not the reason. The API surface we use
is small (about ten requests), and this package adds no dependency.
"""

from bot.zotero.client import WRITE_MAX, ZoteroClient
from bot.zotero.created import Created
from bot.zotero.errors import (
    AccessDenied,
    KeyRevoked,
    Missing,
    VersionConflict,
    WriteFailed,
    ZoteroBusy,
    ZoteroError,
    ZoteroUnavailable,
)
from bot.zotero.records import (
    Changes,
    KeyAccess,
    LibraryRef,
    new_object_key,
    new_write_token,
)
from bot.zotero.session import API_BASE, ZoteroSession

__all__ = [
    "API_BASE",
    "WRITE_MAX",
    "AccessDenied",
    "Changes",
    "Created",
    "KeyAccess",
    "KeyRevoked",
    "LibraryRef",
    "Missing",
    "VersionConflict",
    "WriteFailed",
    "ZoteroBusy",
    "ZoteroClient",
    "ZoteroError",
    "ZoteroSession",
    "ZoteroUnavailable",
    "new_object_key",
    "new_write_token",
]
