"""Thread replies on daily posts, kept exactly once; edits and deletions follow them."""

from __future__ import annotations

from datetime import datetime

from bot.ports import UnitOfWork


def reply(
    *,
    uow: UnitOfWork,
    platform: str,
    channel_id: str,
    thread_ts: str,
    ts: str,
    user: str,
    text: str,
    event_id: str,
    now: datetime,
) -> bool:
    """Keep a reply in a daily post's thread; False when it is no such reply or already kept."""
    if ts == thread_ts:  # the parent message itself, not a reply
        return False
    # Most threads are not daily posts: find out without taking the write lock.
    with uow(write=False) as store:
        post = store.post_by_ts(platform=platform, channel_id=channel_id, ts=thread_ts)
    if post is None:
        return False
    with uow() as store:
        if not store.mark_event(event_id=event_id, now=now):
            return False
        # A deletion (or edit) that overtook this message already holds the ts, and wins.
        return store.add_comment(post=post, user=user, ts=ts, text=text, now=now)


def edit(
    *,
    uow: UnitOfWork,
    platform: str,
    channel_id: str,
    thread_ts: str,
    ts: str,
    user: str,
    text: str,
    event_id: str,
    now: datetime,
) -> bool:
    """An edited reply: keep the new text when it changed (unfurls change nothing visible)."""
    with uow() as store:
        post = store.post_by_ts(platform=platform, channel_id=channel_id, ts=thread_ts)
        if post is None or not store.mark_event(event_id=event_id, now=now):
            return False
        current = store.comment_at(post=post, ts=ts)
        if current is None:
            # The edit overtook the message: keep the newer text; the late original is ignored.
            return store.add_comment(post=post, user=user, ts=ts, text=text, now=now, edited=True)
        if current.deleted or current.text == text:
            return False
        store.edit_comment(post=post, ts=ts, text=text, now=now)
        return True


def delete(
    *,
    uow: UnitOfWork,
    platform: str,
    channel_id: str,
    thread_ts: str,
    ts: str,
    user: str,
    event_id: str,
    now: datetime,
) -> bool:
    """A deleted reply leaves search and export; one deleted before it arrived never appears."""
    with uow() as store:
        post = store.post_by_ts(platform=platform, channel_id=channel_id, ts=thread_ts)
        if post is None or not store.mark_event(event_id=event_id, now=now):
            return False
        current = store.comment_at(post=post, ts=ts)
        if current is None:
            return store.add_comment(post=post, user=user, ts=ts, text="", now=now, deleted=True)
        if current.deleted:
            return False
        store.delete_comment(post=post, ts=ts)
        return True
