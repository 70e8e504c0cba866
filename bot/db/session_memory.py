"""ports.SessionMemoryStore over SQL: members' ratings of a session (one row a member, each
question's answer changed in place) and the links added to it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime

from sqlalchemy import select

from bot.db.convert import stored_utc, utc
from bot.db.engine import upsert_insert
from bot.db.schema_meetings import SessionRow
from bot.db.schema_polls import NominationRow, SessionPollRow
from bot.db.schema_session_memory import SessionLinkRow, SessionRatingRow
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_query
from bot.domain import ChannelKey
from bot.domain.ratings import RatingCount
from bot.ports.session_memory import Question, Rating, SessionLink


def _counted(*, worth: bool | None, discussion: bool | None) -> RatingCount:
    """One member's rating as counts."""
    return RatingCount(
        worth=int(worth is True),
        not_worth=int(worth is False),
        lively=int(discussion is True),
        quiet=int(discussion is False),
    )


class SqlSessionMemory(UnitBound):
    """ports.SessionMemoryStore."""

    def rate_session(
        self, *, session_id: int, user: str, question: Question, answer: bool, now: datetime
    ) -> bool:
        """Upsert the member's row with the one question's answer, left alone when it says
        so already (the conflict's update is conditional: RETURNING gives nothing)."""
        table = SessionRatingRow.__table__
        insert = upsert_insert(session=self.session, table=table)  # type: ignore[arg-type]
        column = table.c[question]
        changed = self.session.execute(
            insert.values(
                session_id=session_id,
                user_id=user,
                rated_at=stored_utc(value=now),
                **{question: answer},
            )
            .on_conflict_do_update(
                index_elements=["session_id", "user_id"],
                set_={question: insert.excluded[question], "rated_at": insert.excluded.rated_at},
                where=column.is_distinct_from(insert.excluded[question]),
            )
            .returning(table.c.session_id)
        ).first()
        return changed is not None

    def ratings(self, *, session_id: int) -> Mapping[str, Rating]:
        """Every member's row of the session, by user id."""
        rows = self.session.execute(
            select(
                SessionRatingRow.user_id, SessionRatingRow.worth, SessionRatingRow.discussion
            ).where(SessionRatingRow.session_id == session_id)
        )
        return {user: Rating(worth=worth, discussion=talk) for user, worth, talk in rows}

    def rated_papers(self, *, channel: ChannelKey) -> Mapping[int, RatingCount]:
        """The ratings of the channel's sessions held (not cancelled) whose poll chose a
        paper, summed by that paper."""
        rows = self.session.execute(
            select(NominationRow.paper_id, SessionRatingRow.worth, SessionRatingRow.discussion)
            .select_from(SessionRatingRow)
            .join(SessionRow, SessionRow.id == SessionRatingRow.session_id)
            .join(SessionPollRow, SessionPollRow.session_id == SessionRow.id)
            .join(NominationRow, NominationRow.id == SessionPollRow.winner)
            .where(
                SessionRow.channel_id.in_(channel_id_query(channel=channel)),
                SessionRow.cancelled.is_(False),
            )
        )
        found: defaultdict[int, RatingCount] = defaultdict(RatingCount)
        for paper_id, worth, talk in rows:
            found[int(paper_id)] += _counted(worth=worth, discussion=talk)
        return dict(found)

    def add_session_link(self, *, session_id: int, url: str, user: str, now: datetime) -> bool:
        """INSERT ... ON CONFLICT DO NOTHING on the session and address."""
        table = SessionLinkRow.__table__
        insert = upsert_insert(session=self.session, table=table)  # type: ignore[arg-type]
        made = self.session.execute(
            insert.values(
                session_id=session_id, url=url, added_by=user, added_at=stored_utc(value=now)
            )
            .on_conflict_do_nothing(index_elements=["session_id", "url"])
            .returning(table.c.id)
        ).scalar_one_or_none()
        return made is not None

    def session_links(self, *, session_id: int) -> list[SessionLink]:
        """The session's links in the order added."""
        rows = self.session.execute(
            select(SessionLinkRow.url, SessionLinkRow.added_by, SessionLinkRow.added_at)
            .where(SessionLinkRow.session_id == session_id)
            .order_by(SessionLinkRow.id)
        )
        return [SessionLink(url=url, added_by=by, added_at=utc(value=at)) for url, by, at in rows]
