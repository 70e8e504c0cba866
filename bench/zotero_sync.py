"""A channel's Zotero sync: the first sync of a year of posts, and a pass with nothing changed,
against the fake Zotero on loopback (tests/fakezotero).

    python -m bench.zotero_sync [--posts N] [--repeat R]

Ours: bot.zotero.sync.sync_due, as the runtime's thread calls it (the link's key opened, the
collection made, each post's keys and write token committed before its write, items and notes
rendered and written 25 posts a request, copies kept). The first sync's baseline is the bare
client writing the same items and notes in requests of 50 objects, rendered beforehand, into a
fresh library: what the writes cost alone. The unchanged pass's baseline is reading the
channel's posted papers, page by page: the archive reads a pass cannot skip.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.stats import figure
from bot.db.database import Database
from bot.sealing import TokenCipher
from bot.zotero import LibraryRef, ZoteroClient, ZoteroSession, new_object_key
from bot.zotero.mapping import paper_item
from bot.zotero.note import discussion_html, discussion_note
from bot.zotero.sync import sync_due
from tests.fakezotero import FakeZotero
from tests.faults.zotero_support import API_KEY, CHANNEL, SECRET, USER, month_archive

POSTS = 365  # a year of daily posts
PAGE = 100  # posts read at a time, as the sync reads them


def _session(*, zotero: FakeZotero) -> ZoteroSession:
    return ZoteroSession(api_key=API_KEY, base=zotero.url, allow_private=True)


def _sync(*, database: Database, zotero: FakeZotero) -> float:
    """Milliseconds of one sync pass; it must sync the link without a failure."""
    started = time.perf_counter()
    done = sync_due(
        uow=database,
        cipher=TokenCipher(keys=[SECRET]),
        session_for=lambda _key: _session(zotero=zotero),
        now=datetime.now(UTC),
    )
    elapsed = (time.perf_counter() - started) * 1000
    assert done.synced == 1 and not done.failures, done
    return elapsed


def _read_pages(*, database: Database) -> tuple[float, list[Any]]:
    """Milliseconds to read the channel's posted papers page by page, and what was read."""
    started = time.perf_counter()
    found: list[Any] = []
    after = 0
    while True:
        with database(write=False) as store:
            page = store.posted_papers(channel=CHANNEL, after_post=after, limit=PAGE)
        found += page
        if len(page) < PAGE:
            break
        after = page[-1].post_id
    return (time.perf_counter() - started) * 1000, found


def _bare_writes(*, posted: list[Any]) -> float:
    """Milliseconds for the bare client to write each post's item and note into a fresh
    library, 50 objects a request (rendering done before the clock starts)."""
    objects: list[dict[str, Any]] = []
    for one in posted:
        item = paper_item(paper=one.paper, tags=("Paper Club",))
        objects.append(item)
        html = discussion_html(title=one.paper.title, post=one.view, channel_name="#general")
        objects.append(dict(discussion_note(parent="", html=html)))
    with FakeZotero() as zotero:
        zotero.add_key(key=API_KEY, user_id=USER)
        client = ZoteroClient(
            session=_session(zotero=zotero), library=LibraryRef(kind="users", id=USER)
        )
        started = time.perf_counter()
        for start in range(0, len(objects), 50):
            batch = [dict(o) for o in objects[start : start + 50]]
            for n in range(0, len(batch), 2):  # each note under the item before it
                batch[n]["key"] = new_object_key()
                batch[n + 1]["parentItem"] = batch[n]["key"]
            client.create_items(items=batch)
        return (time.perf_counter() - started) * 1000


def run(*, posts: int, repeat: int) -> list[dict[str, Any]]:
    """The two rows, each `repeat` fresh archives and libraries."""
    first, bare, unchanged, reads = [], [], [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "paperclub.db"
            month_archive(db, days=posts)
            database = Database(url=f"sqlite:///{db}")
            try:
                with FakeZotero() as zotero:
                    zotero.add_key(key=API_KEY, user_id=USER)
                    first.append(_sync(database=database, zotero=zotero))
                    library = zotero.library(kind="users", id=USER)
                    assert len(library.live(kind="items")) == 2 * posts
                    unchanged.append(_sync(database=database, zotero=zotero))
                read_ms, posted = _read_pages(database=database)
                reads.append(read_ms)
                bare.append(_bare_writes(posted=posted))
            finally:
                database.dispose()
    return [
        figure(
            name=f"Zotero first sync, {posts} posts",
            unit="ms",
            ours=first,
            baseline="bare client writes",
            theirs=bare,
        ),
        figure(
            name=f"Zotero pass, nothing changed, {posts} posts",
            unit="ms",
            ours=unchanged,
            baseline="posted papers read",
            theirs=reads,
        ),
    ]


def main() -> None:
    """Print the rows as JSON lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=POSTS)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for row in run(posts=args.posts, repeat=args.repeat):
        print(json.dumps(row))


if __name__ == "__main__":
    main()
