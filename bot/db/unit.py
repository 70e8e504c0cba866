"""What every Store mixin stands on: one unit of work's session and connection."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from bot.db.engine import sqlite_driver
from bot.db.group_commit import WriteScope


class UnitBound:
    """A unit of work's session, or a group commit's scope (its connection at once, its
    session only when a method asks for one: the hot path never does), or a way to open a
    read session (opened on first use: most reactions and replies are answered from the memo
    of delivered posts, and opening a session cost them more than the rest of the look-up)."""

    def __init__(
        self,
        *,
        session: Session | None = None,
        scope: WriteScope | None = None,
        opener: Callable[[], Session] | None = None,
    ) -> None:
        """Bind to a session whose transaction the caller owns, to a write scope, or to an
        opener whose session the caller closes (see `opened`)."""
        if sum(given is not None for given in (session, scope, opener)) != 1:
            raise TypeError("a store needs a session, a write scope or a session opener")
        self._session, self._scope, self._opener = session, scope, opener
        self._bound: tuple[Connection, Any] | None = (
            (scope.connection, scope.raw) if scope is not None else None
        )

    @property
    def session(self) -> Session:
        """The ORM session of this unit of work (a write scope opens it on first use)."""
        if self._session is None:
            if self._opener is not None:
                self._session = self._opener()
            else:
                assert self._scope is not None  # one of the three, checked at construction
                self._session = self._scope.session
        return self._session

    @property
    def opened(self) -> Session | None:
        """The session an opener made, once something asked for it (else None)."""
        return self._session if self._opener is not None else None

    def _connection(self) -> tuple[Connection, Any]:
        """The unit's connection, and its sqlite3 connection on SQLite (else None); given by a
        write scope, else asked of the session once: the asking costs more than the
        statements it serves."""
        if self._bound is None:
            connection = self.session.connection()
            self._bound = (connection, sqlite_driver(connection=connection))
        return self._bound
