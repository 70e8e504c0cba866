"""Store methods for reading lists: the name a list's header gives the papers it holds."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from bot.db.engine import upsert_insert
from bot.db.schema import Base, ReadingListRow
from bot.db.unit import UnitBound


class SqlLists(UnitBound):
    """ports.ListsStore: reading lists by name and origin."""

    def reading_list(self, *, name: str, origin: str, now: datetime) -> int:
        """The id of the list with this name from this origin, made if it is new."""
        table = Base.metadata.tables["reading_lists"]
        insert = upsert_insert(session=self.session, table=table)
        self.session.execute(
            insert.on_conflict_do_nothing(), {"name": name, "origin": origin, "added_at": now}
        )
        found = self.session.scalar(
            select(ReadingListRow.id).where(
                ReadingListRow.name == name, ReadingListRow.origin == origin
            )
        )
        assert found is not None  # inserted above, or there already
        return int(found)

    def list_name(self, *, list_id: int) -> str | None:
        """A list's name; None for an id no list has."""
        return self.session.scalar(select(ReadingListRow.name).where(ReadingListRow.id == list_id))
