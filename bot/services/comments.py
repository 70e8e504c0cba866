"""Thread replies on daily posts, kept exactly once; edits and deletions follow them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.domain import ChannelKey, Post
from bot.ports import ActivityStore, UnitOfWork
from bot.services.telemetry import Telemetry


class Needs(ActivityStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


# What the metrics call each change to a comment.
NEW, EDIT, DELETE = "new", "edit", "delete"


@dataclass(frozen=True, slots=True)
class ThreadMessage:
    """Which message an event is about: its channel and thread (the daily post's message id),
    its own message id, who wrote it, and the event."""

    channel: ChannelKey
    thread_id: str
    message_id: str
    user: str
    event_id: str
    now: datetime


def _daily_post(*, uow: UnitOfWork[Needs], message: ThreadMessage) -> Post | None:
    """The daily post whose thread this is; found without taking the write lock, since most
    threads are not daily posts."""
    if message.message_id == message.thread_id:  # the parent message itself, not a reply
        return None
    with uow(write=False) as store:
        return store.post_by_message(channel=message.channel, message_id=message.thread_id)


@contextmanager
def _applying(
    *, uow: UnitOfWork[Needs], message: ThreadMessage
) -> Iterator[tuple[Needs, Post] | None]:
    """The store and the daily post when the event is new and about a daily post's thread
    (its id recorded in the same transaction as its effect); None otherwise."""
    post = _daily_post(uow=uow, message=message)
    if post is None:
        yield None
        return
    with uow() as store:
        yield (
            (store, post) if store.mark_event(event_id=message.event_id, now=message.now) else None
        )


def _counted(*, message: ThreadMessage, action: str, changed: bool, telemetry: Telemetry) -> bool:
    """Whether the event changed a comment, counted when it did; called once the change is
    committed, so a write rolled back (and retried by the platform) is never counted."""
    if changed:
        telemetry.comment(platform=message.channel.platform, action=action)
    return changed


def reply(
    *, uow: UnitOfWork[Needs], message: ThreadMessage, text: str, telemetry: Telemetry
) -> bool:
    """Keep a reply in a daily post's thread; False when it is no such reply or already kept."""
    with _applying(uow=uow, message=message) as target:
        if target is None:
            return False
        store, post = target
        # A deletion (or edit) that overtook this message already holds its id, and wins.
        kept = store.add_comment(
            post=post,
            user=message.user,
            message_id=message.message_id,
            text=text,
            now=message.now,
        )
    return _counted(message=message, action=NEW, changed=kept, telemetry=telemetry)


def edit(
    *, uow: UnitOfWork[Needs], message: ThreadMessage, text: str, telemetry: Telemetry
) -> bool:
    """An edited reply: keep the new text when it changed (unfurls change nothing visible)."""
    with _applying(uow=uow, message=message) as target:
        if target is None:
            return False
        store, post = target
        current = store.comment_at(post=post, message_id=message.message_id)
        if current is None:
            # The edit overtook the message: keep the newer text; the late original is ignored.
            changed = store.add_comment(
                post=post,
                user=message.user,
                message_id=message.message_id,
                text=text,
                now=message.now,
                edited=True,
            )
        elif current.deleted or current.text == text:
            return False
        else:
            store.edit_comment(post=post, message_id=message.message_id, text=text, now=message.now)
            changed = True
    return _counted(message=message, action=EDIT, changed=changed, telemetry=telemetry)


def delete(*, uow: UnitOfWork[Needs], message: ThreadMessage, telemetry: Telemetry) -> bool:
    """A deleted reply leaves search and export; one deleted before it arrived never appears."""
    with _applying(uow=uow, message=message) as target:
        if target is None:
            return False
        store, post = target
        current = store.comment_at(post=post, message_id=message.message_id)
        if current is None:
            changed = store.add_comment(
                post=post,
                user=message.user,
                message_id=message.message_id,
                text="",
                now=message.now,
                deleted=True,
            )
        elif current.deleted:
            return False
        else:
            store.delete_comment(post=post, message_id=message.message_id)
            changed = True
    return _counted(message=message, action=DELETE, changed=changed, telemetry=telemetry)
