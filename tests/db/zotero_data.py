"""What the Zotero storage tests share: a channel's link, copies as the sync plans them, and
posts made straight in the tables (a private channel's, a post not posted yet)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from bot.db.database import Database
from bot.db.schema import PaperRow, PostRow, VoteRow
from bot.domain import ChannelKey
from bot.ports.zotero import ZoteroCopy, ZoteroLink
from tests.db.sources_data import DAY, EVERY_DAY, HERE, NOW

LIBRARY = "groups/123"


def link(channel: ChannelKey = HERE, **fields: object) -> ZoteroLink:
    """A link of the channel to LIBRARY as `connect` keeps it (fields override)."""
    given: dict[str, object] = {
        "channel": channel,
        "library_kind": "groups",
        "library_id": 123,
        "sealed_key": "sealed:v1:abc",
        "connected_by": "U1",
        "connected_at": NOW,
    }
    given.update(fields)
    return ZoteroLink(**given)  # type: ignore[arg-type]


def plan(post_id: int, mark: str = "A", **fields: object) -> ZoteroCopy:
    """A planned copy of a post, its keys and token told apart by `mark` (fields override)."""
    given: dict[str, object] = {
        "post_id": post_id,
        "item_key": f"ITEM{mark}{post_id:03d}",
        "note_key": f"NOTE{mark}{post_id:03d}",
        "write_token": f"{mark}{post_id}".ljust(32, "0"),
    }
    given.update(fields)
    return ZoteroCopy(**given)  # type: ignore[arg-type]


def follow(database: Database, *, channel: ChannelKey, private: bool = False) -> None:
    """The channel follows the list (private or not)."""
    with database() as store:
        store.add_channel_if_missing(key=channel, schedule=EVERY_DAY, private=private)


def post_of(
    database: Database,
    *,
    title: str,
    channel: ChannelKey,
    days_ago: int,
    message_id: str | None,
    votes: tuple[int, ...] = (),
) -> int:
    """A post of the paper titled `title` (already in the archive) in a followed channel,
    with a vote per value; its id."""
    with database() as store:
        owner = store.channel(key=channel)
        assert owner is not None
        paper_id = store.session.scalar(select(PaperRow.id).where(PaperRow.title == title))
        assert paper_id is not None
        row = PostRow(
            paper_id=paper_id,
            channel_id=owner.id,
            local_date=DAY - timedelta(days=days_ago),
            state="posted" if message_id else "pending",
            message_id=message_id,
            created_at=NOW,
        )
        store.session.add(row)
        store.session.flush()
        for n, value in enumerate(votes):
            store.session.add(VoteRow(post_id=row.id, user_id=f"V{n}", value=value, updated_at=NOW))
        return row.id


def post_ids(database: Database, *, channel: ChannelKey) -> list[int]:
    """The channel's post ids, in id order."""
    with database(write=False) as store:
        owner = store.channel(key=channel)
        assert owner is not None
        return list(
            store.session.scalars(
                select(PostRow.id).where(PostRow.channel_id == owner.id).order_by(PostRow.id)
            )
        )
