"""A small archive with hostile data, two workspaces and a private channel, written as rows.

What must never show on the web: anything of the private channel (its post, its comment,
a paper queued for it) and anything of the other workspace."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from bot.db.schema import ChannelRow, CommentRow, PaperRow, PostRow, VoteRow, WorkspaceRow

TODAY = date(2026, 11, 30)
SCRIPT = "<script>alert(1)</script>"
PRIVATE_COMMENT = "SECRETPRIVATECOMMENT only the private channel may read"
PRIVATE_POSTED = "Sharedlist paper whose only post is in the private channel"
PRIVATE_QUEUED = "Privatequeued paper waiting for the private channel"
OTHER_WORKSPACE = "Otherworkspace paper of another team"
LONG = "word " * 2000  # 10,000 characters
PERMALINK = "https://example.slack.com/archives/{channel}/p{n}"


@dataclass(frozen=True)
class Seeded:
    """Ids the tests look for."""

    script_paper: int
    long_paper: int
    private_posted: int
    private_queued: int
    public_papers: int


def _paper(
    *, ws: int, n: int, title: str, abstract: str = "", queue: int | None = None
) -> PaperRow:
    """A paper row."""
    return PaperRow(
        workspace_id=ws,
        title=title,
        authors=["Ada Lovelace", "Émile 🧪 <b>Bold</b>"],
        abstract=abstract or f"Abstract of paper {n} about transformers.",
        url=f"https://example.org/paper/{n}",
        fingerprint=f"fp{n}",
        source="test",
        added_at=datetime(2026, 1, 1, tzinfo=UTC),
        position=n,
        status="posted",
        queue_channel_id=queue,
    )


def seed(*, url: str, papers: int = 30) -> Seeded:
    """Fill the migrated database at `url`."""
    engine = create_engine(url)
    try:
        with Session(engine) as s, s.begin():
            ws, other = (
                WorkspaceRow(platform="slack", team="T1"),
                WorkspaceRow(platform="slack", team="T2"),
            )
            s.add_all([ws, other])
            s.flush()
            channels = {}
            for name, team, private in (
                ("CPUB", "T1", False),
                ("CPRIV", "T1", True),
                ("COTHER", "T2", False),
            ):
                row = ChannelRow(
                    platform="slack",
                    workspace=team,
                    external_id=name,
                    private=private,
                    post_time="09:00",
                    timezone="UTC",
                    weekdays="daily",
                )
                s.add(row)
                channels[name] = row
            s.flush()
            pub, priv = channels["CPUB"], channels["CPRIV"]
            rows = [
                _paper(ws=ws.id, n=n, title=f"Transformers study number {n} 📄")
                for n in range(papers)
            ]
            script = _paper(
                ws=ws.id, n=1000, title=SCRIPT, abstract=f"<!channel> <@U1> {SCRIPT} 😀"
            )
            long = _paper(
                ws=ws.id, n=1001, title="Long abstract transformers", abstract=LONG + "THE-END"
            )
            posted_private = _paper(ws=ws.id, n=1002, title=PRIVATE_POSTED)
            queued_private = _paper(ws=ws.id, n=1003, title=PRIVATE_QUEUED, queue=priv.id)
            queued_private.status = "queued"
            foreign = _paper(ws=other.id, n=1004, title=OTHER_WORKSPACE)
            s.add_all([*rows, script, long, posted_private, queued_private, foreign])
            s.flush()
            when = datetime(2026, 11, 30, 9, tzinfo=UTC)
            targets = [(p, pub) for p in [*rows, script, long]]
            targets += [(posted_private, priv), (foreign, channels["COTHER"])]
            # the shared-list paper 0 is posted in the private channel too, with a comment there
            targets.append((rows[0], priv))
            for index, (paper, channel) in enumerate(targets):
                day = TODAY - timedelta(days=index % 120)
                post = PostRow(
                    paper_id=paper.id,
                    channel_id=channel.id,
                    local_date=day,
                    state="posted",
                    message_id=f"m{index}",
                    permalink=PERMALINK.format(channel=channel.external_id, n=index),
                    created_at=when,
                )
                s.add(post)
                s.flush()
                for v in range(index % 4):
                    s.add(
                        VoteRow(
                            post_id=post.id,
                            user_id=f"U{v}",
                            value=1 if v % 3 else -1,
                            source="button",
                            updated_at=when + timedelta(hours=v),
                        )
                    )
                text = PRIVATE_COMMENT if channel is priv else f"Comment {index} {SCRIPT} <@U2> 🎉"
                s.add(
                    CommentRow(
                        post_id=post.id,
                        channel_id=channel.id,
                        user_id="U9",
                        message_id=f"c{index}a",
                        text=text,
                        created_at=when,
                        edited_at=when if index % 2 else None,
                    )
                )
                s.add(
                    CommentRow(
                        post_id=post.id,
                        channel_id=channel.id,
                        user_id="U8",
                        message_id=f"c{index}b",
                        text=f"Second reply {index}",
                        created_at=when,
                    )
                )
            return Seeded(
                script_paper=script.id,
                long_paper=long.id,
                private_posted=posted_private.id,
                private_queued=queued_private.id,
                public_papers=papers + 2,
            )
    finally:
        engine.dispose()
