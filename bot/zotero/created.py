"""What a create of items hands back (client.create_items): what was stored, what was refused,
and which objects were found stored by a look-up rather than by this request, with their own
versions."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Created:
    """A multi-object write's outcome by input position: the key of each object stored (or found
    stored by an earlier try), each failure's (code, message), and the library version after.

    `found`: positions found by a look-up after the server refused a replay (a token or key
    used): Zotero holds what the earlier request sent, which may be older than this one's
    objects. `versions`: each found object's own version (the look-up's, not the library's)."""

    keys: dict[int, str]
    failed: dict[int, tuple[int, str]]
    version: int
    found: frozenset[int] = frozenset()
    versions: dict[int, int] = field(default_factory=dict)
