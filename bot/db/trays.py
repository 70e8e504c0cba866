"""ports.SourcesStore's trays over SQL: a channel's tray of a local day (at most one, its
suggestions in rank order, the message that shows it) and the channel's tray settings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from sqlalchemy import insert as insert_rows
from sqlalchemy import select, update

from bot.db.convert import channel_key, utc
from bot.db.engine import upsert_insert
from bot.db.schema import ChannelRow
from bot.db.schema_sources import SuggestionRow, TrayItemRow, TrayRow, TraySettingsRow
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_of, watched_channel_id
from bot.domain import ChannelKey
from bot.ports.sources import Pick, Tray, TraySettings


class SqlTrays(UnitBound):
    """ports.SourcesStore: trays and tray settings."""

    def _tray(self, *, row: TrayRow, channel: ChannelKey) -> Tray:
        """Domain tray from a row, its items read in rank order."""
        items = self.session.scalars(
            select(TrayItemRow.suggestion_id)
            .where(TrayItemRow.tray_id == row.id)
            .order_by(TrayItemRow.rank)
        )
        return Tray(
            id=row.id,
            channel=channel,
            day=row.day,
            suggestion_ids=tuple(int(i) for i in items),
            message_id=row.message_id,
            opened_at=utc(value=row.opened_at),
            refused_at=utc(value=row.refused_at) if row.refused_at else None,
            claimed_by=row.claimed_by,
            claimed_at=utc(value=row.claimed_at) if row.claimed_at else None,
        )

    def tray_on(self, *, channel: ChannelKey, day: date) -> Tray | None:
        """The channel's tray of `day`."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return None
        row = self.session.scalar(
            select(TrayRow)
            .where(TrayRow.channel_id == channel_id, TrayRow.day == day)
            .execution_options(populate_existing=True)  # posted by an UPDATE meanwhile
        )
        return self._tray(row=row, channel=channel) if row is not None else None

    def open_tray(
        self, *, channel: ChannelKey, day: date, picks: Sequence[Pick], now: datetime
    ) -> Tray | None:
        """In this unit's one transaction: the tray (INSERT ... ON CONFLICT DO NOTHING on the
        channel and day: a second opener gets None), earlier days' shown suggestions passed,
        the picks marked shown (those still waiting: one decided meanwhile stays decided) and
        held in the given order. Picks of another channel's suggestions, and a second pick of
        one, are left out. A channel with no row has no suggestions to show: None."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return None
        insert = upsert_insert(session=self.session, table=TrayRow.__table__)  # type: ignore[arg-type]
        tray_id = self.session.execute(
            insert.values(channel_id=channel_id, day=day, opened_at=now)
            .on_conflict_do_nothing(index_elements=["channel_id", "day"])
            .returning(TrayRow.__table__.c.id)
        ).scalar_one_or_none()
        if tray_id is None:
            return None
        wanted = list(dict.fromkeys(pick.suggestion_id for pick in picks))
        mine = set(
            self.session.scalars(
                select(SuggestionRow.id).where(
                    SuggestionRow.id.in_(wanted), SuggestionRow.channel_id == channel_id
                )
            )
        )
        first: dict[int, Pick] = {}
        for pick in picks:
            if pick.suggestion_id in mine:
                first.setdefault(pick.suggestion_id, pick)
        chosen = list(first.values())
        self.session.execute(
            update(SuggestionRow)
            .where(
                SuggestionRow.channel_id == channel_id,
                SuggestionRow.state == "shown",
                SuggestionRow.shown_on < day,
            )
            .values(state="passed")
        )
        for pick in chosen:
            self.session.execute(
                update(SuggestionRow)
                .where(SuggestionRow.id == pick.suggestion_id, SuggestionRow.state == "waiting")
                .values(
                    state="shown",
                    reason_kind=pick.reason.kind,
                    reason_value=pick.reason.value,
                    reason_count=pick.reason.count,
                    score=pick.score,
                    shown_on=day,
                )
            )
        if chosen:
            self.session.execute(
                insert_rows(TrayItemRow),
                [
                    {"tray_id": tray_id, "rank": rank, "suggestion_id": pick.suggestion_id}
                    for rank, pick in enumerate(chosen)
                ],
            )
        return Tray(
            id=int(tray_id),
            channel=channel,
            day=day,
            suggestion_ids=tuple(pick.suggestion_id for pick in chosen),
            message_id=None,
            opened_at=now,
        )

    def tray_posted(self, *, tray_id: int, message_id: str) -> None:
        """Keep the tray's message id."""
        self.session.execute(
            update(TrayRow).where(TrayRow.id == tray_id).values(message_id=message_id)
        )

    def claim_tray(self, *, tray_id: int, owner: str, now: datetime, holder: str | None) -> bool:
        """Take or renew the claim on an unposted tray for `owner`, only while `holder` holds it
        (None: nobody): one conditional UPDATE, so of two takers one wins."""
        held = TrayRow.claimed_by.is_(None) if holder is None else TrayRow.claimed_by == holder
        done = self.session.execute(
            update(TrayRow)
            .where(TrayRow.id == tray_id, TrayRow.message_id.is_(None), held)
            .values(claimed_by=owner, claimed_at=now)
        )
        return bool(getattr(done, "rowcount", 0))

    def tray_refused(self, *, tray_id: int, at: datetime | None) -> None:
        """Note that the platform refused the tray outright at `at` (None: a new try begins)."""
        self.session.execute(update(TrayRow).where(TrayRow.id == tray_id).values(refused_at=at))

    def unposted_trays(self, *, platform: str, since: date) -> list[Tray]:
        """The platform's trays of `since` or later with no message, oldest opened first."""
        rows = self.session.execute(
            select(TrayRow, ChannelRow)
            .join(ChannelRow, ChannelRow.id == TrayRow.channel_id)
            .where(
                ChannelRow.platform == platform,
                TrayRow.message_id.is_(None),
                TrayRow.day >= since,
            )
            .order_by(TrayRow.opened_at, TrayRow.id)
            .execution_options(populate_existing=True)
        )
        return [self._tray(row=row, channel=channel_key(row=owner)) for row, owner in rows]

    def tray_of(self, *, suggestion_id: int) -> Tray | None:
        """The latest day's tray holding the suggestion."""
        found = self.session.execute(
            select(TrayRow, ChannelRow)
            .join(TrayItemRow, TrayItemRow.tray_id == TrayRow.id)
            .join(ChannelRow, ChannelRow.id == TrayRow.channel_id)
            .where(TrayItemRow.suggestion_id == suggestion_id)
            .order_by(TrayRow.day.desc(), TrayRow.id.desc())
            .limit(1)
            .execution_options(populate_existing=True)
        ).first()
        if found is None:
            return None
        row, owner = found
        return self._tray(row=row, channel=channel_key(row=owner))

    def tray_settings(self, *, channel: ChannelKey) -> TraySettings:
        """The channel's settings, or the defaults."""
        row = self.session.scalar(
            select(TraySettingsRow)
            .join(ChannelRow, ChannelRow.id == TraySettingsRow.channel_id)
            .where(
                ChannelRow.platform == channel.platform,
                ChannelRow.workspace == channel.workspace,
                ChannelRow.external_id == channel.channel,
            )
            .execution_options(populate_existing=True)  # saved by a Core upsert meanwhile
        )
        if row is None:
            return TraySettings()
        return TraySettings(
            per_day=int(row.per_day),
            autofill=bool(row.autofill),
            autofill_below=int(row.autofill_below),
        )

    def save_tray_settings(self, *, channel: ChannelKey, settings: TraySettings) -> None:
        """Upsert the channel's settings (its row made, watch_only, when missing)."""
        channel_id = watched_channel_id(session=self.session, channel=channel)
        values = {
            "per_day": settings.per_day,
            "autofill": settings.autofill,
            "autofill_below": settings.autofill_below,
        }
        insert = upsert_insert(session=self.session, table=TraySettingsRow.__table__)  # type: ignore[arg-type]
        self.session.execute(
            insert.values(channel_id=channel_id, **values).on_conflict_do_update(
                index_elements=["channel_id"], set_=values
            )
        )
