"""Votes: buttons and emoji reactions are one vote per person per post; the latest action wins."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.domain import ChannelKey
from bot.messages import Message
from bot.ports import ActivityStore, UnitOfWork
from bot.services.telemetry import Telemetry
from bot.wording import replies


class Needs(ActivityStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


BUTTON = "button"
REACTION = "reaction"
UP_REACTIONS = frozenset({"+1", "thumbsup"})
DOWN_REACTIONS = frozenset({"-1", "thumbsdown"})


@dataclass(frozen=True, slots=True)
class VoteOutcome:
    """What a vote action did: the post's id (None when it was no post) and whether it changed.
    No counts: the coalesced redraw reads them afresh, so a vote does not pay for them.
    `answer`: what only the person who clicked is told (a vote not saved, a button of another
    channel); None when the post's redrawn counts say it all."""

    post_id: int | None
    changed: bool
    answer: Message | None = None


NOTHING = VoteOutcome(post_id=None, changed=False)
NOT_HERE = VoteOutcome(post_id=None, changed=False, answer=replies.BUTTON_NOT_HERE)


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


def reaction_source(*, name: str) -> str:
    """What a reaction's vote is stored as set by: its name without the skin tone."""
    return f"{REACTION}:{name.split('::', 1)[0]}"


def click(
    *,
    uow: UnitOfWork[Needs],
    channel: ChannelKey,
    post_id: int,
    user: str,
    value: int,
    event_id: str,
    now: datetime,
    telemetry: Telemetry,
    via: str = BUTTON,
) -> VoteOutcome:
    """A vote button: the other button changes the vote, the same one again withdraws it.
    `channel`: where it was clicked; a button carrying a post of another channel (or another
    workspace) stores nothing: its value is the clicker's to write, the channel is the
    platform's word (a private post's id must not take votes from a public channel). `via`
    names how it was pressed, for the metrics only (the console's typed +1 is stored as a
    button vote too)."""
    with uow() as store:
        # The event id first: a redelivery costs one statement and changes nothing.
        if not store.mark_event(event_id=event_id, now=now):
            return VoteOutcome(post_id=post_id, changed=False)
        post = store.post_by_id(post_id=post_id)
        if post is None:
            return NOTHING
        if post.channel != channel:
            return NOT_HERE
        current = store.vote_of(post_id=post_id, user=user)
        if current is not None and current.value == value:
            store.clear_vote(post_id=post_id, user=user, now=now, source=BUTTON)
        else:
            store.set_vote(post_id=post_id, user=user, value=value, source=BUTTON, now=now)
    # Counted once committed: a vote rolled back (and so retried by the platform) never is.
    telemetry.vote(platform=post.channel.platform, source=via)
    return VoteOutcome(post_id=post_id, changed=True)


def react(
    *,
    uow: UnitOfWork[Needs],
    channel: ChannelKey,
    message_id: str,
    user: str,
    reaction: str,
    added: bool,
    event_id: str | None,
    now: datetime,
    telemetry: Telemetry,
    up: frozenset[str] = UP_REACTIONS,
    down: frozenset[str] = DOWN_REACTIONS,
    present_key: str | None = None,
) -> VoteOutcome:
    """A reaction added or removed on a daily post; reactions anywhere else are ignored.

    Adding sets the vote (the latest action wins); removing withdraws it only when that very
    reaction set it, so removing 👍 after clicking 👎 leaves the 👎 alone. A platform whose
    events carry no id (Discord's reactions) passes event_id None and a `present_key` naming
    the reaction (message, person, emoji): a person cannot add one reaction twice without taking
    it back between, so an add while it is present is the same event delivered again.
    """
    value = reaction_value(name=reaction, up=up, down=down)
    if value is None:
        return NOTHING
    # Most reactions are on other messages: find out without taking the write lock.
    with uow(write=False) as store:
        post = store.post_by_message(channel=channel, message_id=message_id)
    if post is None:
        return NOTHING
    source = reaction_source(name=reaction)
    with uow() as store:
        if event_id is not None and not store.mark_event(event_id=event_id, now=now):
            return VoteOutcome(post_id=post.id, changed=False)
        if present_key is not None:
            if not added:
                store.forget_event(event_id=present_key)
            elif not store.mark_event(event_id=present_key, now=now):
                return VoteOutcome(post_id=post.id, changed=False)
        current = store.vote_of(post_id=post.id, user=user)
        if added:
            changed = current is None or (current.value, current.source) != (value, source)
            store.set_vote(post_id=post.id, user=user, value=value, source=source, now=now)
        else:
            changed = current is not None and current.source == source
            if changed or current is None:
                # None: the reaction was added while unheard; a read-back that saw it before
                # this removal must not bring it back, so the withdrawal is noted all the same.
                store.clear_vote(post_id=post.id, user=user, now=now, source=source)
    if changed:  # once committed, as a click is
        telemetry.vote(platform=channel.platform, source=REACTION)
    return VoteOutcome(post_id=post.id, changed=changed)
