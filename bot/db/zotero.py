"""ports.ZoteroStore over SQL: each channel's link to a Zotero library, the channel's posted
papers as the sync pages them, and each posted paper's copy in a library."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from bot.db.convert import channel_key, to_paper, utc
from bot.db.engine import upsert_insert
from bot.db.post_views import views_of_posts
from bot.db.schema import ChannelRow, PaperRow, PostRow
from bot.db.schema_zotero import ZoteroCopyRow, ZoteroLinkRow
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_of, watched_channel_id
from bot.db.zotero_sync import plan_destination, save_sync_state, sync_values
from bot.domain import ChannelKey
from bot.ports.zotero import LibraryKind, PostedPaper, SourceInto, ZoteroCopy, ZoteroLink

_KINDS: dict[str, LibraryKind] = {"users": "users", "groups": "groups"}
_INTO: dict[str, SourceInto] = {"tray": "tray", "queue": "queue"}
# Post ids asked about per query: well under SQLite's bound parameters (32,766).
_IDS_PER_QUERY = 5_000


def _aware(value: datetime | None) -> datetime | None:
    """A stored datetime as aware UTC, None kept."""
    return utc(value=value) if value is not None else None


def _to_link(*, row: ZoteroLinkRow, channel: ChannelKey) -> ZoteroLink:
    """The port's link from its row and its channel's key."""
    return ZoteroLink(
        channel=channel,
        library_kind=_KINDS[row.library_kind],
        library_id=int(row.library_id),
        sealed_key=row.sealed_key,
        connected_by=row.connected_by,
        connected_at=utc(value=row.connected_at),
        source=row.source,
        source_name=row.source_name,
        into=_INTO[row.into],
        source_version=int(row.source_version),
        destination=row.destination,
        paused=bool(row.paused),
        failures=int(row.failures),
        retry_at=_aware(row.retry_at),
        failing_since=_aware(row.failing_since),
        last_error=row.last_error,
        reported=bool(row.reported),
        synced_at=_aware(row.synced_at),
    )


def _link_values(*, link: ZoteroLink) -> dict[str, Any]:
    """Every column of a link's row but its channel's: the connect's, the destination, and
    the sync's own (zotero_sync.sync_values)."""
    return {
        "library_kind": link.library_kind,
        "library_id": link.library_id,
        "sealed_key": link.sealed_key,
        "source": link.source,
        "source_name": link.source_name,
        "into": link.into,
        "destination": link.destination,
        "paused": link.paused,
        "connected_by": link.connected_by,
        "connected_at": link.connected_at,
        **sync_values(link=link),
    }


# What a write changes of a copy (its keys and token are the plan's).
_WRITTEN = ("stored", "item_version", "note_version", "digest", "gone")


def _copy_values(*, channel_id: int, library: str, copy: ZoteroCopy) -> dict[str, Any]:
    """A copy's whole row."""
    return {
        "channel_id": channel_id,
        "library": library,
        "post_id": copy.post_id,
        "item_key": copy.item_key,
        "note_key": copy.note_key,
        "write_token": copy.write_token,
        **{name: getattr(copy, name) for name in _WRITTEN},
    }


def _upsert(*, session: Session) -> Any:
    """An INSERT INTO zotero_copies with ON CONFLICT for the session's dialect."""
    return upsert_insert(session=session, table=ZoteroCopyRow.__table__)  # type: ignore[arg-type]


_COPY_KEY = ["channel_id", "library", "post_id"]


