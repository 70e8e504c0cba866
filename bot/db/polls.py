"""ports.PollsStore's channel part over SQL: a channel's poll settings, its nominations (one
per paper, each with its paper's title) and its members' standing ballots."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import get_args

from sqlalchemy import ColumnElement, delete, func, select

from bot.db.convert import stored_utc, utc
from bot.db.engine import upsert_insert
from bot.db.schema import PaperRow
from bot.db.schema_polls import BallotRow, NominationRow, PollSettingsRow
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_of, channel_id_query, watched_channel_id
from bot.db.workspaces import in_workspace
from bot.domain import ChannelKey
from bot.meetings.ballots import Ballot
from bot.meetings.reminders import Before
from bot.ports.polls import NominationRecord, PollMode, PollSettings

_MODES: tuple[PollMode, ...] = get_args(PollMode)


def _mode(*, stored: str) -> PollMode:
    """A stored mode, checked: the column holds any string, the port two."""
    for mode in _MODES:
        if mode == stored:
            return mode
    raise ValueError(f"a poll's mode is one of {_MODES}, not {stored!r}")


def _settings(*, row: PollSettingsRow) -> PollSettings:
    """Domain settings from a row."""
    return PollSettings(
        mode=_mode(stored=row.mode),
        hidden=bool(row.hidden),
        weighted=bool(row.weighted),
        opens=Before(days=int(row.opens_days), minutes=int(row.opens_minutes)),
        closes=Before(days=int(row.closes_days), minutes=int(row.closes_minutes)),
        slate=int(row.slate),
    )


def _nomination(*, row: NominationRow, title: str, channel: ChannelKey) -> NominationRecord:
    """Domain nomination from a row, its paper's title and its channel's key."""
    return NominationRecord(
        id=row.id,
        channel=channel,
        paper_id=row.paper_id,
        title=title,
        nominated_by=row.nominated_by,
        nominated_at=utc(value=row.nominated_at),
        chosen_for=row.chosen_for,
    )


class SqlPolls(UnitBound):
    """ports.PollsStore: poll settings, nominations and ballots."""

    def poll_settings(self, *, channel: ChannelKey) -> PollSettings | None:
        """The channel's settings; None without a row."""
        row = self.session.scalar(
            select(PollSettingsRow)
            .where(PollSettingsRow.channel_id.in_(channel_id_query(channel=channel)))
            .execution_options(populate_existing=True)  # saved by a Core upsert meanwhile
        )
        return _settings(row=row) if row is not None else None

    def save_poll_settings(self, *, channel: ChannelKey, settings: PollSettings | None) -> None:
        """Upsert the channel's settings (its row made, watch_only, when missing); None
        deletes them."""
        if settings is None:
            self.session.execute(
                delete(PollSettingsRow).where(
                    PollSettingsRow.channel_id.in_(channel_id_query(channel=channel))
                )
            )
            return
        channel_id = watched_channel_id(session=self.session, channel=channel)
        values = {
            "mode": _mode(stored=settings.mode),
            "hidden": settings.hidden,
            "weighted": settings.weighted,
            "opens_days": settings.opens.days,
            "opens_minutes": settings.opens.minutes,
            "closes_days": settings.closes.days,
            "closes_minutes": settings.closes.minutes,
            "slate": settings.slate,
            "updated_at": func.now(),
        }
        insert = upsert_insert(session=self.session, table=PollSettingsRow.__table__)  # type: ignore[arg-type]
        self.session.execute(
            insert.values(channel_id=channel_id, **values).on_conflict_do_update(
                index_elements=["channel_id"], set_=values
            )
        )

    def nominate(
        self, *, channel: ChannelKey, paper_id: int, user: str, now: datetime
    ) -> tuple[NominationRecord, bool]:
        """INSERT ... ON CONFLICT DO NOTHING on the channel and paper, then read the one row:
        of two nominating the paper at once, one makes it and both get it. LookupError for a
        paper not in the channel's workspace."""
        held = self.session.scalar(
            select(PaperRow.id).where(
                PaperRow.id == paper_id, in_workspace(workspace=channel.workspace_key)
            )
        )
        if held is None:
            raise LookupError(f"no paper {paper_id} in {channel.workspace_key} to nominate")
        channel_id = watched_channel_id(session=self.session, channel=channel)
        insert = upsert_insert(session=self.session, table=NominationRow.__table__)  # type: ignore[arg-type]
        made = self.session.execute(
            insert.values(
                channel_id=channel_id,
                paper_id=paper_id,
                nominated_by=user,
                nominated_at=stored_utc(value=now),
            )
            .on_conflict_do_nothing(index_elements=["channel_id", "paper_id"])
            .returning(NominationRow.__table__.c.id)
        ).scalar_one_or_none()
        found = self._nominations(
            channel=channel,
            where=(NominationRow.channel_id == channel_id, NominationRow.paper_id == paper_id),
        )
        return found[0], made is not None

    def nominations(
        self, *, channel: ChannelKey, ids: Sequence[int] | None
    ) -> list[NominationRecord]:
        """The channel's nominations among `ids` (None: those not chosen), oldest first (by id
        among equals)."""
        which = (
            NominationRow.chosen_for.is_(None) if ids is None else NominationRow.id.in_(list(ids))
        )
        return self._nominations(
            channel=channel,
            where=(NominationRow.channel_id.in_(channel_id_query(channel=channel)), which),
        )

    def _nominations(
        self, *, channel: ChannelKey, where: Sequence[ColumnElement[bool]]
    ) -> list[NominationRecord]:
        """The channel's nominations that meet `where`, each with its paper's title."""
        rows = self.session.execute(
            select(NominationRow, PaperRow.title)
            .join(PaperRow, PaperRow.id == NominationRow.paper_id)
            .where(*where)
            .order_by(NominationRow.nominated_at, NominationRow.id)
            .execution_options(populate_existing=True)  # chosen by an UPDATE meanwhile
        )
        return [_nomination(row=row, title=title, channel=channel) for row, title in rows]

    def cast_ballot(
        self, *, channel: ChannelKey, voter: str, choices: Sequence[int], now: datetime
    ) -> None:
        """Upsert the voter's ballot on (channel, voter), its cast_at now's; no choices
        deletes it."""
        if not choices:
            self.session.execute(
                delete(BallotRow).where(
                    BallotRow.channel_id.in_(channel_id_query(channel=channel)),
                    BallotRow.voter == voter,
                )
            )
            return
        channel_id = watched_channel_id(session=self.session, channel=channel)
        values = {"choices": [int(choice) for choice in choices], "cast_at": stored_utc(value=now)}
        insert = upsert_insert(session=self.session, table=BallotRow.__table__)  # type: ignore[arg-type]
        self.session.execute(
            insert.values(channel_id=channel_id, voter=voter, **values).on_conflict_do_update(
                index_elements=["channel_id", "voter"], set_=values
            )
        )

    def ballots(self, *, channel: ChannelKey) -> list[Ballot]:
        """The channel's ballots by cast_at, then id: a ballot replaced keeps its id, so two
        cast at one instant keep the order the voters first cast theirs."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return []
        rows = self.session.execute(
            select(BallotRow.voter, BallotRow.choices)
            .where(BallotRow.channel_id == channel_id)
            .order_by(BallotRow.cast_at, BallotRow.id)
        )
        return [Ballot(voter=voter, choices=tuple(choices)) for voter, choices in rows]
