"""Signatures of signed HTTP requests, kept in the database so every replica refuses a replay
that another one already served (the in-process guard of bot.slack.http sees only its own)."""

from __future__ import annotations

from sqlalchemy import Engine, Table, delete, update

from bot.db.engine import dialect_insert
from bot.db.outage import translated
from bot.db.schema_upkeep import SeenRequestRow

# Slack's own tolerance is five minutes either way: a signature stays refused for ten.
WINDOW_SECONDS = 600
# Expired signatures are deleted on every this-many-th request, not on each one.
PURGE_EVERY = 200

_TABLE: Table = SeenRequestRow.__table__  # type: ignore[assignment]


class SharedSeenRequests:
    """SeenRequests on a database (PostgreSQL with replicas); one short transaction a request."""

    def __init__(self, *, engine: Engine) -> None:
        """Statements are built once for the engine's dialect."""
        self.engine = engine
        # RETURNING says whether the row went in: psycopg reports no rowcount (-1) for an
        # INSERT whose values come as parameters.
        self._insert = (
            dialect_insert(dialect=engine.dialect.name, table=_TABLE)
            .on_conflict_do_nothing(index_elements=["signature"])
            .returning(_TABLE.c.signature)
        )
        self._calls = 0

    def first_time(self, *, signature: str, now: float) -> bool:
        """Record a signature; False when any replica saw it within the window.
        ArchiveUnavailable when the record cannot be read or written (the caller falls back
        on its own memory: bot.slack.http)."""
        until = now + WINDOW_SECONDS
        self._calls += 1
        with translated(what="a signature", logged=False), self.engine.begin() as connection:
            if self._calls % PURGE_EVERY == 0:
                connection.execute(delete(_TABLE).where(_TABLE.c.expires_at < now))
            added = connection.execute(self._insert, {"signature": signature, "expires_at": until})
            if added.first() is not None:
                return True
            # Seen before: a first time again only if that sighting's window has ended.
            renewed = connection.execute(
                update(_TABLE)
                .where(_TABLE.c.signature == signature, _TABLE.c.expires_at < now)
                .values(expires_at=until)
            )
            return renewed.rowcount == 1
