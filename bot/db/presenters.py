"""ports.PresentersStore's session part over SQL: each session's presenter (set once by the
rotation, replaced by a volunteer or a swap) and the swaps asked for (decided once)."""

from __future__ import annotations

from datetime import date, datetime
from typing import get_args

from sqlalchemy import case, func, insert, select, update

from bot.db.convert import channel_key, stored_utc, utc
from bot.db.engine import upsert_insert
from bot.db.schema import ChannelRow
from bot.db.schema_meetings import SessionRow
from bot.db.schema_presenters import SessionPresenterRow, SwapRow
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_of, channel_id_query
from bot.domain import ChannelKey
from bot.meetings.meeting import zone_of
from bot.ports.presenters import How, Presenter, Swap

_HOWS: tuple[How, ...] = get_args(How)


def stored_how(*, stored: str) -> How:
    """A stored how, checked: the column holds any string, the port three."""
    for how in _HOWS:
        if how == stored:
            return how
    raise ValueError(f"a presenter's how is one of {_HOWS}, not {stored!r}")


class SqlPresenters(UnitBound):
    """ports.PresentersStore: sessions' presenters and swaps."""

    def presenters(self, *, channel: ChannelKey) -> list[tuple[date, str]]:
        """The channel's sessions with a presenter by start_at, then id, each dated by its
        start in its own zone (a moved session on the day it moved to). Cancelled sessions
        are left out: nobody presented at them."""
        rows = self.session.execute(
            select(SessionRow.start_at, SessionRow.zone, SessionPresenterRow.user_id)
            .join(SessionPresenterRow, SessionPresenterRow.session_id == SessionRow.id)
            .where(
                SessionRow.channel_id.in_(channel_id_query(channel=channel)),
                SessionRow.cancelled.is_(False),
            )
            .order_by(SessionRow.start_at, SessionRow.id)
        )
        return [
            (utc(value=start_at).astimezone(zone_of(name=zone)).date(), user)
            for start_at, zone, user in rows
        ]

    def presenter_of(self, *, session_id: int) -> Presenter | None:
        """The session's row, read as columns (an upsert may have changed it meanwhile)."""
        row = self.session.execute(
            select(
                SessionPresenterRow.user_id,
                SessionPresenterRow.how,
                SessionPresenterRow.assigned_at,
                SessionPresenterRow.told_at,
            ).where(SessionPresenterRow.session_id == session_id)
        ).first()
        if row is None:
            return None
        user, how, assigned_at, told_at = row
        return Presenter(
            session_id=session_id,
            user=user,
            how=stored_how(stored=how),
            assigned_at=utc(value=assigned_at),
            told_at=utc(value=told_at) if told_at is not None else None,
        )

    def assign_presenter(
        self, *, session_id: int, user: str, how: How, now: datetime, replace: bool
    ) -> bool:
        """INSERT ... ON CONFLICT DO NOTHING on the session (`replace` False: of two sweeps
        choosing at once, one sets it), or an upsert whose told_at goes back to NULL when the
        presenter changes (the same one, kept, was told already). LookupError for a session
        that does not exist."""
        if self.session.scalar(select(SessionRow.id).where(SessionRow.id == session_id)) is None:
            raise LookupError(f"no session {session_id} to assign a presenter to")
        table = SessionPresenterRow.__table__
        upsert = upsert_insert(session=self.session, table=table)  # type: ignore[arg-type]
        values = upsert.values(
            session_id=session_id,
            user_id=user,
            how=stored_how(stored=how),
            assigned_at=stored_utc(value=now),
        )
        if not replace:
            made = self.session.execute(
                values.on_conflict_do_nothing(index_elements=["session_id"]).returning(
                    table.c.session_id
                )
            ).scalar_one_or_none()
            return made is not None
        self.session.execute(
            values.on_conflict_do_update(
                index_elements=["session_id"],
                set_={
                    "user_id": upsert.excluded.user_id,
                    "how": upsert.excluded.how,
                    "assigned_at": upsert.excluded.assigned_at,
                    "told_at": case(
                        (table.c.user_id == upsert.excluded.user_id, table.c.told_at),
                        else_=None,
                    ),
                },
            )
        )
        return True

    def presenter_told(self, *, session_id: int, now: datetime) -> None:
        """Note told_at on the session's row."""
        self.session.execute(
            update(SessionPresenterRow)
            .where(SessionPresenterRow.session_id == session_id)
            .values(told_at=stored_utc(value=now))
        )

    def ask_swap(
        self,
        *,
        channel: ChannelKey,
        asked_by: str,
        asked_of: str,
        their_session: int,
        other_session: int,
        now: datetime,
    ) -> int:
        """Insert the swap, undecided. LookupError when either session is not the channel's."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        sessions = {their_session, other_session}
        found = self.session.scalars(
            select(SessionRow.id).where(
                SessionRow.id.in_(sessions), SessionRow.channel_id == channel_id
            )
        ).all()
        if channel_id is None or set(found) != sessions:
            raise LookupError(f"sessions {sorted(sessions)} are not all {channel}'s")
        made = self.session.execute(
            insert(SwapRow)
            .values(
                channel_id=channel_id,
                asked_by=asked_by,
                asked_of=asked_of,
                their_session=their_session,
                other_session=other_session,
                asked_at=stored_utc(value=now),
            )
            .returning(SwapRow.id)
        ).scalar_one()
        return int(made)

    def swap(self, *, swap_id: int) -> Swap | None:
        """The swap's row, read as columns (decided by an UPDATE meanwhile), with its
        channel's key."""
        found = self.session.execute(
            select(
                SwapRow.asked_by,
                SwapRow.asked_of,
                SwapRow.their_session,
                SwapRow.other_session,
                SwapRow.asked_at,
                SwapRow.accepted,
                ChannelRow,
            )
            .join(ChannelRow, ChannelRow.id == SwapRow.channel_id)
            .where(SwapRow.id == swap_id)
        ).first()
        if found is None:
            return None
        asked_by, asked_of, their_session, other_session, asked_at, accepted, channel = found
        return Swap(
            id=swap_id,
            channel=channel_key(row=channel),
            asked_by=asked_by,
            asked_of=asked_of,
            their_session=their_session,
            other_session=other_session,
            asked_at=utc(value=asked_at),
            accepted=bool(accepted) if accepted is not None else None,
        )

    def decide_swap(self, *, swap_id: int, accepted: bool) -> bool:
        """One conditional UPDATE (accepted still NULL): of two deciding at once, one does;
        decided_at by the database's clock."""
        decided = self.session.execute(
            update(SwapRow)
            .where(SwapRow.id == swap_id, SwapRow.accepted.is_(None))
            .values(accepted=accepted, decided_at=func.now())
        )
        return bool(getattr(decided, "rowcount", 0))
