"""ports.MeetingsStore's notices and RSVPs over SQL: a message about a session that goes out once
(opened once per session and kind, claimed by its sender, noted with its message, as a tray
is: bot/db/trays.py), and each member's answer to a session."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from sqlalchemy import delete, select, update

from bot.db.convert import channel_key, stored_utc, utc
from bot.db.engine import upsert_insert
from bot.db.schema import ChannelRow
from bot.db.schema_meetings import MeetingNoticeRow, RsvpRow, SessionRow
from bot.db.unit import UnitBound
from bot.domain import ChannelKey
from bot.meetings.ballots import Rsvp
from bot.ports.meetings import Notice


def _notice(*, row: MeetingNoticeRow, channel: ChannelKey) -> Notice:
    """Domain notice from a row and its session's channel key."""
    return Notice(
        id=row.id,
        session_id=row.session_id,
        channel=channel,
        kind=row.kind,
        opened_at=utc(value=row.opened_at),
        claimed_by=row.claimed_by,
        claimed_at=utc(value=row.claimed_at) if row.claimed_at else None,
        refused_at=utc(value=row.refused_at) if row.refused_at else None,
        message_id=row.message_id,
    )


class SqlMeetingNotices(UnitBound):
    """ports.MeetingsStore: notices and RSVPs."""

    def open_notice(self, *, session_id: int, kind: str, now: datetime) -> Notice | None:
        """INSERT ... ON CONFLICT DO NOTHING on the session and kind: None when it was opened
        before, here or by another replica. LookupError for a session that does not exist."""
        owner = self.session.scalar(
            select(ChannelRow)
            .join(SessionRow, SessionRow.channel_id == ChannelRow.id)
            .where(SessionRow.id == session_id)
        )
        if owner is None:
            raise LookupError(f"no session {session_id} to open a notice of")
        opened_at = stored_utc(value=now)
        insert = upsert_insert(session=self.session, table=MeetingNoticeRow.__table__)  # type: ignore[arg-type]
        notice_id = self.session.execute(
            insert.values(session_id=session_id, kind=kind, opened_at=opened_at)
            .on_conflict_do_nothing(index_elements=["session_id", "kind"])
            .returning(MeetingNoticeRow.__table__.c.id)
        ).scalar_one_or_none()
        if notice_id is None:
            return None
        return Notice(
            id=int(notice_id),
            session_id=session_id,
            channel=channel_key(row=owner),
            kind=kind,
            opened_at=opened_at,
        )

    def claim_notice(
        self, *, notice_id: int, owner: str, now: datetime, holder: str | None
    ) -> bool:
        """Take or renew the claim on a notice not noted yet for `owner`, only while `holder`
        holds it (None: nobody): one conditional UPDATE, so of two takers one wins."""
        held = (
            MeetingNoticeRow.claimed_by.is_(None)
            if holder is None
            else MeetingNoticeRow.claimed_by == holder
        )
        done = self.session.execute(
            update(MeetingNoticeRow)
            .where(MeetingNoticeRow.id == notice_id, MeetingNoticeRow.message_id.is_(None), held)
            .values(claimed_by=owner, claimed_at=stored_utc(value=now))
        )
        return bool(getattr(done, "rowcount", 0))

    def notice_refused(self, *, notice_id: int, at: datetime | None) -> None:
        """Note that the platform refused the notice outright at `at` (None: a new try)."""
        self.session.execute(
            update(MeetingNoticeRow)
            .where(MeetingNoticeRow.id == notice_id)
            .values(refused_at=stored_utc(value=at) if at is not None else None)
        )

    def notice_sent(self, *, notice_id: int, message_id: str) -> None:
        """Keep the notice's message id ("" when it may have gone out)."""
        self.session.execute(
            update(MeetingNoticeRow)
            .where(MeetingNoticeRow.id == notice_id)
            .values(message_id=message_id)
        )

    def unsent_notices(self, *, platform: str, since: datetime) -> list[Notice]:
        """The platform's notices opened at `since` or later with no message, oldest opened
        first."""
        rows = self.session.execute(
            select(MeetingNoticeRow, ChannelRow)
            .join(SessionRow, SessionRow.id == MeetingNoticeRow.session_id)
            .join(ChannelRow, ChannelRow.id == SessionRow.channel_id)
            .where(
                ChannelRow.platform == platform,
                MeetingNoticeRow.message_id.is_(None),
                MeetingNoticeRow.opened_at >= stored_utc(value=since),
            )
            .order_by(MeetingNoticeRow.opened_at, MeetingNoticeRow.id)
            .execution_options(populate_existing=True)  # claimed by an UPDATE meanwhile
        )
        return [_notice(row=row, channel=channel_key(row=owner)) for row, owner in rows]

    def notices_of(self, *, session_id: int) -> list[Notice]:
        """The session's notices, oldest opened first."""
        rows = self.session.execute(
            select(MeetingNoticeRow, ChannelRow)
            .join(SessionRow, SessionRow.id == MeetingNoticeRow.session_id)
            .join(ChannelRow, ChannelRow.id == SessionRow.channel_id)
            .where(MeetingNoticeRow.session_id == session_id)
            .order_by(MeetingNoticeRow.opened_at, MeetingNoticeRow.id)
            .execution_options(populate_existing=True)
        )
        return [_notice(row=row, channel=channel_key(row=owner)) for row, owner in rows]

    def set_rsvp(self, *, session_id: int, user: str, answer: Rsvp | None, now: datetime) -> bool:
        """Upsert the member's answer, the row left alone when it already says so (the
        conflict's update is conditional: RETURNING gives nothing); None deletes it. Whether
        it changed."""
        if answer is None:
            gone = self.session.execute(
                delete(RsvpRow).where(RsvpRow.session_id == session_id, RsvpRow.user_id == user)
            )
            return bool(getattr(gone, "rowcount", 0))
        table = RsvpRow.__table__
        insert = upsert_insert(session=self.session, table=table)  # type: ignore[arg-type]
        changed = self.session.execute(
            insert.values(
                session_id=session_id,
                user_id=user,
                answer=answer.value,
                answered_at=stored_utc(value=now),
            )
            .on_conflict_do_update(
                index_elements=["session_id", "user_id"],
                set_={"answer": insert.excluded.answer, "answered_at": insert.excluded.answered_at},
                where=RsvpRow.answer != insert.excluded.answer,
            )
            .returning(table.c.session_id)
        ).first()
        return changed is not None

    def rsvps(self, *, session_id: int) -> Mapping[str, Rsvp]:
        """Every member's answer to the session, by user id."""
        rows = self.session.execute(
            select(RsvpRow.user_id, RsvpRow.answer).where(RsvpRow.session_id == session_id)
        )
        return {user: Rsvp(answer) for user, answer in rows}
