"""A console trial's archive: the console's channel is private, but the console is one person
at a terminal, so its own web archive shows it; /paperclub web there says how to open it."""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from bot.db.database import Database
from bot.db.schema import ChannelRow, CommentRow, PaperRow, PostRow, WorkspaceRow
from bot.domain import ChannelKey
from bot.services import web_links
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive import archive_app
from bot.wording import web as words

DAY = date(2026, 11, 30)


def _console_archive(*, url: str) -> None:
    """A console workspace with its private channel, one post and one comment."""
    engine = create_engine(url)
    when = datetime(2026, 11, 30, 9, tzinfo=UTC)
    try:
        with Session(engine) as s, s.begin():
            ws = WorkspaceRow(platform="console", team="")
            channel = ChannelRow(
                platform="console",
                workspace="",
                external_id="console",
                private=True,
                post_time="09:00",
                timezone="UTC",
                weekdays="daily",
            )
            s.add_all([ws, channel])
            s.flush()
            paper = PaperRow(
                workspace_id=ws.id,
                title="Attention is all you need",
                authors=["Ashish Vaswani"],
                abstract="The dominant sequence transduction models.",
                fingerprint="fp-console",
                source="test",
                added_at=when,
                position=1,
                status="posted",
            )
            s.add(paper)
            s.flush()
            post = PostRow(
                paper_id=paper.id,
                channel_id=channel.id,
                local_date=DAY,
                state="posted",
                message_id="1.000001",
                created_at=when,
            )
            s.add(post)
            s.flush()
            s.add(
                CommentRow(
                    post_id=post.id,
                    channel_id=channel.id,
                    user_id="console",
                    message_id="1.000002",
                    text="Worth reading twice",
                    created_at=when,
                )
            )
    finally:
        engine.dispose()


def test_the_console_archive_shows_the_console_channel(sqlite_url: str) -> None:
    """Home, the paper with its comment, and search all show the console's talk."""
    _console_archive(url=sqlite_url)
    database = Database(url=sqlite_url)
    try:
        client = archive_app(
            semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), uow=database, today=lambda: DAY
        ).test_client()
        home = client.get("/").get_data(as_text=True)
        assert "Attention is all you need" in home and "#console" in home
        assert words.NO_PUBLIC_CHANNEL not in home
        paper = client.get("/api/paper/1").get_json()
        assert [c["text"] for c in paper["posts"][0]["comments"]] == ["Worth reading twice"]
        assert client.get("/api/search?q=twice").get_json()["total"] == 1
    finally:
        database.dispose()


def test_web_on_the_console_does_not_send_you_to_yourself() -> None:
    """Without sign-in, the console's /paperclub web says how to open the archive, where
    another platform's says it is served on its machine only."""
    now = datetime(2026, 11, 30, tzinfo=UTC)
    console = ChannelKey(platform="console", workspace="", channel="console")
    here = web_links.reply(channel=console, now=now, signer=None)
    assert here.message == words.WEB_HERE and "ask whoever" not in str(here.message).lower()
    slack = ChannelKey(platform="slack", workspace="T1", channel="C1")
    assert web_links.reply(channel=slack, now=now, signer=None).message == words.WEB_OFF
