"""One unit of work's binding (its session, write scope or session opener), the base of each
role's SQL class, which works on it, and `Offer`, which puts a role's method on the store."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, TypeVar, overload

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from bot.db.delivered import DeliveredPosts
from bot.db.engine import sqlite_driver
from bot.db.group_commit import WriteScope

Role = TypeVar("Role", bound="UnitBound")
P = ParamSpec("P")
T = TypeVar("T")


class Unit:
    """A unit of work's session, or a group commit's scope (its connection at once, its
    session only when a method asks for one: the hot path never does), or a way to open a
    read session (opened on first use: most reactions and replies are answered from the memo
    of delivered posts, and opening a session cost them more than the rest of the look-up).
    Every role of one unit shares it, so they share one session and transaction; each role
    object is made once, on first use (`role`)."""

    def __init__(
        self,
        *,
        session: Session | None = None,
        scope: WriteScope | None = None,
        opener: Callable[[], Session] | None = None,
        delivered: DeliveredPosts | None = None,
    ) -> None:
        """Bind to a session whose transaction the caller owns, to a write scope, or to an
        opener whose session the caller closes (see `opened`); `delivered`: the database's
        memo of delivered posts, shared by its units of work."""
        if sum(given is not None for given in (session, scope, opener)) != 1:
            raise TypeError("a store needs a session, a write scope or a session opener")
        self._session, self.scope, self._opener = session, scope, opener
        self._bound: tuple[Connection, Any] | None = (
            (scope.connection, scope.raw) if scope is not None else None
        )
        self.delivered = delivered if delivered is not None else DeliveredPosts()
        self._roles: dict[type[UnitBound], UnitBound] = {}

    def role(self, kind: type[Role]) -> Role:
        """The unit's one `kind` object, made on first use (most units use a role or two)."""
        made = self._roles.get(kind)
        if isinstance(made, kind):
            return made
        new = kind(unit=self)
        self._roles[kind] = new
        return new

    @property
    def session(self) -> Session:
        """The ORM session of this unit of work (a write scope opens it on first use)."""
        if self._session is None:
            if self._opener is not None:
                self._session = self._opener()
            else:
                assert self.scope is not None  # one of the three, checked at construction
                self._session = self.scope.session
        return self._session

    @property
    def opened(self) -> Session | None:
        """The session an opener made, once something asked for it (else None)."""
        return self._session if self._opener is not None else None

    def connection(self) -> tuple[Connection, Any]:
        """The unit's connection, and its sqlite3 connection on SQLite (else None); given by a
        write scope, else asked of the session once: the asking costs more than the
        statements it serves."""
        if self._bound is None:
            connection = self.session.connection()
            self._bound = (connection, sqlite_driver(connection=connection))
        return self._bound


class UnitBound:
    """A role's SQL class: it works on the unit of work it is given."""

    def __init__(self, *, unit: Unit) -> None:
        """Work on `unit`'s session and transaction."""
        self.unit = unit

    @property
    def session(self) -> Session:
        """The ORM session of the unit of work."""
        return self.unit.session

    def _connection(self) -> tuple[Connection, Any]:
        """The unit's connection, and its sqlite3 connection on SQLite (else None)."""
        return self.unit.connection()


class OnUnit(Protocol):
    """What a role's methods are offered on: anything holding a unit of work (the store)."""

    unit: Unit


class Offer(Generic[Role, P, T]):
    """A role's method offered as the store's own: `name = Offer(SqlRole, SqlRole.name)` in
    the store's class. Read on a store, it is `method` bound to the store's unit's `SqlRole`
    object, with the method's own signature, so mypy checks the store against its ports."""

    def __init__(self, kind: type[Role], method: Callable[Concatenate[Role, P], T]) -> None:
        """Offer `method` of the role class `kind`."""
        self.kind, self.method = kind, method

    @overload
    def __get__(self, store: None, owner: type[object]) -> Offer[Role, P, T]: ...

    @overload
    def __get__(self, store: OnUnit, owner: type[object] | None = None) -> Callable[P, T]: ...

    def __get__(
        self, store: OnUnit | None, owner: type[object] | None = None
    ) -> Offer[Role, P, T] | Callable[P, T]:
        """The method bound to the store's role object (on the class: this offer)."""
        if store is None:
            return self
        role, method = store.unit.role(self.kind), self.method

        def bound(*args: P.args, **kwargs: P.kwargs) -> T:
            return method(role, *args, **kwargs)

        return bound
