"""The judged set (tests/data/relevance/) read and loaded into a fresh archive: the corpus
through the real import service, the threads' comments through the real comment service
(bot/services/comments.reply), as the bot stores a reply in a daily post's thread.

Each commented paper gets one daily post (a day of its own) in one channel of the console's
workspace; its comments are replies in that post's thread, in file order.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from bot.db.database import Database
from bot.domain import ChannelKey, PaperDraft, Schedule
from bot.services import comments, importing
from bot.services.telemetry import Telemetry

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "relevance"
NOW = datetime(2026, 1, 1, tzinfo=UTC)
# The console's workspace: the papers are imported into it and the threads are in its channel.
CHANNEL = ChannelKey(platform="console", workspace="", channel="relevance")
WORKSPACE = CHANNEL.workspace_key
_SCHEDULE = Schedule(post_time=time(9, 0), timezone="UTC", weekdays=frozenset(range(1, 8)))


def read(pattern: str) -> list[dict[str, Any]]:
    """Every line of the judged set's files matching `pattern`, in name order."""
    return [
        json.loads(line)
        for path in sorted(DATA.glob(pattern))
        for line in path.read_text("utf-8").splitlines()
        if line.strip()
    ]


def load_archive(
    *, database: Database, corpus: list[dict[str, Any]], said: list[dict[str, Any]]
) -> dict[int, str]:
    """Import the corpus and the comments; the corpus key of each paper row id."""
    drafts = [
        PaperDraft(
            title=p["title"],
            abstract=p["abstract"],
            authors=tuple(p["authors"]),
            origin=f"corpus:{p['id']}",
        )
        for p in corpus
    ]
    importing.import_drafts(uow=database, drafts=drafts, now=NOW, workspace=WORKSPACE)
    with database(write=False) as store:
        titles = {p.id: p.title for p in store.papers_to_embed(model="-", limit=len(corpus))}
    by_title = {p["title"]: p["id"] for p in corpus}
    key_of = {pid: by_title[title] for pid, title in titles.items()}
    _comment(database=database, row_of={key: pid for pid, key in key_of.items()}, said=said)
    return key_of


def _comment(*, database: Database, row_of: dict[str, int], said: list[dict[str, Any]]) -> None:
    """One posted daily post per commented paper, and each comment a reply in its thread."""
    with database() as store:
        channel = store.save_channel(key=CHANNEL, schedule=_SCHEDULE, private=False)
    posts: dict[str, Any] = {}
    for n, line in enumerate(said):
        key = line["paper"]
        if key not in posts:
            day = date(2025, 1, 1) + timedelta(days=len(posts))
            with database() as store:
                post = store.claim_post(
                    channel=channel, local_date=day, paper_id=row_of[key], owner="bench", now=NOW
                )
                assert post is not None, key
                message_id = f"{len(posts) + 1}.000100"
                store.mark_posted(post_id=post.id, message_id=message_id, permalink=None)
            posts[key] = message_id
        message = comments.ThreadMessage(
            channel=CHANNEL,
            thread_id=posts[key],
            message_id=f"{n + 1}.000200",
            user=line["user"],
            event_id=f"relevance-{n}",
            now=NOW,
        )
        text = line["text"]
        assert comments.reply(uow=database, message=message, text=text, telemetry=Telemetry())