class SqlZotero(UnitBound):
    """ports.ZoteroStore: links, posted papers and copies."""

    def zotero_link(self, *, channel: ChannelKey) -> ZoteroLink | None:
        """The channel's link (read afresh: saved by a Core upsert meanwhile)."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return None
        row = self.session.scalar(
            select(ZoteroLinkRow)
            .where(ZoteroLinkRow.channel_id == channel_id)
            .execution_options(populate_existing=True)
        )
        return _to_link(row=row, channel=channel) if row is not None else None

    def zotero_links(self) -> list[ZoteroLink]:
        """Every channel's link, by channel row id."""
        rows = self.session.execute(
            select(ZoteroLinkRow, ChannelRow)
            .join(ChannelRow, ChannelRow.id == ZoteroLinkRow.channel_id)
            .order_by(ZoteroLinkRow.channel_id)
            .execution_options(populate_existing=True)
        )
        return [_to_link(row=row, channel=channel_key(row=owner)) for row, owner in rows]

    def save_zotero_link(self, *, link: ZoteroLink) -> None:
        """Upsert the channel's link, every field replaced; the channel's row is made when
        missing as a watch makes it (paused, watch_only: linking is not following)."""
        channel_id = watched_channel_id(session=self.session, channel=link.channel)
        values = _link_values(link=link)
        insert = upsert_insert(session=self.session, table=ZoteroLinkRow.__table__)  # type: ignore[arg-type]
        self.session.execute(
            insert.values(channel_id=channel_id, **values).on_conflict_do_update(
                index_elements=["channel_id"], set_=values
            )
        )

    def save_zotero_sync(self, *, link: ZoteroLink) -> bool:
        """zotero_sync.save_sync_state: the sync's columns, if the link is still this one."""
        channel_id = channel_id_of(session=self.session, channel=link.channel)
        return channel_id is not None and save_sync_state(
            session=self.session, channel_id=channel_id, link=link
        )

    def plan_zotero_destination(
        self, *, link: ZoteroLink, replacing: str | None, key: str
    ) -> str | None:
        """zotero_sync.plan_destination: the collection key kept, None if the link changed."""
        channel_id = channel_id_of(session=self.session, channel=link.channel)
        if channel_id is None:
            return None
        return plan_destination(
            session=self.session, channel_id=channel_id, link=link, replacing=replacing, key=key
        )

    def remove_zotero_link(self, *, channel: ChannelKey) -> bool:
        """Delete the channel's link (one DELETE: of two removals, one finds it)."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return False
        removed = self.session.execute(
            delete(ZoteroLinkRow).where(ZoteroLinkRow.channel_id == channel_id)
        )
        return bool(getattr(removed, "rowcount", 0))

    def posted_papers(
        self, *, channel: ChannelKey, after_post: int, limit: int
    ) -> list[PostedPaper]:
        """The channel's posts with a message, above `after_post`, by id; each with its paper
        and its own view (votes, live comments: the same paper posted elsewhere is not it)."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None or limit <= 0:
            return []
        post_ids = list(
            self.session.scalars(
                select(PostRow.id)
                .where(
                    PostRow.channel_id == channel_id,
                    PostRow.message_id.is_not(None),
                    PostRow.id > after_post,
                )
                .order_by(PostRow.id)
                .limit(limit)
            )
        )
        if not post_ids:
            return []
        views = views_of_posts(session=self.session, posts=PostRow.id.in_(post_ids), viewer=None)
        paper_ids = {post.paper_id for post, _ in views}
        papers = {
            row.id: to_paper(row=row)
            for row in self.session.scalars(select(PaperRow).where(PaperRow.id.in_(paper_ids)))
        }
        return sorted(
            (
                PostedPaper(post_id=post.id, paper=papers[post.paper_id], view=view)
                for post, view in views
            ),
            key=lambda posted: posted.post_id,
        )

    def zotero_copies(
        self, *, channel: ChannelKey, library: str, post_ids: Sequence[int]
    ) -> dict[int, ZoteroCopy]:
        """The copies by post id (read afresh: planned or saved by Core statements)."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return {}
        wanted = sorted(set(post_ids))
        found: dict[int, ZoteroCopy] = {}
        for start in range(0, len(wanted), _IDS_PER_QUERY):
            rows = self.session.scalars(
                select(ZoteroCopyRow)
                .where(
                    ZoteroCopyRow.channel_id == channel_id,
                    ZoteroCopyRow.library == library,
                    ZoteroCopyRow.post_id.in_(wanted[start : start + _IDS_PER_QUERY]),
                )
                .execution_options(populate_existing=True)
            )
            for row in rows:
                found[row.post_id] = ZoteroCopy(
                    post_id=row.post_id,
                    item_key=row.item_key,
                    note_key=row.note_key,
                    write_token=row.write_token,
                    stored=bool(row.stored),
                    item_version=int(row.item_version),
                    note_version=int(row.note_version),
                    digest=row.digest,
                    gone=bool(row.gone),
                )
        return found

    def _copy_rows(
        self, *, channel: ChannelKey, library: str, copies: Sequence[ZoteroCopy]
    ) -> list[dict[str, Any]]:
        """The copies' whole rows in post id order, as parameters of one statement (compiled
        once: a VALUES list of a thousand rows is compiled anew each time, and cost more than
        the writes); none when the channel has no row."""
        channel_id = channel_id_of(session=self.session, channel=channel) if copies else None
        if channel_id is None:
            return []
        return [
            _copy_values(channel_id=channel_id, library=library, copy=copy)
            for copy in sorted(copies, key=lambda copy: copy.post_id)
        ]

    def plan_zotero_copies(
        self, *, channel: ChannelKey, library: str, copies: Sequence[ZoteroCopy]
    ) -> None:
        """INSERT ... ON CONFLICT DO NOTHING: a replica planning the same post at once waits
        for the first's commit on the primary key, then keeps nothing of its own (the sync
        reads the copies again and writes with the plan kept). Sorted by post id, so two
        replicas planning overlapping pages take the keys in one order (no deadlock)."""
        rows = self._copy_rows(channel=channel, library=library, copies=copies)
        if rows:
            self.session.execute(_upsert(session=self.session).on_conflict_do_nothing(), rows)

    def save_zotero_copies(
        self, *, channel: ChannelKey, library: str, copies: Sequence[ZoteroCopy]
    ) -> None:
        """Keep what was written (stored, versions, digest, gone), one statement for all; the
        keys and token stay the plan's. A copy never planned is kept whole."""
        rows = self._copy_rows(channel=channel, library=library, copies=copies)
        if not rows:
            return
        insert = _upsert(session=self.session)
        kept = {name: insert.excluded[name] for name in _WRITTEN}
        self.session.execute(
            insert.on_conflict_do_update(index_elements=_COPY_KEY, set_=kept), rows
        )
