"""ports.SourcesStore's group_history over SQL: what a channel's group did, for the ranking of
its suggestions (the papers it was posted, with their votes and live comments, the papers its
sessions read with their members' ratings, and the candidates it promoted and hid)."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import func, select

from bot.db.schema import PaperRow, PostRow
from bot.db.schema_sources import SuggestionRow
from bot.db.session_memory import SqlSessionMemory
from bot.db.suggestion_rows import to_candidate
from bot.db.tallies import comments_per_post, votes_per_post
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_of
from bot.domain import ChannelKey, PostState, VoteCount
from bot.sources.candidates import Candidate
from bot.sources.rank import GroupHistory, GroupRead

# How many of the latest promoted, and of the latest hidden, suggestions the ranking weighs.
DECIDED_LIMIT = 200


class SqlGroupHistory(UnitBound):
    """ports.SourcesStore: group_history."""

    def group_history(self, *, channel: ChannelKey, limit: int) -> GroupHistory:
        """The channel's `limit` latest posted papers, latest first (a post of the channel in
        the posted state; pending and failed ones were never read), then the papers its
        sessions read that it was never posted, and its latest promoted and hidden candidates,
        latest decided first."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return GroupHistory()
        return GroupHistory(
            read=(
                self._with_ratings(channel=channel, channel_id=channel_id, limit=limit)
                if limit > 0
                else ()
            ),
            promoted=self._decided(channel_id=channel_id, state="promoted"),
            hidden=self._decided(channel_id=channel_id, state="hidden"),
        )

    def _with_ratings(
        self, *, channel: ChannelKey, channel_id: int, limit: int
    ) -> tuple[GroupRead, ...]:
        """The latest posted papers, each with its sessions' ratings, then the rated papers of
        the channel's sessions that were never posted in it (with their ratings alone)."""
        rated = self.unit.role(SqlSessionMemory).rated_papers(channel=channel)
        posted = self._read(channel_id=channel_id, limit=limit)
        read = tuple(replace(r, rated=rated.get(paper_id, r.rated)) for paper_id, r in posted)
        shown = {paper_id for paper_id, _ in posted}
        unposted = sorted(set(rated) - shown)
        rows = self.session.execute(
            select(PaperRow.id, PaperRow.title, PaperRow.abstract, PaperRow.authors).where(
                PaperRow.id.in_(unposted)
            )
        )
        sessions = tuple(
            GroupRead(
                title=title,
                abstract=abstract or "",
                authors=tuple(authors or ()),
                rated=rated[int(paper_id)],
            )
            for paper_id, title, abstract, authors in rows
        )
        return read + sessions

    def _read(self, *, channel_id: int, limit: int) -> tuple[tuple[int, GroupRead], ...]:
        """The latest posted papers (by id) with their post's votes and live comments."""
        votes, talk = votes_per_post(), comments_per_post()
        query = (
            select(
                PaperRow.id,
                PaperRow.title,
                PaperRow.abstract,
                PaperRow.authors,
                func.coalesce(votes.c.up, 0),
                func.coalesce(votes.c.down, 0),
                func.coalesce(talk.c.n, 0),
            )
            .select_from(PostRow)
            .join(PaperRow, PaperRow.id == PostRow.paper_id)
            .outerjoin(votes, votes.c.post_id == PostRow.id)
            .outerjoin(talk, talk.c.post_id == PostRow.id)
            .where(PostRow.channel_id == channel_id, PostRow.state == PostState.POSTED.value)
            .order_by(PostRow.local_date.desc(), PostRow.id.desc())
            .limit(limit)
        )
        return tuple(
            (
                int(paper_id),
                GroupRead(
                    title=title,
                    abstract=abstract or "",
                    authors=tuple(authors or ()),
                    votes=VoteCount(up=int(up), down=int(down)),
                    comments=int(comments),
                ),
            )
            for paper_id, title, abstract, authors, up, down, comments in self.session.execute(
                query
            )
        )

    def _decided(self, *, channel_id: int, state: str) -> tuple[Candidate, ...]:
        """The candidates of the channel's latest suggestions decided into `state`."""
        rows = self.session.scalars(
            select(SuggestionRow)
            .where(SuggestionRow.channel_id == channel_id, SuggestionRow.state == state)
            .order_by(SuggestionRow.decided_at.desc(), SuggestionRow.id.desc())
            .limit(DECIDED_LIMIT)
        )
        return tuple(to_candidate(row=row) for row in rows)
