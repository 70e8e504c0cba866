"""ports.PapersStore's SQL: adding papers (dedupe keys, queue positions), the queue, one paper
by its keys, and where papers were posted with their votes and comments."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence

from sqlalchemy import ColumnElement, and_, func, or_, select

from bot.db.author_index import fold_names
from bot.db.convert import to_paper
from bot.db.engine import upsert_insert
from bot.db.lists import SqlLists
from bot.db.post_views import views_of_posts
from bot.db.schema import Base, PaperRow, PostRow
from bot.db.unit import UnitBound
from bot.db.workspaces import in_workspace
from bot.domain import (
    Channel,
    ChannelKey,
    NewPaper,
    Paper,
    PaperRecord,
    PaperStatus,
    PostView,
    WorkspaceKey,
)

_RECORD_CHUNK = 500


class SqlPapers(UnitBound):
    """Papers and their queue in one unit of work (paper, set_paper_status and paper_by_title,
    the rest of ports.PapersStore, are SqlPosts' and SqlTitles')."""

    def known_keys(self, *, workspace: WorkspaceKey) -> set[str]:
        """Every dedupe key a workspace already holds (arxiv:, doi:, fp: prefixed)."""
        keys: set[str] = set()
        rows = self.session.execute(
            select(PaperRow.arxiv_id, PaperRow.doi, PaperRow.fingerprint).where(
                in_workspace(workspace=workspace)
            )
        )
        for arxiv_id, doi, fingerprint in rows:
            keys.add(f"fp:{fingerprint}")
            if arxiv_id:
                keys.add(f"arxiv:{arxiv_id}")
            if doi:
                keys.add(f"doi:{doi}")
        return keys

    def max_position(self, *, workspace: WorkspaceKey) -> int:
        """The highest queue position a workspace used so far (0 when empty)."""
        query = select(func.coalesce(func.max(PaperRow.position), 0)).where(
            in_workspace(workspace=workspace)
        )
        return int(self.session.scalar(query) or 0)

    def insert_papers(self, *, papers: Sequence[NewPaper]) -> int:
        """Insert papers, skipping any whose key another writer stored meanwhile; the count kept."""
        if not papers:
            return 0
        rows = [
            {
                "workspace_id": p.workspace_id,
                "title": p.draft.title,
                "authors": list(p.draft.authors),
                "abstract": p.draft.abstract,
                "url": p.draft.url,
                "arxiv_id": p.draft.arxiv_id,
                "doi": p.draft.doi,
                "fingerprint": p.fingerprint,
                "source": p.source,
                "added_by": p.added_by,
                "added_at": p.added_at,
                "position": p.position,
                "status": (
                    PaperStatus.REFERENCE if p.draft.reference else PaperStatus.QUEUED
                ).value,
                "queue_channel_id": p.queue_channel_id,
                "title_derived": p.draft.title_derived,
                "list_id": p.list_id,
                "locked": list(p.locked) or None,
            }
            for p in papers
        ]
        table = Base.metadata.tables["papers"]
        # DO NOTHING: a paper another replica imported a moment ago is "already known", not an
        # error; RETURNING counts only the rows that went in.
        insert = upsert_insert(session=self.session, table=table)
        statement = insert.on_conflict_do_nothing().returning(table.c.id)
        kept = len(self.session.execute(statement, rows).all())
        fold_names(connection=self.session.connection())  # the new authors, for names forgiven
        return kept

    @staticmethod
    def _queue_owner(*, channel: Channel | None) -> ColumnElement[bool]:
        """Which queued papers wait for a channel: its own and its workspace's shared list."""
        owner: ColumnElement[bool] = PaperRow.queue_channel_id.is_(None)
        if channel is not None:
            owner = or_(owner, PaperRow.queue_channel_id == channel.id)
        return and_(PaperRow.status == PaperStatus.QUEUED.value, owner)

    def _queue_filter(
        self, *, workspace: WorkspaceKey, channel: Channel | None
    ) -> ColumnElement[bool]:
        """The papers in a channel's queue, in its workspace."""
        return and_(in_workspace(workspace=workspace), self._queue_owner(channel=channel))

    def queued(
        self, *, workspace: WorkspaceKey, channel: Channel | None, limit: int
    ) -> list[Paper]:
        """The next queued papers for a channel (its own, then the shared list) in order:
        those with an abstract first."""
        query = (
            select(PaperRow)
            .where(self._queue_filter(workspace=workspace, channel=channel))
            # A paper without an abstract waits while any paper has one: no empty post.
            .order_by(PaperRow.abstract == "", PaperRow.position, PaperRow.id)
            .limit(limit)
        )
        return [to_paper(row=row) for row in self.session.scalars(query)]

    def count_queued(self, *, workspace: WorkspaceKey, channel: Channel | None) -> int:
        """How many papers wait in a channel's queue."""
        query = (
            select(func.count())
            .select_from(PaperRow)
            .where(self._queue_filter(workspace=workspace, channel=channel))
        )
        return int(self.session.scalar(query) or 0)

    def paper_by_keys(self, *, workspace: WorkspaceKey, keys: Sequence[str]) -> Paper | None:
        """The workspace's paper sharing any of these dedupe keys (arxiv:, doi:, fp:)."""
        columns = {"arxiv": PaperRow.arxiv_id, "doi": PaperRow.doi, "fp": PaperRow.fingerprint}
        matches = [
            columns[kind] == value
            for kind, _, value in (key.partition(":") for key in keys)
            if kind in columns and value
        ]
        if not matches:
            return None
        query = select(PaperRow).where(in_workspace(workspace=workspace), or_(*matches)).limit(1)
        row = self.session.scalar(query)
        return to_paper(row=row) if row else None

    def queue_position(self, *, paper: Paper, channel: Channel | None) -> int:
        """1 for the next paper to be posted in the channel, 2 for the one after, ..."""
        ahead = (PaperRow.position < paper.position) | (
            (PaperRow.position == paper.position) & (PaperRow.id < paper.id)
        )
        same_workspace = PaperRow.workspace_id == (
            select(PaperRow.workspace_id).where(PaperRow.id == paper.id).scalar_subquery()
        )
        query = (
            select(func.count())
            .select_from(PaperRow)
            .where(same_workspace, self._queue_owner(channel=channel), ahead)
        )
        return int(self.session.scalar(query) or 0) + 1

    def post_views(self, *, paper_id: int, viewer: ChannelKey | None) -> list[PostView]:
        """Where and when a paper was posted, with its votes and live comments; with a viewer,
        only the posts that channel may see (its own, and its workspace's public ones)."""
        return self._post_views(paper_ids=[paper_id], viewer=viewer).get(paper_id, [])

    def paper_records(self, *, workspace: WorkspaceKey) -> Iterator[PaperRecord]:
        """Every paper of a workspace with its posts, votes and live comments, in id order."""
        last_id, lists = 0, self.unit.role(SqlLists)
        while True:
            rows = list(
                self.session.scalars(
                    select(PaperRow)
                    .where(in_workspace(workspace=workspace), PaperRow.id > last_id)
                    .order_by(PaperRow.id)
                    .limit(_RECORD_CHUNK)
                )
            )
            if not rows:
                return
            posts = self._post_views(paper_ids=[row.id for row in rows], viewer=None)
            for row in rows:
                yield PaperRecord(
                    paper=to_paper(row=row),
                    posts=tuple(posts.get(row.id, ())),
                    list_name=None if row.list_id is None else lists.list_name(list_id=row.list_id),
                )
            last_id = rows[-1].id

    def _post_views(
        self, *, paper_ids: list[int], viewer: ChannelKey | None
    ) -> dict[int, list[PostView]]:
        """Posts of these papers with vote counts and live comments, keyed by paper id."""
        result: dict[int, list[PostView]] = defaultdict(list)
        for post, view in views_of_posts(
            session=self.session, posts=PostRow.paper_id.in_(paper_ids), viewer=viewer
        ):
            result[post.paper_id].append(view)
        return result
