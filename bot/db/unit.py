"""What every Store mixin stands on: one unit of work's session and connection."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from bot.db.engine import sqlite_driver
from bot.db.group_commit import WriteScope


class UnitBound:
    """A unit of work's session, or a group commit's scope (its connection at once, its
    session only when a method asks for one: the hot path never does)."""

    def __init__(self, *, session: Session | None = None, scope: WriteScope | None = None) -> None:
        """Bind to a session whose transaction the caller owns, or to a write scope."""
        if (session is None) == (scope is None):
            raise TypeError("a store needs a session or a write scope")
        self._session, self._scope = session, scope
        self._bound: tuple[Connection, Any] | None = (
            (scope.connection, scope.raw) if scope is not None else None
        )

    @property
    def session(self) -> Session:
        """The ORM session of this unit of work (a write scope opens it on first use)."""
        if self._session is None:
            assert self._scope is not None  # one of the two, checked at construction
            self._session = self._scope.session
        return self._session

    def _connection(self) -> tuple[Connection, Any]:
        """The unit's connection, and its sqlite3 connection on SQLite (else None); given by a
        write scope, else asked of the session once: the asking costs more than the
        statements it serves."""
        if self._bound is None:
            connection = self.session.connection()
            self._bound = (connection, sqlite_driver(connection=connection))
        return self._bound
