"""ports.ZoteroStore's changes of a link by the commands, beside the sync's: each UPDATE sets
only the command's own columns, and a connect's read waits for a sync's write in flight.

A full-row save of a link read earlier would put back what the sync committed in between (its
collection key, its cursor, its next try): a destination lost makes a second collection.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update

from bot.db.schema_zotero import ZoteroLinkRow
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_of
from bot.domain import ChannelKey


class SqlZoteroLinkChanges(UnitBound):
    """The commands' changes of a channel's link."""

    def _update(
        self, *, channel: ChannelKey, values: dict[str, Any], sealed_key: str | None
    ) -> bool:
        """One UPDATE of `values` (only while the key is `sealed_key`, when given); whether a
        row was changed."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return False
        where = [ZoteroLinkRow.channel_id == channel_id]
        if sealed_key is not None:
            where.append(ZoteroLinkRow.sealed_key == sealed_key)
        done = self.session.execute(update(ZoteroLinkRow).where(*where).values(**values))
        return bool(getattr(done, "rowcount", 0))

    def lock_zotero_link(self, *, channel: ChannelKey) -> None:
        """Hold the channel's link row until the unit ends (FOR UPDATE on PostgreSQL, waiting
        for a sync's uncommitted write; a SQLite write unit holds the whole database), so the
        link read next is the one the unit's save replaces."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is not None:
            self.session.execute(
                select(ZoteroLinkRow.channel_id)
                .where(ZoteroLinkRow.channel_id == channel_id)
                .with_for_update()
            )

    def pause_zotero_link(self, *, channel: ChannelKey, paused: bool) -> bool:
        """Set `paused` alone; whether the channel has a link."""
        return self._update(channel=channel, values={"paused": paused}, sealed_key=None)

    def clear_zotero_failing(
        self, *, channel: ChannelKey, sealed_key: str, source_name: str
    ) -> bool:
        """Clear the failing state (failures, retry_at, failing_since, last_error, reported)
        and keep the source's name as just read, only while the link's key is still
        `sealed_key` (the key tested: a connect meanwhile stays as it is); whether it was."""
        values = {
            "failures": 0,
            "retry_at": None,
            "failing_since": None,
            "last_error": "",
            "reported": False,
            "source_name": source_name,
        }
        return self._update(channel=channel, values=values, sealed_key=sealed_key)
