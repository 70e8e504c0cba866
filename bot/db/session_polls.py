"""ports.PollsStore's session part over SQL: each session's poll, opened once with its slate
and closed once with its winner, which is marked chosen for the session in the same
transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update

from bot.db.convert import stored_utc, utc
from bot.db.engine import upsert_insert
from bot.db.schema_polls import NominationRow, SessionPollRow
from bot.db.unit import UnitBound
from bot.ports.polls import SessionPoll, Tally


def tally_of(*, mode: str | None, counts: list[list[float]] | None) -> Tally | None:
    """A stored tally read back (None: none kept)."""
    if mode not in ("approval", "ranked") or counts is None:
        return None
    return Tally(
        mode="ranked" if mode == "ranked" else "approval",
        counts=tuple((int(n), float(v)) for n, v in counts),
    )


class SqlSessionPolls(UnitBound):
    """ports.PollsStore: each session's poll."""

    def session_poll(self, *, session_id: int) -> SessionPoll | None:
        """The session's poll; None before it opened."""
        row = self.session.scalar(
            select(SessionPollRow)
            .where(SessionPollRow.session_id == session_id)
            .execution_options(populate_existing=True)  # closed by an UPDATE meanwhile
        )
        if row is None:
            return None
        return SessionPoll(
            session_id=row.session_id,
            slate=tuple(int(nomination) for nomination in row.slate),
            opened_at=utc(value=row.opened_at),
            closed_at=utc(value=row.closed_at) if row.closed_at is not None else None,
            winner=row.winner,
            tally=tally_of(mode=row.mode, counts=row.counts),
        )

    def open_poll(self, *, session_id: int, slate: Sequence[int], now: datetime) -> bool:
        """INSERT ... ON CONFLICT DO NOTHING on the session: False when another sweep or
        replica opened it first (its slate stands)."""
        insert = upsert_insert(session=self.session, table=SessionPollRow.__table__)  # type: ignore[arg-type]
        made = self.session.execute(
            insert.values(
                session_id=session_id,
                slate=[int(nomination) for nomination in slate],
                opened_at=stored_utc(value=now),
            )
            .on_conflict_do_nothing(index_elements=["session_id"])
            .returning(SessionPollRow.__table__.c.session_id)
        ).scalar_one_or_none()
        return made is not None

    def close_poll(
        self, *, session_id: int, winner: int | None, now: datetime, tally: Tally | None = None
    ) -> bool:
        """One conditional UPDATE (closed_at still NULL), so of two closers one wins; the one
        that closed it marks its winner chosen for the session."""
        closed = self.session.execute(
            update(SessionPollRow)
            .where(SessionPollRow.session_id == session_id, SessionPollRow.closed_at.is_(None))
            .values(
                closed_at=stored_utc(value=now),
                winner=winner,
                mode=tally.mode if tally is not None else None,
                counts=[[n, v] for n, v in tally.counts] if tally is not None else None,
            )
        )
        if not getattr(closed, "rowcount", 0):
            return False
        if winner is not None:
            self.session.execute(
                update(NominationRow)
                .where(NominationRow.id == winner)
                .values(chosen_for=session_id)
            )
        return True

    def release_choice(self, *, session_id: int) -> bool:
        """Free the nomination chosen for a session (cancelled since) for later polls."""
        released = self.session.execute(
            update(NominationRow)
            .where(NominationRow.chosen_for == session_id)
            .values(chosen_for=None)
        )
        return bool(getattr(released, "rowcount", 0))

    def chosen_paper(self, *, session_id: int) -> int | None:
        """The paper of the session's poll's winner; None while open, when nobody voted, or
        when its nomination is gone."""
        found = self.session.scalar(
            select(NominationRow.paper_id)
            .join(SessionPollRow, SessionPollRow.winner == NominationRow.id)
            .where(SessionPollRow.session_id == session_id)
        )
        return int(found) if found is not None else None
