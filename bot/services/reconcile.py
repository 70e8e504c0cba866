"""Reconciliation of one daily post: its reactions and thread read back from the platform, and
the archive brought in line with what they show now, once and idempotently.

What a read cannot know, it leaves alone:
- anything the archive changed at or after the moment the read began (a live event applied
  meanwhile is newer than the read: the one-vote-per-person rule and the comment's text stay
  as the event left them);
- votes cast by button: the platform acknowledged them, and a post's reactions say nothing
  about them;
- comments deleted: a message deleted on the platform never comes back.
When a person shows both 👍 and 👎 and the archive holds neither (both added while the bot was
down), the platform's first-listed one is taken: the read has no times to order them by.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.domain import Post
from bot.ports import ActivityStore, UnitOfWork
from bot.ports.activity import RECONCILED
from bot.ports.readback import ReadBack, SeenReaction, SeenReply
from bot.ports.reconcile import ReconcileStore, StoredVote
from bot.services import event_ids, voting
from bot.services.telemetry import Telemetry


class Needs(ActivityStore, ReconcileStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


class Stopped(Exception):
    """The process is stopping: the post's read is dropped unapplied (it is read again)."""


@dataclass(frozen=True, slots=True)
class Found:
    """What one post's read changed: votes set or withdrawn, comments kept, edited, deleted."""

    votes: int = 0
    added: int = 0
    edited: int = 0
    deleted: int = 0

    @property
    def total(self) -> int:
        """Every change."""
        return self.votes + self.added + self.edited + self.deleted


@dataclass(frozen=True, slots=True)
class Seen:
    """A post as the platform shows it now."""

    reactions: tuple[SeenReaction, ...]
    replies: tuple[SeenReply, ...]


def read(
    *,
    chat: ReadBack,
    post: Post,
    names: frozenset[str],
    stopping: Callable[[], bool],
    on_page: Callable[[], None],
) -> Seen:
    """Read a post's reactions (only those that vote) and its whole thread, page by page;
    `on_page` is told after each page (a run renews its claim there). ChatError when the
    platform cannot be asked; Stopped when the process stops between two pages."""
    assert post.message_id is not None
    reactions = chat.reactions_on(channel=post.channel, message_id=post.message_id, names=names)
    replies: list[SeenReply] = []
    cursor: str | None = None
    while True:
        page = chat.thread_page(channel=post.channel, message_id=post.message_id, cursor=cursor)
        replies.extend(page.replies)
        on_page()
        if page.cursor is None:
            return Seen(reactions=tuple(reactions), replies=tuple(replies))
        if stopping():
            raise Stopped
        cursor = page.cursor


def apply(
    *,
    uow: UnitOfWork[Needs],
    post: Post,
    seen: Seen,
    read_at: datetime,
    up: frozenset[str],
    down: frozenset[str],
    telemetry: Telemetry,
    still_ours: Callable[[Needs], bool] = lambda _store: True,
) -> Found:
    """Bring the archive in line with what was read (the read began at `read_at`), in one
    transaction that also notes the post as read; the changes are counted once committed.
    `still_ours` is asked first in that transaction (a run's claim); False: Stopped, and
    nothing is written."""
    with uow() as store:
        if not still_ours(store):
            raise Stopped
        votes = _votes(
            store=store, post=post, seen=seen.reactions, read_at=read_at, up=up, down=down
        )
        found = _thread(store=store, post=post, seen=seen.replies, read_at=read_at, votes=votes)
        store.mark_reconciled(post_id=post.id, at=read_at)
    platform = post.channel.platform
    for change, count in (
        ("vote", found.votes),
        ("new", found.added),
        ("edit", found.edited),
        ("delete", found.deleted),
    ):
        if count:
            telemetry.reconciled(platform=platform, change=change, count=count)
    return found


def _voting(
    *, seen: Iterable[SeenReaction], up: frozenset[str], down: frozenset[str]
) -> dict[str, list[SeenReaction]]:
    """Each person's voting reactions, in the platform's order."""
    by_person: dict[str, list[SeenReaction]] = {}
    for reaction in seen:
        if voting.reaction_value(name=reaction.name, up=up, down=down) is not None:
            by_person.setdefault(reaction.user, []).append(reaction)
    return by_person


def _votes(
    *,
    store: Needs,
    post: Post,
    seen: Iterable[SeenReaction],
    read_at: datetime,
    up: frozenset[str],
    down: frozenset[str],
) -> int:
    """Set the votes of reactions added while unheard and withdraw those of reactions taken
    back; how many changed."""
    shown = _voting(seen=seen, up=up, down=down)
    assert post.message_id is not None
    # Presence keys (Discord's reactions have no event id) of reactions gone while unheard
    # would take the next add for a repeat: only the ones still shown stay.
    store.forget_gone_presence(
        prefix=event_ids.message_presence(message_id=post.message_id),
        keep=frozenset(
            event_ids.presence_prefix(message_id=post.message_id, user=r.user) + r.emoji
            for reactions in shown.values()
            for r in reactions
        ),
    )
    stored: dict[str, StoredVote] = {v.user: v for v in store.votes_on(post_id=post.id)}
    changed = 0
    for user in sorted(set(shown) | set(stored)):
        vote, present = stored.get(user), shown.get(user, [])
        if vote is not None and vote.changed_at >= read_at:
            continue  # a live event is newer than the read
        if vote is not None and vote.source == voting.BUTTON:
            continue  # a button's vote or withdrawal: acknowledged, no reaction speaks for it
        sources = {voting.reaction_source(name=r.name) for r in present}
        if vote is not None and vote.value != 0 and vote.source in sources:
            continue  # the reaction that set it is still there
        if present:
            first = present[0]
            value = voting.reaction_value(name=first.name, up=up, down=down) or 0
            source = voting.reaction_source(name=first.name)
            if vote is not None and (vote.value, vote.source) == (value, source):
                continue
            store.set_vote(
                post_id=post.id,
                user=user,
                value=value,
                source=source,
                now=read_at,
                origin=RECONCILED,
            )
        elif vote is not None and vote.value != 0:
            store.clear_vote(post_id=post.id, user=user, now=read_at, source=vote.source)
        else:
            continue
        changed += 1
    return changed


def _thread(
    *, store: Needs, post: Post, seen: Iterable[SeenReply], read_at: datetime, votes: int
) -> Found:
    """Keep replies written while unheard, follow edits, delete what is gone."""
    stored = {c.message_id: c for c in store.comments_on(post=post)}
    added = edited = 0
    shown: set[str] = set()
    for reply in seen:
        shown.add(reply.message_id)
        comment = stored.get(reply.message_id)
        if comment is None:
            added += store.add_comment(
                post=post,
                user=reply.user,
                message_id=reply.message_id,
                text=reply.text,
                now=reply.written_at,
                edited_at=reply.edited_at,
                origin=RECONCILED,
            )
        elif not comment.deleted and comment.changed_at < read_at and comment.text != reply.text:
            store.edit_comment(
                post=post,
                message_id=reply.message_id,
                text=reply.text,
                now=reply.edited_at or read_at,
                origin=RECONCILED,
            )
            edited += 1
    deleted = 0
    for comment in stored.values():
        if comment.message_id in shown or comment.deleted or comment.changed_at >= read_at:
            continue
        store.delete_comment(post=post, message_id=comment.message_id, origin=RECONCILED)
        deleted += 1
    return Found(votes=votes, added=added, edited=edited, deleted=deleted)
