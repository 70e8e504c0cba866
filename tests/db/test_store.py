"""The SQL store: constraints the promises rest on, and the full-text index kept in sync."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError

from bot.db.database import Database
from bot.db.group_commit import GroupCommitFailed
from bot.db.schema import ChannelRow, CommentRow, PostRow, VoteRow
from bot.domain import NewPaper, PaperDraft, WorkspaceKey

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
TEAM = WorkspaceKey(platform="slack", id="T1")
OTHER = WorkspaceKey(platform="discord", id="G9")


def _new(n: int, workspace_id: int = 1, **fields: str) -> NewPaper:
    """A distinct paper number n."""
    draft = PaperDraft(title=f"Paper {n}", abstract=f"About topic {n}.", origin=f"t:{n}", **fields)
    return NewPaper(
        draft=draft,
        fingerprint=f"{n:064x}",
        source=draft.origin,
        added_by="U1",
        added_at=NOW,
        position=n,
        workspace_id=workspace_id,
    )


def _post(database: Database) -> tuple[int, int]:
    """A channel and a post in it; returns (channel row id, post id)."""
    with database() as store:
        store.insert_papers(papers=[_new(1, store.workspace_id(workspace=TEAM))])
        channel = ChannelRow(
            platform="slack",
            workspace="T1",
            external_id="C1",
            post_time="09:00",
            timezone="UTC",
            weekdays="mon,tue,wed,thu,fri",
            paused=False,
            empty_notice_sent=False,
        )
        store.session.add(channel)
        store.session.flush()
        post = PostRow(
            paper_id=1,
            channel_id=channel.id,
            local_date=date(2026, 1, 5),
            state="posted",
            message_id="1.000100",
            created_at=NOW,
        )
        store.session.add(post)
        store.session.flush()
        return channel.id, post.id


def test_insert_skips_known_keys_and_counts_kept(any_database: Database) -> None:
    with any_database() as store:
        ws = store.workspace_id(workspace=TEAM)
        assert store.insert_papers(papers=[_new(1, ws, arxiv_id="2401.00001"), _new(2, ws)]) == 2
    with any_database() as store:
        clash = _new(3, ws, arxiv_id="2401.00001")
        assert store.insert_papers(papers=[clash, _new(4, ws)]) == 1
        assert store.known_keys(workspace=TEAM) >= {"arxiv:2401.00001", f"fp:{4:064x}"}
        assert store.max_position(workspace=TEAM) == 4
        assert [p.title for p in store.queued(workspace=TEAM, channel=None, limit=10)] == [
            "Paper 1",
            "Paper 2",
            "Paper 4",
        ]
        # Keys are unique within a workspace: another group may read the same paper.
        other = store.workspace_id(workspace=OTHER)
        assert store.insert_papers(papers=[_new(3, other, arxiv_id="2401.00001")]) == 1
        assert store.known_keys(workspace=OTHER) == {"arxiv:2401.00001", f"fp:{3:064x}"}
        assert store.max_position(workspace=OTHER) == 3
        assert [p.title for p in store.queued(workspace=OTHER, channel=None, limit=10)] == [
            "Paper 3"
        ]


def test_one_post_per_channel_per_day(any_database: Database) -> None:
    channel_id, _ = _post(any_database)
    with pytest.raises(IntegrityError), any_database() as store:
        store.session.add(
            PostRow(
                paper_id=1,
                channel_id=channel_id,
                local_date=date(2026, 1, 5),
                state="pending",
                created_at=NOW,
            )
        )
        store.session.flush()


def test_one_vote_per_person_per_post(any_database: Database) -> None:
    _, post_id = _post(any_database)
    with pytest.raises(IntegrityError), any_database() as store:
        for value in (1, -1):
            store.session.add(VoteRow(post_id=post_id, user_id="U9", value=value, updated_at=NOW))
            store.session.flush()


def test_fts_follows_papers_and_comments(database: Database) -> None:
    channel_id, post_id = _post(database)
    with database() as store:
        store.session.add(
            CommentRow(
                post_id=post_id,
                channel_id=channel_id,
                user_id="U2",
                message_id="2.000100",
                text="Pipeline bubbles everywhere",
                created_at=NOW,
                deleted=False,
            )
        )

    def hits(table: str, query: str) -> int:
        with database.engine.connect() as conn:
            sql = text(f"SELECT count(*) FROM {table} WHERE {table} MATCH :q")
            return int(conn.execute(sql, {"q": query}).scalar() or 0)

    assert hits("papers_fts", "topic") == 1
    assert hits("comments_fts", "bubble") == 1  # porter stemming: bubbles -> bubble
    with database() as store:
        store.session.execute(text("UPDATE comments SET text = 'Stragglers, really'"))
    assert hits("comments_fts", "bubble") == 0
    assert hits("comments_fts", "straggler") == 1
    with database() as store:
        store.session.execute(text("UPDATE comments SET deleted = 1"))
        store.session.execute(text("UPDATE papers SET title = 'Renamed', abstract = 'Gone'"))
    assert hits("comments_fts", "straggler") == 0
    assert hits("papers_fts", "topic") == 0
    assert hits("papers_fts", "renamed") == 1
    with database.engine.connect() as conn:
        check = conn.execute(text("INSERT INTO papers_fts(papers_fts) VALUES ('integrity-check')"))
        check.close()


def test_events_are_applied_once_and_old_ones_forgotten(any_database: Database) -> None:
    from datetime import timedelta

    from bot.services.housekeeping import forget_old_events

    with any_database() as store:
        assert store.mark_event(event_id="Ev1", now=NOW)
        assert not store.mark_event(event_id="Ev1", now=NOW)
        assert store.mark_event(event_id="Ev2", now=NOW + timedelta(days=3))
    assert forget_old_events(uow=any_database, now=NOW + timedelta(days=4)) == 1
    with any_database() as store:
        assert store.mark_event(event_id="Ev1", now=NOW)
        assert not store.mark_event(event_id="Ev2", now=NOW)


def test_a_post_read_in_a_write_is_remembered_only_once_committed(database: Database) -> None:
    _, post_id = _post(database)

    @event.listens_for(database.engine, "commit")
    def _refuse(_conn: object) -> None:
        raise OSError("disk I/O error")

    with pytest.raises(GroupCommitFailed), database() as store:
        assert store.post_by_id(post_id=post_id) is not None
    event.remove(database.engine, "commit", _refuse)
    with database(write=False) as store:
        assert store.delivered.by_id(post_id=post_id) is None  # the failed write kept nothing
    with database() as store:
        found = store.post_by_id(post_id=post_id)
    with database(write=False) as store:
        assert store.delivered.by_id(post_id=post_id) == found
