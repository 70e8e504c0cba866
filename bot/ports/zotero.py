"""The store's part for Zotero (issue 35): each channel's link to a Zotero library (its sealed
key, the collection it reads as a source and how far, the collection it writes to, how it is
failing), and each posted paper's copy there (keys and write token chosen before the write, the
versions and digest of what was last written).

A copy belongs to a channel and a library: disconnecting keeps the copies, so connecting the
same library again resumes without writing anything twice; another library starts afresh.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol

from bot.domain import ChannelKey, Paper, PostView

LibraryKind = Literal["users", "groups"]
# Where a source's new items go: the channel's tray of suggestions, or straight into its queue.
SourceInto = Literal["tray", "queue"]
SOURCE_INTO: tuple[SourceInto, ...] = ("tray", "queue")


@dataclass(frozen=True, slots=True)
class ZoteroLink:
    """A channel's link to one Zotero library.

    `sealed_key`: the API key as stored, sealed (bot.sealing); never shown. `source` is the key
    of the collection read as a source (None: the library is only written to), `source_name`
    its name as shown, `source_version` the library version it was last read at (Zotero's
    `since`). `destination` is the key of the channel's collection, once made. `failures` in a
    row, not before `retry_at`; `failing_since` the first failure of this run, `reported`
    whether the channel was told of it (once a run)."""

    channel: ChannelKey
    library_kind: LibraryKind
    library_id: int
    sealed_key: str = field(repr=False)
    connected_by: str
    connected_at: datetime
    source: str | None = None
    source_name: str = ""
    into: SourceInto = "tray"
    source_version: int = 0
    destination: str | None = None
    paused: bool = False
    failures: int = 0
    retry_at: datetime | None = None
    failing_since: datetime | None = None
    last_error: str = ""
    reported: bool = False
    synced_at: datetime | None = None

    @property
    def library(self) -> str:
        """The library as the API's paths and the copies name it: "groups/123", "users/456"."""
        return f"{self.library_kind}/{self.library_id}"


@dataclass(frozen=True, slots=True)
class ZoteroCopy:
    """A posted paper's item in a channel's Zotero library, with its discussion note.

    The keys and `write_token` are chosen and kept before the first try to create them, so a
    try whose answer was lost (or a crash after sending) is replayed with the same ones and
    finds what was stored instead of storing it twice. `stored`: the create was answered;
    `digest` is of what was last written (tags and note), so only a change is written again;
    `gone`: someone deleted the item in Zotero, and it is not written again."""

    post_id: int
    item_key: str
    note_key: str
    write_token: str
    stored: bool = False
    item_version: int = 0
    note_version: int = 0
    digest: str = ""
    gone: bool = False


@dataclass(frozen=True, slots=True)
class PostedPaper:
    """A paper as a channel posted it: the post's id, the paper, and its votes and live
    comments (as the channel sees them)."""

    post_id: int
    paper: Paper
    view: PostView


class ZoteroStore(Protocol):
    """Links by channel, copies by channel, library and post."""

    def zotero_link(self, *, channel: ChannelKey) -> ZoteroLink | None:
        """The channel's link, None when it has none."""
        ...

    def zotero_links(self) -> list[ZoteroLink]:
        """Every channel's link, paused ones too."""
        ...

    def save_zotero_link(self, *, link: ZoteroLink) -> None:
        """Keep the channel's link as given (made, or replacing the one it had)."""
        ...

    def save_zotero_sync(self, *, link: ZoteroLink) -> bool:
        """Keep a sync's part of the link (source_version, failures, retry_at, failing_since,
        last_error, reported, synced_at) if the stored link is still this one (same library,
        sealed key and connect time); whether it was. What an admin sets (paused, source, a
        new key) is never written over, and a removed link is not made again."""
        ...

    def plan_zotero_destination(
        self, *, link: ZoteroLink, replacing: str | None, key: str
    ) -> str | None:
        """Make `key` the link's collection if its collection is still `replacing` (None: it
        has none), and give the collection kept: of two syncs planning at once, both get the
        first's. None when the stored link is no longer this one."""
        ...

    def remove_zotero_link(self, *, channel: ChannelKey) -> bool:
        """Forget the channel's link and its key (its copies are kept); whether it had one."""
        ...

    def lock_zotero_link(self, *, channel: ChannelKey) -> None:
        """Hold the channel's link until the unit of work ends, a sync's write in flight waited
        for: a connect reads the link after it, so the save it makes keeps what the sync
        wrote."""
        ...

    def pause_zotero_link(self, *, channel: ChannelKey, paused: bool) -> bool:
        """Set the link's `paused` alone (the sync's columns untouched); whether the channel
        has a link."""
        ...

    def clear_zotero_failing(
        self, *, channel: ChannelKey, sealed_key: str, source_name: str
    ) -> bool:
        """Clear the link's failing state and keep `source_name`, the other columns untouched,
        only while its key is still `sealed_key`; whether it was."""
        ...

    def posted_papers(
        self, *, channel: ChannelKey, after_post: int, limit: int
    ) -> list[PostedPaper]:
        """The channel's posts that were posted (a message exists), with post id above
        `after_post`, in post id order, at most `limit`."""
        ...

    def zotero_copies(
        self, *, channel: ChannelKey, library: str, post_ids: Sequence[int]
    ) -> dict[int, ZoteroCopy]:
        """The copies of these posts in `library` ("groups/123"), by post id."""
        ...

    def plan_zotero_copies(
        self, *, channel: ChannelKey, library: str, copies: Sequence[ZoteroCopy]
    ) -> None:
        """Keep new copies' keys and token before they are written; a post that has a copy
        already (another replica planned it meanwhile) keeps the one it has."""
        ...

    def save_zotero_copies(
        self, *, channel: ChannelKey, library: str, copies: Sequence[ZoteroCopy]
    ) -> None:
        """Keep what was written of these copies (stored, versions, digest, gone)."""
        ...
