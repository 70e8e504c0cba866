"""What can go wrong talking to Zotero, each a type the caller acts on differently: a revoked key
is reported once and the sync paused; a busy server is come back to later; a conflict that
survived a re-read is left for the next sync."""

from __future__ import annotations


class ZoteroError(Exception):
    """Any failure of a Zotero request that the client could not resolve itself."""


class KeyRevoked(ZoteroError):
    """The API key no longer works (deleted or revoked on zotero.org): 403 "Invalid key", and
    /keys/current refuses it too. Nothing will work until an admin connects a new key."""


class AccessDenied(ZoteroError):
    """The key works but may not do this (a read-only key writing, a group it was not given)."""


class Missing(ZoteroError):
    """What was read is gone: a collection deleted in Zotero (404), whose source must be
    reconnected to another."""


class ZoteroBusy(ZoteroError):
    """The server asked us to wait longer than a call may block (429 or 503 with Retry-After,
    or a Backoff), or kept failing: `retry_in` seconds until it is worth asking again."""

    def __init__(self, message: str, *, retry_in: float) -> None:
        super().__init__(message)
        self.retry_in = retry_in


class ZoteroUnavailable(ZoteroError):
    """No usable answer after the retries: the connection kept failing, or the address was
    refused (not retried)."""


class VersionConflict(ZoteroError):
    """412 again after re-reading the object and retrying once: someone keeps changing it."""


class WriteFailed(ZoteroError):
    """The server refused the request or an object in it (a 4xx that retrying cannot mend):
    `status` is the HTTP status or the object's `failed` code."""

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status
