"""The daily post, exactly once per channel and local date, whatever crashes meanwhile.

Step by step:
1. In one transaction, insert the post row (state pending, claimed by this process) before
   anything is sent; UNIQUE(channel, local_date) lets only one process win the day, and the
   paper leaves the queue in the same transaction.
2. Call the platform with the post id and date as message metadata.
3. In a second transaction, record the message id: the post is done.
A crash after 1 leaves a pending row. Whoever finds it (a restart, the minute sweep, another
replica) takes the claim over only when its lease ran out or its owner is known dead, then
looks in the channel's history for the post before posting: a message that reached the
platform before the crash is recorded, never sent again.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.domain import Channel, ChannelKey, PaperCard, PaperStatus, Post
from bot.messages import Message
from bot.ports import Chat, ChatError, UnitOfWork
from bot.services import delivery, post_card
from bot.services.embedding import SemanticExtra
from bot.services.schedule import is_due, local_now
from bot.services.telemetry import Telemetry
from bot.wording import archive

# Posting claims, records and releases posts and keeps channels' flags (posts, channels) and
# recap.py sends recaps on the poster's unit of work: all roles a post's card reads already.
Needs = post_card.Needs

log = logging.getLogger(__name__)

# Longer than one chat.postMessage with its retries can take, so a live poster keeps its claim.
LEASE = timedelta(minutes=2)


class Outcome(enum.StrEnum):
    """What one attempt to post did."""

    POSTED = "posted"
    RECOVERED = "recovered"
    ALREADY = "already"
    NOT_DUE = "not_due"
    PAUSED = "paused"
    EMPTY = "empty"
    BUSY = "busy"
    FAILED = "failed"
    UNKNOWN_CHANNEL = "unknown_channel"


@dataclass(frozen=True, slots=True)
class PostResult:
    """The outcome, the post concerned, and the platform error when there was one."""

    outcome: Outcome
    post: Post | None = None
    error: ChatError | None = None


@dataclass(frozen=True, slots=True)
class Poster:
    """Who is posting: the platform, this process's claim name and how to tell a dead claim;
    who counts each outcome, and the semantic extra (the taste pick, the related line)."""

    uow: UnitOfWork[Needs]
    chat: Chat
    platform: str
    owner: str
    owner_alive: Callable[[str], bool]
    telemetry: Telemetry
    semantic_extra: SemanticExtra
    lease: timedelta = LEASE


def _claim_stale(*, poster: Poster, post: Post, now: datetime) -> bool:
    """A claim may be taken over when its lease ran out or its owner is dead. Our own live claim
    is not stale: another thread of this process may be posting it right now."""
    if post.claimed_by is None or post.claimed_at is None:
        return True
    if post.claimed_by == poster.owner:
        return now - post.claimed_at > poster.lease
    return now - post.claimed_at > poster.lease or not poster.owner_alive(post.claimed_by)


def post_today(
    *, poster: Poster, channel: ChannelKey, now: datetime, force: bool = False
) -> PostResult:
    """Post the channel's paper of its local today, if due (or forced) and not yet posted."""
    if channel.platform != poster.platform:  # another platform's channel is not ours to post
        return _counted(poster=poster, result=PostResult(outcome=Outcome.UNKNOWN_CHANNEL))
    return _counted(
        poster=poster, result=_post_today(poster=poster, key=channel, now=now, force=force)
    )


def _counted(*, poster: Poster, result: PostResult) -> PostResult:
    """The result, counted for the metrics: every result the service hands out, once."""
    poster.telemetry.post(platform=poster.platform, outcome=result.outcome.value)
    return result


def _post_today(*, poster: Poster, key: ChannelKey, now: datetime, force: bool) -> PostResult:
    """post_today for a channel of the poster's own platform."""
    notify_empty = False
    with poster.uow() as store:
        channel = store.channel(key=key)
        if channel is None:
            return PostResult(outcome=Outcome.UNKNOWN_CHANNEL)
        today = local_now(schedule=channel.schedule, now=now).date()
        if not force and channel.paused:
            return PostResult(outcome=Outcome.PAUSED)
        if not force and is_due(schedule=channel.schedule, now=now) is None:
            return PostResult(outcome=Outcome.NOT_DUE)
        post = store.post_on(channel=channel, local_date=today)
        if post is not None:
            if post.message_id is not None:
                return PostResult(outcome=Outcome.ALREADY, post=post)
            if not _claim_stale(poster=poster, post=post, now=now):
                return PostResult(outcome=Outcome.BUSY, post=post)
            if not store.take_over(post=post, owner=poster.owner, now=now):
                return PostResult(outcome=Outcome.BUSY, post=post)
            recovering = True
        else:
            chosen = post_card.pick(
                store=store, channel=channel, now=now, semantic_extra=poster.semantic_extra
            )
            if chosen is None:
                notify_empty = not channel.empty_notice_sent
                store.set_channel_flags(channel=channel, empty_notice_sent=True)
            else:
                post = store.claim_post(
                    channel=channel,
                    local_date=today,
                    paper_id=chosen.paper.id,
                    owner=poster.owner,
                    now=now,
                )
                if post is None:
                    return PostResult(outcome=Outcome.BUSY)
                store.set_paper_status(paper_id=chosen.paper.id, status=PaperStatus.POSTED)
                if chosen.reason:
                    store.set_pick_reason(post_id=post.id, reason=chosen.reason)
            recovering = False
        card = (
            post_card.card(
                store=store, channel=channel, post=post, semantic_extra=poster.semantic_extra
            )
            if post is not None
            else None
        )
    if card is None or post is None:
        if notify_empty:
            _notify(poster=poster, channel=key, message=archive.EMPTY_QUEUE)
        return PostResult(outcome=Outcome.EMPTY)
    return _deliver(poster=poster, channel=channel, post=post, card=card, recovering=recovering)


