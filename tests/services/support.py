"""Helpers the direct service tests share: a fixed instant, paper look-ups without a network,
a delivered daily post with its thread, a command invocation, and hostile text."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.db.database import Database
from bot.domain import ChannelKey, PaperCard, PaperDraft, Post
from bot.messages import Message, as_plain
from bot.ports import LookupFailed
from bot.services import comments, listing, post_card, posting, voting
from bot.services.commands import Invocation
from bot.services.embedding import NO_SEMANTIC, SemanticExtra
from bot.services.telemetry import Telemetry
from tests.services.conftest import WEEKDAYS, make_poster
from tests.services.memory_chat import MemoryChat

# Monday 5 Jan 2026, 08:00 UTC: 09:00 in Berlin, the WEEKDAYS schedule's post time.
MONDAY = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
# What people type that must stay text: platform markup, mentions, a lot of it, emoji.
HOSTILE = (
    "<!channel> <@U999> *bold* _it_ `code` <https://evil.example|click> @everyone",
    "🦘🧪 wombat ∑ naïve — “quoted”",
    "x" * 10_000,
)


class NoLookup:
    """Titles need no look-up; an id finds nothing."""

    def by_arxiv_id(self, *, arxiv_id: str) -> PaperDraft | None:
        """Nothing."""
        return None

    def by_doi(self, *, doi: str) -> PaperDraft | None:
        """Nothing."""
        return None


@dataclass
class KnownLookup:
    """arXiv and Crossref as a table: id -> draft; `asked` records each question."""

    papers: dict[str, PaperDraft]
    asked: list[str] = field(default_factory=list)

    def by_arxiv_id(self, *, arxiv_id: str) -> PaperDraft | None:
        """The draft kept under this id."""
        self.asked.append(arxiv_id)
        return self.papers.get(arxiv_id)

    def by_doi(self, *, doi: str) -> PaperDraft | None:
        """The draft kept under this DOI."""
        self.asked.append(doi)
        return self.papers.get(doi)


class OfflineLookup:
    """Every question fails as it does without a network."""

    def by_arxiv_id(self, *, arxiv_id: str) -> PaperDraft | None:
        """Fails."""
        raise LookupFailed("arXiv could not be reached")

    def by_doi(self, *, doi: str) -> PaperDraft | None:
        """Fails."""
        raise LookupFailed("Crossref could not be reached")


def plain(said: Message) -> str:
    """A neutral message as plain text."""
    return as_plain(message=said)


def deliver(
    database: Database, chat: MemoryChat, channel: ChannelKey, *, now: datetime = MONDAY
) -> tuple[Post, PaperCard]:
    """Post today's paper in `channel` (forced, so any time will do); the post and its card."""
    result = posting.post_today(
        poster=make_poster(database, chat), channel=channel, now=now, force=True
    )
    assert result.outcome is posting.Outcome.POSTED and result.post is not None, result
    found = post_card.card_of_post(uow=database, post_id=result.post.id, semantic_extra=NO_SEMANTIC)
    assert found is not None and found[0].message_id is not None
    return found


def in_thread(
    post: Post, *, user: str = "U7", message_id: str = "9.000900", event: str = "e1"
) -> comments.ThreadMessage:
    """A message in the post's thread."""
    assert post.message_id is not None
    return comments.ThreadMessage(
        channel=post.channel,
        thread_id=post.message_id,
        message_id=message_id,
        user=user,
        event_id=event,
        now=MONDAY,
    )


def invocation(
    database: Database,
    chat: MemoryChat,
    channel: ChannelKey,
    *,
    user: str = "U1",
    admins: tuple[str, ...] = ("UADMIN",),
    now: datetime = MONDAY,
    semantic_extra: SemanticExtra = NO_SEMANTIC,
) -> Invocation:
    """A /paperclub command typed by `user` in `channel`; admins are PAPERCLUB_ADMINS; no
    metrics, and the semantic extra only when given."""
    return Invocation(
        uow=database,
        chat=chat,
        poster=make_poster(database, chat, semantic_extra=semantic_extra),
        channel=channel,
        user=user,
        admins=admins,
        defaults=WEEKDAYS,
        now=now,
        lookup=NoLookup(),
        telemetry=Telemetry(),
        semantic_extra=semantic_extra,
    )


def thread(database: Database, card: PaperCard, channel: ChannelKey) -> list[str]:
    """The comments kept under a paper's post in `channel`, as the export reads them."""
    for record in listing.records(uow=database, workspace=channel.workspace_key):
        if record.paper.id == card.paper.id:
            return [
                c.text for view in record.posts if view.channel == channel for c in view.comments
            ]
    raise AssertionError(f"no paper {card.paper.id} in {channel.workspace_key}")


def votes(database: Database, post: Post) -> tuple[int, int]:
    """The post's 👍 and 👎 as its redrawn card counts them."""
    found = post_card.card_of_post(uow=database, post_id=post.id, semantic_extra=NO_SEMANTIC)
    assert found is not None
    return found[1].votes.up, found[1].votes.down


def follow_key(database: Database, channel: ChannelKey, *, private: bool = False) -> ChannelKey:
    """Make any channel (another workspace's, another platform's) follow the list; its key."""
    with database() as store:
        store.save_channel(key=channel, schedule=WEEKDAYS, private=private)
    return channel


def vote(
    database: Database,
    post: Post,
    *,
    user: str = "U1",
    value: int = 1,
    event: str = "e",
    now: datetime = MONDAY,
) -> voting.VoteOutcome:
    """A vote button (+1 or -1) clicked by `user` on `post`, in the post's own channel;
    `event` is the click's dedupe id."""
    return voting.click(
        uow=database,
        post_id=post.id,
        channel=post.channel,
        user=user,
        value=value,
        event_id=event,
        now=now,
        telemetry=Telemetry(),
    )
