"""What the sources storage tests share: channels, candidates as sources make them, papers in
an archive, and hostile text."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import select

from bot.db.database import Database
from bot.db.schema import CommentRow, PaperRow, PostRow, VoteRow
from bot.domain import ChannelKey, NewPaper, PaperDraft, Schedule
from bot.ingest.doi import normalise_doi
from bot.ingest.keys import fingerprint
from bot.ports.sources import WatchSpec
from bot.sources.candidates import Candidate, make_candidate

NOW = datetime(2026, 12, 8, 6, 0, tzinfo=UTC)
DAY = date(2026, 12, 8)
HERE = ChannelKey(platform="slack", workspace="T1", channel="C1")
NEXT_DOOR = ChannelKey(platform="slack", workspace="T1", channel="C2")
ELSEWHERE = ChannelKey(platform="slack", workspace="T2", channel="C1")
ON_DISCORD = ChannelKey(platform="discord", workspace="G1", channel="D1")
EVERY_DAY = Schedule(post_time=time(9, 0), timezone="UTC", weekdays=frozenset(range(1, 8)))
ARXIV = WatchSpec(kind="arxiv", target="cs.LG+cs.CL")
HOSTILE = (
    "<!channel> @everyone <@U123> <#C1|general> *bold* `code` 🧪📄 &amp; <b>x</b> " + "ж" * 10_000
)


def candidate(n: int, **fields: object) -> Candidate:
    """Candidate number n as arXiv announces one (fields override)."""
    given: dict[str, object] = {
        "source": "arxiv:cs.LG",
        "title": f"Sparse attention study number {n}",
        "abstract": f"We study sparse attention, variant {n}, at length.",
        "authors": [f"Ada Lovelace {n}", "Grace Hopper"],
        "arxiv_id": f"2412.{n:05d}",
        "version": 1,
        "announced": DAY,
        "categories": ["cs.LG", "cs.CL"],
        "announce": "new",
    }
    given.update(fields)
    made = make_candidate(**given)  # type: ignore[arg-type]
    assert made is not None
    return made


def add_paper(
    database: Database,
    *,
    title: str,
    abstract: str,
    arxiv_id: str | None = None,
    doi: str | None = None,
    workspace: ChannelKey = HERE,
) -> None:
    """A paper in the archive of `workspace`'s workspace."""
    with database() as store:
        workspace_id = store.workspace_id(workspace=workspace.workspace_key)
        # The DOI as every import keeps it.
        kept_doi = normalise_doi(text=doi) if doi else None
        draft = PaperDraft(
            title=title, abstract=abstract, origin="t:1", arxiv_id=arxiv_id, doi=kept_doi
        )
        paper = NewPaper(
            draft=draft,
            fingerprint=fingerprint(title=title, abstract=abstract),
            source="t:1",
            added_by="U1",
            added_at=NOW,
            position=store.max_position(workspace=workspace.workspace_key) + 1,
            workspace_id=workspace_id,
        )
        assert store.insert_papers(papers=[paper]) == 1


def watch(database: Database, *, channel: ChannelKey = HERE, spec: WatchSpec = ARXIV) -> int:
    """A watch of the channel (its row made when missing)."""
    with database() as store:
        return store.add_watch(channel=channel, spec=spec, user="U1", now=NOW)


def posted(
    database: Database,
    *,
    channel: ChannelKey,
    title: str,
    days_ago: int,
    votes: tuple[int, ...] = (),
    comments: int = 0,
    deleted: int = 0,
    state: str = "posted",
) -> None:
    """A paper posted in the channel `days_ago` days before DAY (its abstract "About
    <title>."), with a vote per value (a person each), `comments` live comments and `deleted`
    deleted ones; the channel followed when it has no row."""
    add_paper(database, title=title, abstract=f"About {title}.", workspace=channel)
    with database() as store:
        row = store.add_channel_if_missing(key=channel, schedule=EVERY_DAY, private=False)
        paper_id = store.session.scalar(select(PaperRow.id).where(PaperRow.title == title))
        assert paper_id is not None
        post = PostRow(
            paper_id=paper_id,
            channel_id=row.id,
            local_date=DAY - timedelta(days=days_ago),
            state=state,
            message_id=f"{title}.1",
            created_at=NOW,
        )
        store.session.add(post)
        store.session.flush()
        for n, value in enumerate(votes):
            store.session.add(
                VoteRow(post_id=post.id, user_id=f"U{n}", value=value, updated_at=NOW)
            )
        for n in range(comments + deleted):
            store.session.add(
                CommentRow(
                    post_id=post.id,
                    channel_id=row.id,
                    user_id="U1",
                    message_id=f"{title}.{n + 2}",
                    text=HOSTILE,
                    created_at=NOW,
                    deleted=n >= comments,
                )
            )