def _deliver(
    *, poster: Poster, channel: Channel, post: Post, card: PaperCard, recovering: bool
) -> PostResult:
    """Send a claimed post (after looking for it in history when recovering) and record it."""
    try:
        if recovering:
            since = post.claimed_at or datetime.combine(post.local_date, datetime.min.time())
            found = poster.chat.find_post(
                channel=channel.key, post_id=post.id, since=since - timedelta(days=2), card=card
            )
            if found is not None:
                with poster.uow() as store:
                    store.mark_posted(
                        post_id=post.id, message_id=found.message_id, permalink=found.permalink
                    )
                log.info("post %s was already in %s; recorded it", post.id, channel.key)
                return PostResult(outcome=Outcome.RECOVERED, post=post)
        posted = delivery.post_paper(chat=poster.chat, channel=channel.key, card=card)
    except ChatError as error:
        log.error("could not post to channel %s: %s (%s)", channel.key, error.code, error.hint)
        if error.posted_nothing and not recovering:
            with poster.uow() as store:
                store.release_post(post=post)
        return PostResult(outcome=Outcome.FAILED, post=post, error=error)
    with poster.uow() as store:
        store.mark_posted(post_id=post.id, message_id=posted.message_id, permalink=posted.permalink)
        store.set_channel_flags(channel=channel, empty_notice_sent=False)
    return PostResult(outcome=Outcome.POSTED, post=post)


def _notify(*, poster: Poster, channel: ChannelKey, message: Message) -> None:
    """Tell a channel something; a failure is logged, never raised into the scheduler."""
    try:
        poster.chat.send_notice(channel=channel, message=message)
    except ChatError as error:
        log.error("could not notify channel %s: %s (%s)", channel, error.code, error.hint)


def post_due(*, poster: Poster, now: datetime) -> dict[ChannelKey, PostResult]:
    """The sweep: resolve pending posts of earlier days, then post every channel of the
    poster's platform that is due."""
    resolve_stale_days(poster=poster, now=now)
    with poster.uow(write=False) as store:
        channels = [c for c in store.channels() if c.key.platform == poster.platform]
    results: dict[ChannelKey, PostResult] = {}
    for channel in channels:
        # Most minutes nothing is due: answer from the read above instead of taking the
        # write lock (which votes wait on) once a minute per channel.
        if channel.paused or is_due(schedule=channel.schedule, now=now) is None:
            quiet = Outcome.PAUSED if channel.paused else Outcome.NOT_DUE
            results[channel.key] = _counted(poster=poster, result=PostResult(outcome=quiet))
        else:
            results[channel.key] = post_today(poster=poster, channel=channel.key, now=now)
    return results


def resolve_stale_days(*, poster: Poster, now: datetime) -> None:
    """Pending posts of days already over: record them if the platform has them, else requeue
    the paper. An earlier day is never posted late."""
    with poster.uow(write=False) as store:
        pending = [
            (post, channel)
            for post, channel in store.pending_posts()
            if channel.key.platform == poster.platform
            and post.local_date < local_now(schedule=channel.schedule, now=now).date()
        ]
    for post, channel in pending:
        if not _claim_stale(poster=poster, post=post, now=now):
            continue
        with poster.uow() as store:
            if not store.take_over(post=post, owner=poster.owner, now=now):
                continue
        try:
            since = datetime.combine(post.local_date, datetime.min.time(), tzinfo=now.tzinfo)
            found = poster.chat.find_post(
                channel=channel.key, post_id=post.id, since=since - timedelta(days=1)
            )
        except ChatError as error:
            log.warning("cannot check history of %s yet: %s", channel.key, error.code)
            continue
        with poster.uow() as store:
            if found is not None:
                store.mark_posted(
                    post_id=post.id, message_id=found.message_id, permalink=found.permalink
                )
            else:
                store.release_post(post=post)
