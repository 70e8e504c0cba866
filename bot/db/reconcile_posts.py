"""The posts' side of ports.ReconcileStore over SQL: which posts of a run are still to read,
noting one read, and what a post holds in the archive now (votes with withdrawals, comments
with deletions) for a read-back to compare with the platform."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, or_, select, update

from bot.db.convert import to_post, utc
from bot.db.schema import CommentRow, PostRow, VoteRow, VoteWithdrawalRow
from bot.db.schema_upkeep import ProcessedEventRow
from bot.db.unit import UnitBound
from bot.domain import Post, PostState
from bot.ports.reconcile import ReconcileRun, StoredComment, StoredVote


class SqlReconcilePosts(UnitBound):
    """ports.ReconcileStore: the posts a run reads and what they hold."""

    def forget_gone_presence(self, *, prefix: str, keep: frozenset[str]) -> int:
        """Read the keys with the prefix (one scan of the recent event ids, compared by
        substring: no collation's ordering of punctuation can hide one), forget the others."""
        found = self.session.scalars(
            select(ProcessedEventRow.event_id).where(
                func.substr(ProcessedEventRow.event_id, 1, len(prefix)) == prefix
            )
        )
        gone = [key for key in found if key not in keep]
        for start in range(0, len(gone), 500):
            self.session.execute(
                delete(ProcessedEventRow).where(
                    ProcessedEventRow.event_id.in_(gone[start : start + 500])
                )
            )
        return len(gone)

    def posts_to_reconcile(self, *, run: ReconcileRun, since: datetime) -> list[Post]:
        """Posted posts of the window not read back since the run's `wanted_at`."""
        rows = self.session.scalars(
            select(PostRow)
            .where(
                PostRow.channel_id == run.channel_id,
                PostRow.state == PostState.POSTED.value,
                PostRow.message_id.is_not(None),
                PostRow.created_at >= since,
                or_(PostRow.reconciled_at.is_(None), PostRow.reconciled_at < run.wanted_at),
            )
            .order_by(PostRow.local_date.desc(), PostRow.id.desc())
        )
        return [to_post(row=row, channel=run.channel) for row in rows]

    def mark_reconciled(self, *, post_id: int, at: datetime) -> None:
        """Note the read."""
        self.session.execute(update(PostRow).where(PostRow.id == post_id).values(reconciled_at=at))

    def votes_on(self, *, post_id: int) -> list[StoredVote]:
        """Votes, then withdrawals of people with no vote now (a later vote replaced them)."""
        votes = {
            user: StoredVote(user=user, value=int(value), source=source, changed_at=utc(value=at))
            for user, value, source, at in self.session.execute(
                select(VoteRow.user_id, VoteRow.value, VoteRow.source, VoteRow.updated_at).where(
                    VoteRow.post_id == post_id
                )
            )
        }
        withdrawn = self.session.execute(
            select(
                VoteWithdrawalRow.user_id, VoteWithdrawalRow.withdrawn_at, VoteWithdrawalRow.source
            ).where(VoteWithdrawalRow.post_id == post_id)
        )
        for user, at, source in withdrawn:
            current = votes.get(user)
            if current is None or current.changed_at < utc(value=at):
                votes[user] = StoredVote(
                    user=user, value=0, source=source, changed_at=utc(value=at)
                )
        return list(votes.values())

    def comments_on(self, *, post: Post) -> list[StoredComment]:
        """The thread's comments as stored."""
        rows = self.session.execute(
            select(
                CommentRow.message_id,
                CommentRow.user_id,
                CommentRow.text,
                CommentRow.deleted,
                func.coalesce(CommentRow.edited_at, CommentRow.created_at),
            ).where(CommentRow.post_id == post.id)
        )
        return [
            StoredComment(
                message_id=message_id,
                user=user,
                text=text,
                deleted=bool(deleted),
                changed_at=utc(value=at),
            )
            for message_id, user, text, deleted, at in rows
        ]
