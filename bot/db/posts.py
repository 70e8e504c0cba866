"""Store methods for channels and daily posts: the rows the exactly-once promise rests on."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import case, delete, func, select, update
from sqlalchemy.exc import IntegrityError

from bot.db.convert import channel_key, schedule_values, to_channel, to_paper, to_post
from bot.db.engine import upsert_insert
from bot.db.schema import ChannelRow, CommentRow, PaperRow, PostRow, RecapRow, VoteRow
from bot.db.unit import UnitBound
from bot.db.workspaces import ensure_workspace
from bot.domain import (
    Channel,
    ChannelKey,
    Paper,
    PaperStatus,
    Post,
    PostState,
    Recap,
    Schedule,
    VoteCount,
    WeeklyRecap,
)


class SqlPosts(UnitBound):
    """ports.ChannelsStore, PostsStore (top_posts aside) and RecapsStore; and a paper by id
    and its status, as posting moves it."""

    def paper(self, *, paper_id: int) -> Paper | None:
        """One paper by id."""
        row = self.session.get(PaperRow, paper_id)
        return to_paper(row=row) if row else None

    def set_paper_status(self, *, paper_id: int, status: PaperStatus) -> None:
        """Move a paper between queued, posted and skipped."""
        self.session.execute(
            update(PaperRow).where(PaperRow.id == paper_id).values(status=status.value)
        )

    def _channel_row(self, *, key: ChannelKey) -> ChannelRow | None:
        """The row of a followed channel."""
        return self.session.scalar(
            select(ChannelRow).where(
                ChannelRow.platform == key.platform,
                ChannelRow.workspace == key.workspace,
                ChannelRow.external_id == key.channel,
            )
        )

    def channels(self) -> list[Channel]:
        """Every channel that follows the list (not a row a watch made alone: that one has no
        daily post, no queue of its own and no place on the Home until it follows)."""
        rows = self.session.scalars(
            select(ChannelRow).where(ChannelRow.watch_only.is_(False)).order_by(ChannelRow.id)
        )
        return [to_channel(row=row) for row in rows]

    def channel(self, *, key: ChannelKey) -> Channel | None:
        """A followed channel, or None (also for a row a watch made alone)."""
        row = self._channel_row(key=key)
        return to_channel(row=row) if row and not row.watch_only else None

    def save_channel(self, *, key: ChannelKey, schedule: Schedule, private: bool) -> Channel:
        """Follow a channel with this schedule (or change its schedule and privacy); a row a
        watch made (watch_only, paused) follows from now on."""
        ensure_workspace(session=self.session, workspace=key.workspace_key, claim=True)
        row = self._channel_row(key=key)
        if row is None:
            row = ChannelRow(
                platform=key.platform,
                workspace=key.workspace,
                external_id=key.channel,
                paused=False,
                empty_notice_sent=False,
            )
            self.session.add(row)
        elif row.watch_only:
            row.watch_only, row.paused = False, False
        for column, value in schedule_values(schedule=schedule).items():
            setattr(row, column, value)
        row.private = private
        self.session.flush()
        return to_channel(row=row)

    def add_channel_if_missing(
        self, *, key: ChannelKey, schedule: Schedule, private: bool
    ) -> Channel:
        """Follow a channel unless it already is followed (its own schedule then stays); a row
        a watch made (watch_only, paused) follows from now on, on this schedule."""
        self.session.execute(
            update(ChannelRow)
            .where(
                ChannelRow.platform == key.platform,
                ChannelRow.workspace == key.workspace,
                ChannelRow.external_id == key.channel,
                ChannelRow.watch_only.is_(True),
            )
            .values(
                watch_only=False,
                paused=False,
                private=private,
                **schedule_values(schedule=schedule),
            )
        )
        row = self._channel_row(key=key)
        if row is None:
            ensure_workspace(session=self.session, workspace=key.workspace_key, claim=True)
            # Replicas starting together each follow PAPERCLUB_CHANNEL: the later insert waits
            # for the earlier one's commit and then does nothing, instead of failing the start.
            self.session.execute(
                upsert_insert(session=self.session, table=ChannelRow.__table__)  # type: ignore[arg-type]
                .values(
                    platform=key.platform,
                    workspace=key.workspace,
                    external_id=key.channel,
                    paused=False,
                    empty_notice_sent=False,
                    private=private,
                    **schedule_values(schedule=schedule),
                )
                .on_conflict_do_nothing(index_elements=["platform", "workspace", "external_id"])
            )
            row = self._channel_row(key=key)
            assert row is not None  # inserted now, or by the replica that was first
        return to_channel(row=row)

    def set_channel_flags(
        self,
        *,
        channel: Channel,
        paused: bool | None = None,
        empty_notice_sent: bool | None = None,
        private: bool | None = None,
    ) -> None:
        """Pause/resume a channel, note that it was told its queue is empty, or its privacy. A
        row a watch made (watch_only) follows once resumed."""
        given = {"paused": paused, "empty_notice_sent": empty_notice_sent, "private": private}
        values = {name: value for name, value in given.items() if value is not None}
        if paused is False:
            values["watch_only"] = False
        if values:
            self.session.execute(
                update(ChannelRow).where(ChannelRow.id == channel.id).values(**values)
            )

    def set_recap(self, *, channel: Channel, recap: WeeklyRecap | None) -> None:
        """Turn the weekly recap on at a weekday and time, or off."""
        self.session.execute(
            update(ChannelRow)
            .where(ChannelRow.id == channel.id)
            .values(
                recap_day=recap.weekday if recap else None,
                recap_time=recap.at.strftime("%H:%M") if recap else None,
            )
        )

    def claim_recap(self, *, channel: Channel, local_date: date, now: datetime) -> int | None:
        """Record the intent to send a recap; None when that date already has one."""
        row = RecapRow(channel_id=channel.id, local_date=local_date, created_at=now)
        try:
            with self.session.begin_nested():
                self.session.add(row)
        except IntegrityError:
            return None
        return row.id

    def settle_recap(self, *, recap_id: int, message_id: str | None) -> None:
        """The recap went out (keep its message id) or was refused outright (forget it)."""
        if message_id is None:
            self.session.execute(delete(RecapRow).where(RecapRow.id == recap_id))
        else:
            self.session.execute(
                update(RecapRow).where(RecapRow.id == recap_id).values(message_id=message_id)
            )

    def post_on(self, *, channel: Channel, local_date: date) -> Post | None:
        """The channel's post of that local date, in any state."""
        row = self.session.scalar(
            select(PostRow).where(
                PostRow.channel_id == channel.id, PostRow.local_date == local_date
            )
        )
        return to_post(row=row, channel=channel.key) if row else None

    def claim_post(
        self, *, channel: Channel, local_date: date, paper_id: int, owner: str, now: datetime
    ) -> Post | None:
        """Record the intent to post; None when the channel already has a post that day."""
        row = PostRow(
            paper_id=paper_id,
            channel_id=channel.id,
            local_date=local_date,
            state=PostState.PENDING.value,
            created_at=now,
            claimed_by=owner,
            claimed_at=now,
        )
        try:
            # A savepoint: losing the race to another process must not end our transaction.
            with self.session.begin_nested():
                self.session.add(row)
        except IntegrityError:
            return None
        return to_post(row=row, channel=channel.key)

    def take_over(self, *, post: Post, owner: str, now: datetime) -> bool:
        """Move a pending post's claim to `owner`, if nobody took it over meanwhile."""
        claimed = (
            PostRow.claimed_by.is_(None)
            if post.claimed_by is None
            else (PostRow.claimed_by == post.claimed_by)
        )
        result = self.session.execute(
            update(PostRow)
            .where(PostRow.id == post.id, PostRow.state == PostState.PENDING.value, claimed)
            .values(claimed_by=owner, claimed_at=now)
        )
        return bool(getattr(result, "rowcount", 0))

    def mark_posted(self, *, post_id: int, message_id: str, permalink: str | None) -> None:
        """The post is in the channel: keep its message id and permalink."""
        self.session.execute(
            update(PostRow)
            .where(PostRow.id == post_id)
            .values(state=PostState.POSTED.value, message_id=message_id, permalink=permalink)
        )

    def release_post(self, *, post: Post) -> None:
        """The platform refused the post outright: forget the intent; the paper is queued again."""
        self.session.execute(delete(PostRow).where(PostRow.id == post.id))
        self.set_paper_status(paper_id=post.paper_id, status=PaperStatus.QUEUED)

    def pending_posts(self) -> list[tuple[Post, Channel]]:
        """Posts whose intent is recorded but whose message id is not."""
        rows = self.session.execute(
            select(PostRow, ChannelRow)
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .where(PostRow.state == PostState.PENDING.value)
            .order_by(PostRow.id)
        )
        return [
            (to_post(row=post, channel=channel_key(row=channel)), to_channel(row=channel))
            for post, channel in rows
        ]

    def vote_count(self, *, post_id: int) -> VoteCount:
        """Thumbs up and down on a post."""
        up = func.coalesce(func.sum(case((VoteRow.value > 0, 1), else_=0)), 0)
        down = func.coalesce(func.sum(case((VoteRow.value < 0, 1), else_=0)), 0)
        ups, downs = self.session.execute(select(up, down).where(VoteRow.post_id == post_id)).one()
        return VoteCount(up=int(ups), down=int(downs))

    def recap_before(self, *, channel: Channel, local_date: date) -> Recap | None:
        """The channel's latest posted paper before that date, with its votes and comments."""
        found = self.session.execute(
            select(PostRow, PaperRow.title)
            .join(PaperRow, PaperRow.id == PostRow.paper_id)
            .where(
                PostRow.channel_id == channel.id,
                PostRow.local_date < local_date,
                PostRow.state == PostState.POSTED.value,
            )
            .order_by(PostRow.local_date.desc())
            .limit(1)
        ).first()
        if found is None:
            return None
        post, title = found
        comments = self.session.scalar(
            select(func.count())
            .select_from(CommentRow)
            .where(CommentRow.post_id == post.id, CommentRow.deleted.is_(False))
        )
        return Recap(
            title=title,
            permalink=post.permalink,
            votes=self.vote_count(post_id=post.id),
            comments=int(comments or 0),
        )
