"""What the Zotero fault tests share: a month of posts (votes, hostile comments) made straight
in a prepared archive, the channel's Zotero link kept as `connect` keeps it (its key sealed),
and the bot's environment pointed at the fake Zotero."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.db.database import Database
from bot.db.schema import CommentRow, PaperRow, PostRow, VoteRow
from bot.domain import ChannelKey, PaperDraft
from bot.ingest.drafts import build_draft
from bot.ports.zotero import ZoteroLink
from bot.sealing import TokenCipher, new_key
from bot.services import importing
from tests.fakeslack import FakeSlack
from tests.fakezotero import FakeZotero
from tests.faults.support import UTC_DAILY, bot_env, prepare_database

CHANNEL = ChannelKey(platform="slack", workspace="T0001", channel="C0001")
API_KEY = "P9NiFoyLeZu2bZNvvuQPDWsd"
USER = 123456
SECRET = new_key()
DAYS = 30  # a month of posts
FIRST = date(2026, 11, 1)
WORDS = ("attention", "pipelines", "sparsity", "decoding", "batching", "routing", "caching")
HOSTILE = "<!channel> @everyone <script>alert(1)</script> [x](javascript:alert(1)) 🚀"


def spelt(n: int) -> str:
    """A number as a word of letters ("bcd" for 123), so every paper of a long month has words
    of its own (the import would take two alike for one paper)."""
    return "".join(chr(ord("b") + int(digit)) for digit in str(n))


def month_archive(db: Path, *, days: int = DAYS, linked: bool = True) -> list[int]:
    """A migrated SQLite file with the sample list, C0001 following it, and the month
    (month_of_posts); the post ids."""
    prepare_database(db, channels=("C0001",))
    return month_of_posts(url=f"sqlite:///{db}", days=days, linked=linked)


def month_of_posts(*, url: str, days: int = DAYS, linked: bool = True) -> list[int]:
    """On a migrated archive: C0001 following the list but paused (no post of today: the month
    is all), a post a day for `days` days with votes and a hostile thread, and (when `linked`)
    the channel's link to USER's library as `connect` keeps it; the post ids."""
    database = Database(url=url)
    with database() as store:
        store.add_channel_if_missing(key=CHANNEL, schedule=UTC_DAILY, private=False)
    posts: list[int] = []
    try:
        drafts = [
            build_draft(
                origin=f"month:{n}",
                title=f"Paper on {WORDS[n % len(WORDS)]} {spelt(n)} {n:02d}"
                + (f" {HOSTILE}" if n % 5 == 0 else ""),
                abstract=f"On {WORDS[n % len(WORDS)]} and {spelt(n)}, day {n}.",
                authors=("Ada Lovelace", "Grace Hopper"),
                arxiv_id=f"2611.{n + 10000:05d}",
            )
            for n in range(days)
        ]
        report = importing.import_drafts(
            uow=database,
            drafts=[d for d in drafts if isinstance(d, PaperDraft)],
            now=datetime.now(UTC),
        )
        assert report.added == days, report
        with database() as store:
            followed = store.channel(key=CHANNEL)
            assert followed is not None
            store.set_channel_flags(channel=followed, paused=True)
            papers = list(
                store.session.scalars(
                    select(PaperRow.id).where(PaperRow.source.like("month:%")).order_by(PaperRow.id)
                )
            )
            for n in range(days):
                day = FIRST + timedelta(days=n)
                at = datetime.combine(day, datetime.min.time(), tzinfo=UTC)
                row = PostRow(
                    paper_id=papers[n],
                    channel_id=followed.id,
                    local_date=day,
                    state="posted",
                    message_id=f"1700000000.{n:06d}",
                    created_at=at,
                )
                store.session.add(row)
                store.session.flush()
                posts.append(row.id)
                for v in range(n % 4):
                    value = 1 if v % 3 else -1
                    store.session.add(
                        VoteRow(post_id=row.id, user_id=f"U0V{v}", value=value, updated_at=at)
                    )
                store.session.add(
                    CommentRow(
                        post_id=row.id,
                        channel_id=followed.id,
                        user_id="U0MEMBER",
                        message_id=f"1700000000.{n:06d}1",
                        text=f"{HOSTILE} day {n}",
                        created_at=at,
                    )
                )
            if not linked:
                return posts
            store.save_zotero_link(
                link=ZoteroLink(
                    channel=CHANNEL,
                    library_kind="users",
                    library_id=USER,
                    sealed_key=str(TokenCipher(keys=[SECRET]).seal(value=API_KEY)),
                    connected_by="U0ADMIN",
                    connected_at=datetime.now(UTC),
                )
            )
    finally:
        database.dispose()
    return posts


def zotero_env(
    fake: FakeSlack, db: Path, zotero: FakeZotero, *, every: str = "1"
) -> dict[str, str]:
    """bot_env without a configured channel (it would resume C0001), syncing with the fake
    Zotero every `every` seconds."""
    return bot_env(
        fake,
        db,
        extra={
            "PAPERCLUB_CHANNEL": "",
            "PAPERCLUB_SECRET_KEY": SECRET,
            "PAPERCLUB_ZOTERO_API_URL": zotero.url,
            "PAPERCLUB_ZOTERO_SYNC": every,
            "PAPERCLUB_SOURCES_PRIVATE": "1",
        },
    )


def library_items(zotero: FakeZotero) -> list[dict[str, Any]]:
    """USER's items in the fake, notes too (copies)."""
    return [dict(d) for d in zotero.library(kind="users", id=USER).live(kind="items")]


def written_once(zotero: FakeZotero, *, posts: int) -> list[str]:
    """What is wrong with USER's library for `posts` posts written once each: an item per
    post, titles all different, one note under each, all in one collection ([] when right)."""
    items = library_items(zotero)
    papers = [d for d in items if d.get("itemType") != "note"]
    notes = Counter(str(d.get("parentItem")) for d in items if d.get("itemType") == "note")
    collections = zotero.library(kind="users", id=USER).live(kind="collections")
    wrong: list[str] = []
    if len(papers) != posts:
        wrong.append(f"{len(papers)} items for {posts} posts")
    titles = Counter(str(d.get("title")) for d in papers)
    wrong += [f"{title!r} written {n} times" for title, n in titles.items() if n > 1]
    wrong += [f"{d['key']} has {notes[d['key']]} notes" for d in papers if notes[d["key"]] != 1]
    if len(collections) != 1:
        wrong.append(f"{len(collections)} collections")
    return wrong
