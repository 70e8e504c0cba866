"""ports.SessionHistoryStore over SQL: a workspace's (or a channel's) sessions with their polls,
presenters and RSVPs, in five statements whatever their number (the export reads years)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, select

from bot.db.convert import channel_key, stored_utc, utc
from bot.db.meeting_sessions import to_session_record
from bot.db.presenters import stored_how
from bot.db.schema import ChannelRow, PaperRow
from bot.db.schema_meetings import RsvpRow, SessionRow
from bot.db.schema_polls import NominationRow, SessionPollRow
from bot.db.schema_presenters import SessionPresenterRow
from bot.db.schema_session_memory import SessionLinkRow, SessionRatingRow
from bot.db.session_polls import tally_of
from bot.db.unit import UnitBound
from bot.domain import ChannelKey, WorkspaceKey
from bot.meetings.ballots import Rsvp
from bot.ports.presenters import Presenter
from bot.ports.session_history import PollHistory, SessionHistory, SlatePaper
from bot.ports.session_memory import Rating


def _channels(*, workspace: WorkspaceKey, channel: ChannelKey | None) -> list[ColumnElement[bool]]:
    """The channels asked for, as conditions on ChannelRow."""
    where = [ChannelRow.platform == workspace.platform, ChannelRow.workspace == workspace.id]
    if channel is not None:
        where.append(ChannelRow.external_id == channel.channel)
    return where


def _starts(*, since: datetime | None, until: datetime | None) -> list[ColumnElement[bool]]:
    """The span asked for, as conditions on SessionRow."""
    where = []
    if since is not None:
        where.append(SessionRow.start_at >= stored_utc(value=since))
    if until is not None:
        where.append(SessionRow.start_at < stored_utc(value=until))
    return where


def _poll(*, row: SessionPollRow, papers: Mapping[int, tuple[int, str]]) -> PollHistory:
    """A stored poll with its slate's papers (nomination id to paper id and title)."""
    tally = tally_of(mode=row.mode, counts=row.counts)
    votes = dict(tally.counts) if tally is not None else {}
    slate = tuple(
        SlatePaper(
            nomination=int(n),
            paper_id=papers[int(n)][0],
            title=papers[int(n)][1],
            votes=votes.get(int(n), 0.0) if tally is not None else None,
        )
        for n in row.slate
        if int(n) in papers
    )
    return PollHistory(
        opened_at=utc(value=row.opened_at),
        closed_at=utc(value=row.closed_at) if row.closed_at is not None else None,
        mode=tally.mode if tally is not None else None,
        slate=slate,
        winner=next((p for p in slate if p.nomination == row.winner), None),
    )


class SqlSessionHistory(UnitBound):
    """ports.SessionHistoryStore: sessions with what happened around them."""

    def session_history(
        self,
        *,
        workspace: WorkspaceKey,
        channel: ChannelKey | None,
        since: datetime | None,
        until: datetime | None,
    ) -> list[SessionHistory]:
        """One statement for the sessions, one each for their polls, the slates' papers,
        presenters, RSVPs, ratings and links (each limited to the same sessions by a
        subquery)."""
        in_channels = _channels(workspace=workspace, channel=channel)
        where = in_channels + _starts(since=since, until=until)
        rows = self.session.execute(
            select(SessionRow, ChannelRow)
            .join(ChannelRow, ChannelRow.id == SessionRow.channel_id)
            .where(*where)
            .order_by(SessionRow.start_at, SessionRow.id)
        ).all()
        if not rows:
            return []
        ids = (
            select(SessionRow.id)
            .join(ChannelRow, ChannelRow.id == SessionRow.channel_id)
            .where(*where)
        )
        channels = select(ChannelRow.id).where(*in_channels)
        polls = {
            row.session_id: row
            for row in self.session.scalars(
                select(SessionPollRow).where(SessionPollRow.session_id.in_(ids))
            )
        }
        papers: dict[int, tuple[int, str]] = {}
        if polls:
            found = self.session.execute(
                select(NominationRow.id, NominationRow.paper_id, PaperRow.title)
                .join(PaperRow, PaperRow.id == NominationRow.paper_id)
                .where(NominationRow.channel_id.in_(channels))
            )
            papers = {int(n): (int(paper), title) for n, paper, title in found}
        presenters = {
            row.session_id: Presenter(
                session_id=row.session_id,
                user=row.user_id,
                how=stored_how(stored=row.how),
                assigned_at=utc(value=row.assigned_at),
                told_at=utc(value=row.told_at) if row.told_at is not None else None,
            )
            for row in self.session.scalars(
                select(SessionPresenterRow).where(SessionPresenterRow.session_id.in_(ids))
            )
        }
        rsvps: dict[int, list[tuple[str, Rsvp]]] = {}
        for session_id, user, answer in self.session.execute(
            select(RsvpRow.session_id, RsvpRow.user_id, RsvpRow.answer)
            .where(RsvpRow.session_id.in_(ids))
            .order_by(RsvpRow.session_id, RsvpRow.user_id)
        ):
            rsvps.setdefault(session_id, []).append((user, Rsvp(answer)))
        ratings: dict[int, list[tuple[str, Rating]]] = {}
        for rated in self.session.scalars(
            select(SessionRatingRow)
            .where(SessionRatingRow.session_id.in_(ids))
            .order_by(SessionRatingRow.session_id, SessionRatingRow.user_id)
        ):
            said = Rating(worth=rated.worth, discussion=rated.discussion)
            ratings.setdefault(rated.session_id, []).append((rated.user_id, said))
        links: dict[int, list[str]] = {}
        for session_id, url in self.session.execute(
            select(SessionLinkRow.session_id, SessionLinkRow.url)
            .where(SessionLinkRow.session_id.in_(ids))
            .order_by(SessionLinkRow.session_id, SessionLinkRow.id)
        ):
            links.setdefault(session_id, []).append(url)
        return [
            dataclasses.replace(
                self._memory(
                    row=row, polls=polls, papers=papers, presenters=presenters, rsvps=rsvps
                ),
                ratings=tuple(ratings.get(row[0].id, ())),
                links=tuple(links.get(row[0].id, ())),
            )
            for row in rows
        ]

    @staticmethod
    def _memory(
        *,
        row: Any,
        polls: Mapping[int, SessionPollRow],
        papers: Mapping[int, tuple[int, str]],
        presenters: Mapping[int, Presenter],
        rsvps: Mapping[int, list[tuple[str, Rsvp]]],
    ) -> SessionHistory:
        """One session's memory from the statements' rows."""
        session, held_in = row
        poll = polls.get(session.id)
        return SessionHistory(
            record=to_session_record(row=session, channel=channel_key(row=held_in)),
            private=bool(held_in.private),
            poll=_poll(row=poll, papers=papers) if poll is not None else None,
            presenter=presenters.get(session.id),
            rsvps=tuple(rsvps.get(session.id, ())),
        )
