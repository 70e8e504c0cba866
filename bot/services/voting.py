"""Votes: buttons and emoji reactions are one vote per person per post; the latest action wins."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.domain import VoteCount
from bot.ports import Store, UnitOfWork

BUTTON = "button"
UP_REACTIONS = frozenset({"+1", "thumbsup"})
DOWN_REACTIONS = frozenset({"-1", "thumbsdown"})


@dataclass(frozen=True, slots=True)
class VoteOutcome:
    """What a vote action did to a post: its id (None when it was no post) and new counts."""

    post_id: int | None
    changed: bool
    votes: VoteCount = field(default_factory=VoteCount)


NOTHING = VoteOutcome(post_id=None, changed=False)


def _outcome(*, store: Store, post_id: int, changed: bool) -> VoteOutcome:
    """The outcome with the post's counts as they stand in this transaction."""
    return VoteOutcome(post_id=post_id, changed=changed, votes=store.vote_count(post_id=post_id))


def reaction_value(
    *,
    name: str,
    up: frozenset[str] = UP_REACTIONS,
    down: frozenset[str] = DOWN_REACTIONS,
) -> int | None:
    """+1 or -1 for a voting reaction (skin tones ignored: `+1::skin-tone-3`), else None."""
    base = name.split("::", 1)[0]
    if base in up:
        return 1
    if base in down:
        return -1
    return None


def click(
    *, uow: UnitOfWork, post_id: int, user: str, value: int, event_id: str, now: datetime
) -> VoteOutcome:
    """A vote button: the other button changes the vote, the same one again withdraws it."""
    with uow() as store:
        if store.post_by_id(post_id=post_id) is None:
            return NOTHING
        if not store.mark_event(event_id=event_id, now=now):
            return VoteOutcome(
                post_id=post_id, changed=False, votes=store.vote_count(post_id=post_id)
            )
        current = store.vote_of(post_id=post_id, user=user)
        if current is not None and current.value == value:
            store.clear_vote(post_id=post_id, user=user)
        else:
            store.set_vote(post_id=post_id, user=user, value=value, source=BUTTON, now=now)
        return _outcome(store=store, post_id=post_id, changed=True)


def react(
    *,
    uow: UnitOfWork,
    platform: str,
    channel_id: str,
    message_ts: str,
    user: str,
    reaction: str,
    added: bool,
    event_id: str,
    now: datetime,
    up: frozenset[str] = UP_REACTIONS,
    down: frozenset[str] = DOWN_REACTIONS,
) -> VoteOutcome:
    """A reaction added or removed on a daily post; reactions anywhere else are ignored.

    Adding sets the vote (the latest action wins); removing withdraws it only when that very
    reaction set it, so removing 👍 after clicking 👎 leaves the 👎 alone.
    """
    value = reaction_value(name=reaction, up=up, down=down)
    if value is None:
        return NOTHING
    source = f"reaction:{reaction.split('::', 1)[0]}"
    with uow() as store:
        post = store.post_by_ts(platform=platform, channel_id=channel_id, ts=message_ts)
        if post is None:
            return NOTHING
        if not store.mark_event(event_id=event_id, now=now):
            return VoteOutcome(
                post_id=post.id, changed=False, votes=store.vote_count(post_id=post.id)
            )
        current = store.vote_of(post_id=post.id, user=user)
        if added:
            changed = current is None or (current.value, current.source) != (value, source)
            store.set_vote(post_id=post.id, user=user, value=value, source=source, now=now)
        else:
            changed = current is not None and current.source == source
            if changed:
                store.clear_vote(post_id=post.id, user=user)
        return VoteOutcome(
            post_id=post.id, changed=changed, votes=store.vote_count(post_id=post.id)
        )
