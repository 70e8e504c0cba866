"""A local fake of the Zotero Web API v3 (api.zotero.org) for the Zotero client's tests:
FakeZotero is a context manager serving 127.0.0.1:0 with `.url`, keys and libraries a test
sets, faults it queues, and `.requests` (every request, headers and body included).

Documented and captured answers, with their sources, are in samples/ (see samples/README.md);
tests/fakezotero_selftest holds the fake to them.
"""

from __future__ import annotations

from .api import TOKEN_LIFE_S, FakeZotero, Grant
from .library import KEY_CHARS, Library, new_key
from .listing import LIMIT_DEFAULT, LIMIT_MAX
from .server import Answer, Hold, Request
from .writes import WRITE_MAX

__all__ = [
    "KEY_CHARS",
    "LIMIT_DEFAULT",
    "LIMIT_MAX",
    "TOKEN_LIFE_S",
    "WRITE_MAX",
    "Answer",
    "FakeZotero",
    "Grant",
    "Hold",
    "Library",
    "Request",
    "new_key",
]
