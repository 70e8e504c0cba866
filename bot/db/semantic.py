"""Store methods for meaning: vectors per paper and model, the papers a group read, and how
each channel picks its next paper."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, Exists, exists, func, insert, literal, select, update

from bot.db.convert import channel_key, to_paper
from bot.db.schema import ChannelRow, CommentRow, EmbeddingRow, PaperRow, PostRow, VoteRow
from bot.db.search_steps import SearchSteps, open_steps
from bot.db.unit import UnitBound
from bot.db.workspaces import in_workspace, visible_to
from bot.domain import Channel, ChannelKey, Paper, VoteCount, WorkspaceKey
from bot.domain.semantic import PickOrder, ReadPaper
from bot.search_query import SearchQuery


def _has_vector(*, model: str) -> Exists:
    """The condition that a paper already has a vector of `model`."""
    return exists().where(EmbeddingRow.paper_id == PaperRow.id, EmbeddingRow.model == model)


class SqlSemantic(UnitBound):
    """ports.SemanticStore: vectors, papers read and pick orders, in one unit of work."""

    def search_run(
        self, *, query: SearchQuery, viewer: ChannelKey | None, workspace: WorkspaceKey
    ) -> SearchSteps:
        """A search of one workspace, as `viewer` may see it, to be run in steps."""
        return open_steps(session=self.session, query=query, viewer=viewer, workspace=workspace)

    def vector_version(self, *, workspace: WorkspaceKey, model: str) -> tuple[int, int]:
        """How many vectors of `model` the workspace has and their largest row id."""
        row = self.session.execute(
            select(
                func.count(EmbeddingRow.id).label("vectors"),
                func.max(EmbeddingRow.id).label("newest"),
            )
            .join(PaperRow, PaperRow.id == EmbeddingRow.paper_id)
            .where(EmbeddingRow.model == model, in_workspace(workspace=workspace))
        ).one()
        return int(row.vectors), int(row.newest or 0)

    def newest_vector(self, *, model: str) -> int:
        """The largest row id of any vector of `model` (0 with none): an index seek."""
        newest = self.session.scalar(
            select(func.max(EmbeddingRow.id)).where(EmbeddingRow.model == model)
        )
        return int(newest or 0)

    def vectors_after(
        self, *, workspace: WorkspaceKey, model: str, after: int
    ) -> list[tuple[int, int, bytes]]:
        """(row id, paper id, vector) of the workspace's vectors past row id `after`."""
        rows = self.session.execute(
            select(EmbeddingRow.id, EmbeddingRow.paper_id, EmbeddingRow.vector)
            .join(PaperRow, PaperRow.id == EmbeddingRow.paper_id)
            .where(
                EmbeddingRow.model == model,
                EmbeddingRow.id > after,
                in_workspace(workspace=workspace),
            )
            .order_by(EmbeddingRow.id)
        )
        return [(int(row_id), int(paper_id), bytes(vector)) for row_id, paper_id, vector in rows]

    def papers_to_embed(self, *, model: str, limit: int) -> list[Paper]:
        """Papers with no vector of `model` yet, oldest first."""
        rows = self.session.scalars(
            select(PaperRow).where(~_has_vector(model=model)).order_by(PaperRow.id).limit(limit)
        )
        return [to_paper(row=row) for row in rows]

    def count_to_embed(self, *, model: str) -> int:
        """How many papers have no vector of `model` yet."""
        count = self.session.scalar(
            select(func.count(PaperRow.id)).where(~_has_vector(model=model))
        )
        return int(count or 0)

    def save_vectors(
        self, *, model: str, vectors: Sequence[tuple[int, bytes]], now: datetime
    ) -> int:
        """Keep (paper id, vector) pairs, skipping papers gone or done meanwhile; the count kept."""
        kept = 0
        for paper_id, vector in vectors:
            statement = insert(EmbeddingRow).from_select(
                ["paper_id", "model", "vector", "created_at"],
                select(PaperRow.id, literal(model), literal(vector), literal(now)).where(
                    PaperRow.id == paper_id,
                    ~_has_vector(model=model),
                ),
            )
            result = cast(CursorResult[Any], self.session.execute(statement))
            kept += result.rowcount or 0
        return kept

    def read_papers(self, *, workspace: WorkspaceKey, viewer: ChannelKey | None) -> list[ReadPaper]:
        """Every paper posted in the workspace (as `viewer` may see it), latest post each."""
        up = select(func.count(VoteRow.id)).where(VoteRow.post_id == PostRow.id, VoteRow.value > 0)
        down = select(func.count(VoteRow.id)).where(
            VoteRow.post_id == PostRow.id, VoteRow.value < 0
        )
        said = select(func.count(CommentRow.id)).where(
            CommentRow.post_id == PostRow.id, CommentRow.deleted.is_(False)
        )
        query = (
            select(
                PostRow.paper_id,
                PaperRow.title,
                ChannelRow,
                PostRow.local_date,
                PostRow.permalink,
                up.scalar_subquery(),
                down.scalar_subquery(),
                said.scalar_subquery(),
            )
            .join(PaperRow, PaperRow.id == PostRow.paper_id)
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .where(PostRow.state == "posted", in_workspace(workspace=workspace))
            .order_by(PostRow.local_date, PostRow.id)
        )
        if viewer is not None:
            query = query.where(visible_to(viewer=viewer))
        latest: dict[int, ReadPaper] = {}
        for paper_id, title, channel, day, permalink, ups, downs, comments in self.session.execute(
            query
        ):
            latest[paper_id] = ReadPaper(
                paper_id=paper_id,
                title=title,
                channel=channel_key(row=channel),
                date=day,
                permalink=permalink,
                votes=VoteCount(up=ups, down=downs),
                comments=comments,
            )
        return list(latest.values())

    def set_pick_order(self, *, channel: Channel, order: PickOrder) -> None:
        """How the channel's next paper is picked."""
        self.session.execute(
            update(ChannelRow).where(ChannelRow.id == channel.id).values(pick_order=order.value)
        )

    def pick_reason(self, *, post_id: int) -> str | None:
        """Why the taste picker chose a post's paper, if it did."""
        return self.session.scalar(select(PostRow.pick_reason).where(PostRow.id == post_id))

    def set_pick_reason(self, *, post_id: int, reason: str) -> None:
        """Keep why a post's paper was picked."""
        self.session.execute(
            update(PostRow).where(PostRow.id == post_id).values(pick_reason=reason[:500])
        )
