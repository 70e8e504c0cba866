"""ports.SourcesStore's suggestions over SQL: keeping a watch's candidates the channel does not
know yet (deduplicated by their keys against the channel's suggestions and its workspace's
papers), listing them, and deciding them once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Literal

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from bot.db.schema import ChannelRow, PaperRow
from bot.db.schema_sources import SuggestionKeyRow, SuggestionRow
from bot.db.suggestion_rows import candidate_values, stored_key, to_suggestion
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_of
from bot.db.workspaces import in_workspace
from bot.domain import ChannelKey, WorkspaceKey
from bot.ports.sources import Suggestion, SuggestionState
from bot.sources.candidates import ARXIV_DOI_PREFIX, Candidate, candidate_keys, title_key

# Keys asked about per query: well under SQLite's bound parameters (32,766), so a day's
# listing of a busy category (a few thousand keys) is one query.
_KEYS_PER_QUERY = 5_000
# States a suggestion may still be decided from.
_UNDECIDED = ("waiting", "shown", "passed")


class SqlSuggestions(UnitBound):
    """ports.SourcesStore: suggestions and their dedupe."""

    def _papers_keys(self, *, workspace: WorkspaceKey) -> set[str]:
        """Every key the workspace's papers are known by, in one query: known_keys' arxiv:,
        doi: and fp:, an arXiv paper's DataCite DOI, and title: (normalised in Python, as
        candidate_keys does)."""
        keys: set[str] = set()
        rows = self.session.execute(
            select(PaperRow.arxiv_id, PaperRow.doi, PaperRow.fingerprint, PaperRow.title).where(
                in_workspace(workspace=workspace)
            )
        )
        for arxiv_id, doi, fingerprint, title in rows:
            keys.add(f"fp:{fingerprint}")
            if arxiv_id:
                keys.update((f"arxiv:{arxiv_id}", f"doi:{ARXIV_DOI_PREFIX}{arxiv_id}"))
            if doi:
                keys.add(f"doi:{doi}")
            normalised = title_key(title=title)
            if normalised:
                keys.add(f"title:{normalised}")
        return {stored_key(key=key) for key in keys}

    def _suggested_keys(self, *, channel_id: int, keys: Iterable[str]) -> set[str]:
        """Which of these stored keys the channel's suggestions hold."""
        wanted = sorted(set(keys))
        found: set[str] = set()
        for start in range(0, len(wanted), _KEYS_PER_QUERY):
            found.update(
                self.session.scalars(
                    select(SuggestionKeyRow.key).where(
                        SuggestionKeyRow.channel_id == channel_id,
                        SuggestionKeyRow.key.in_(wanted[start : start + _KEYS_PER_QUERY]),
                    )
                )
            )
        return found

    def add_suggestions(
        self,
        *,
        channel: ChannelKey,
        watch_id: int | None,
        candidates: Sequence[Candidate],
        now: datetime,
    ) -> int:
        """Keep the candidates no key of which is known, each in a savepoint of its own.

        Writers for one channel take turns: the channel row is locked first (FOR NO KEY
        UPDATE on PostgreSQL, which posts and votes referring to it do not wait for; SQLite's
        writers take turns anyway), so the keys read next include the ones the writer before
        kept. A key inserted all the same by another writer (the unique index says so) drops
        that one candidate, not the unit of work. A channel with no row has no watch: none kept.
        """
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None or not candidates:
            return 0
        self.session.execute(
            select(ChannelRow.id).where(ChannelRow.id == channel_id).with_for_update(key_share=True)
        )
        keyed = [
            (
                candidate,
                tuple(
                    dict.fromkeys(stored_key(key=k) for k in candidate_keys(candidate=candidate))
                ),
            )
            for candidate in candidates
        ]
        known = self._papers_keys(workspace=channel.workspace_key)
        known |= self._suggested_keys(
            channel_id=channel_id, keys=(key for _, keys in keyed for key in keys)
        )
        kept = 0
        for candidate, keys in keyed:
            if known.intersection(keys):
                continue
            known.update(keys)  # a cross-list later in this call is the same paper
            if self._insert(
                channel_id=channel_id, watch_id=watch_id, candidate=candidate, keys=keys, now=now
            ):
                kept += 1
        return kept

    def _insert(
        self,
        *,
        channel_id: int,
        watch_id: int | None,
        candidate: Candidate,
        keys: Sequence[str],
        now: datetime,
    ) -> bool:
        """Insert one suggestion and its keys; False when a key was taken meanwhile."""
        try:
            with self.session.begin_nested():
                suggestion_id = self.session.execute(
                    insert(SuggestionRow)
                    .values(
                        channel_id=channel_id,
                        watch_id=watch_id,
                        found_at=now,
                        state="waiting",
                        **candidate_values(candidate=candidate),
                    )
                    .returning(SuggestionRow.id)
                ).scalar_one()
                self.session.execute(
                    insert(SuggestionKeyRow),
                    [
                        {"channel_id": channel_id, "key": key, "suggestion_id": suggestion_id}
                        for key in keys
                    ],
                )
        except IntegrityError:
            return False
        return True

    def suggestions(
        self, *, channel: ChannelKey, states: Sequence[SuggestionState], limit: int
    ) -> list[Suggestion]:
        """Newest found first, ties by id (newest first too)."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None or not states or limit <= 0:
            return []
        rows = self.session.scalars(
            select(SuggestionRow)
            .where(SuggestionRow.channel_id == channel_id, SuggestionRow.state.in_(list(states)))
            .order_by(SuggestionRow.found_at.desc(), SuggestionRow.id.desc())
            .limit(limit)
        )
        return [to_suggestion(row=row, channel=channel) for row in rows]

    def count_suggestions(
        self, *, channel: ChannelKey, states: Sequence[SuggestionState], since: datetime
    ) -> int:
        """How many of the channel's suggestions in these states were found since `since`."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None or not states:
            return 0
        query = select(func.count()).where(
            SuggestionRow.channel_id == channel_id,
            SuggestionRow.state.in_(list(states)),
            SuggestionRow.found_at >= since,
        )
        return int(self.session.scalar(query) or 0)

    def suggestion(self, *, channel: ChannelKey, suggestion_id: int) -> Suggestion | None:
        """The suggestion, if it is this channel's."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return None
        row = self.session.scalar(
            select(SuggestionRow).where(
                SuggestionRow.id == suggestion_id, SuggestionRow.channel_id == channel_id
            )
        )
        return to_suggestion(row=row, channel=channel) if row is not None else None

    def decide_suggestion(
        self,
        *,
        suggestion_id: int,
        state: Literal["promoted", "hidden"],
        user: str,
        now: datetime,
        paper_id: int | None = None,
    ) -> bool:
        """One conditional UPDATE: of two clicks (two replicas), one decides."""
        result = self.session.execute(
            update(SuggestionRow)
            .where(SuggestionRow.id == suggestion_id, SuggestionRow.state.in_(_UNDECIDED))
            .values(state=state, decided_by=user, decided_at=now, paper_id=paper_id)
        )
        return bool(getattr(result, "rowcount", 0))
