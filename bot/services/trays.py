"""The day's suggestions tray, posted by the minute sweep: once a channel's local day has
reached its post time, its best new suggestions are chosen (the tray is opened: one row per
channel and day, so two sweeps or two replicas open it once) and posted as one message.

A tray opened and not posted (a crash in between, a platform that refused) is posted at the
next sweep, that day, but never twice: the channel's history since it was opened is looked at
first (Chat.find_notice, by its buttons: each suggestion's number is in one tray), since a
process killed after the platform took the message and before it was noted leaves it there
(tests/faults/test_fault_sources.py). Found, its id is noted instead; history that cannot be
read leaves the tray unposted until a sweep can read it. An attempt whose outcome is unknown
(a timeout) is noted as posted and not tried again. A tray whose every suggestion was decided
on its unnoted message before the restart has no button left to be found by, and is posted
again, showing the decisions. A tray is claimed as it opens, and the claim renewed just
before each send: another replica takes it over only from a dead process or one silent for
STALE_CLAIM, and a frozen one that resumes finds its claim gone and sends nothing. A tray
shows news: it is opened only once a watch found something
in the current announce cycle (sources_read: a UTC day), so a weekend or a holiday has none.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey, Schedule
from bot.messages import Message
from bot.ports import Chat, ChatError, UnitOfWork
from bot.ports.sources import Tray
from bot.services import suggestions
from bot.services.schedule import local_now
from bot.services.sources_read import cycle_start
from bot.sources.rank import Scorer
from bot.wording import suggestions as words

log = logging.getLogger("paperclub")

# History is read from this long before a tray was opened: the platform's clock may be behind
# ours (its message then looks older than the tray).
CLOCK_SKEW = timedelta(minutes=10)
# A tray the platform refused outright (the bot removed from the channel, a missing
# permission) is tried again this much later, not at every sweep, and without a look in the
# history it cannot be in.
REFUSED_AGAIN = timedelta(minutes=30)
# A tray's claim not renewed for this long is taken over, as a daily post's is.
STALE_CLAIM = timedelta(minutes=5)


class ScorerFor(Protocol):
    """The group's taste model for a channel's candidates (None without the semantic extra)."""

    def __call__(self, *, channel: ChannelKey) -> Scorer | None:
        """The channel's scorer, or None."""
        ...


def no_scorer(*, channel: ChannelKey) -> Scorer | None:
    """The keyword and co-occurrence ranking alone."""
    return None


def schedule_of(
    *, uow: UnitOfWork[suggestions.Needs], channel: ChannelKey, defaults: Schedule
) -> Schedule:
    """The channel's schedule, or the defaults for a channel that watches without a post."""
    with uow(write=False) as store:
        followed = store.channel(key=channel)
    return followed.schedule if followed is not None else defaults


@dataclass(frozen=True, slots=True)
class TrayPoster:
    """Who posts a platform's trays: the archive, the platform's Chat, and this process's
    claim name with how to tell that a claim's process died (posting.Poster's)."""

    uow: UnitOfWork[suggestions.Needs]
    chat: Chat
    platform: str
    owner: str
    owner_alive: Callable[[str], bool]


def _send(
    *, poster: TrayPoster, channel: ChannelKey, tray_id: int, shown: Message, now: datetime
) -> bool:
    """Post a tray this process holds the claim on, renewed first (a replica that took the
    tray over from a frozen one posts it, and the frozen one, resumed, does not), and note its
    message; whether it went out."""
    with poster.uow() as store:
        if not store.claim_tray(tray_id=tray_id, owner=poster.owner, now=now, holder=poster.owner):
            return False
    try:
        message_id = poster.chat.send_notice(channel=channel, message=shown)
    except ChatError as error:
        log.error("suggestions tray to %s failed: %s (%s)", channel, error.code, error.hint)
        if error.posted_nothing:  # refused outright: tried again REFUSED_AGAIN later
            with poster.uow() as store:
                store.tray_refused(tray_id=tray_id, at=now)
            return False
        message_id = ""  # it may be there: never twice
    with poster.uow() as store:
        store.tray_posted(tray_id=tray_id, message_id=message_id or "")
    return True


def _taken(*, poster: TrayPoster, tray: Tray, now: datetime) -> bool:
    """Whether this process holds the claim on a tray opened earlier and never noted, taking
    it over from a process that died or went silent for STALE_CLAIM; False while another
    live process holds it freshly."""
    holder, at = tray.claimed_by, tray.claimed_at
    if holder is not None and holder != poster.owner:
        fresh = at is not None and now - at < STALE_CLAIM
        if fresh and poster.owner_alive(holder):
            return False
    with poster.uow() as store:
        return store.claim_tray(tray_id=tray.id, owner=poster.owner, now=now, holder=holder)


def _post_again(*, poster: TrayPoster, tray: Tray, shown: Message, now: datetime) -> bool:
    """Post a tray opened earlier and never noted, unless the channel's history shows that it
    went out (noted now instead); whether it is out. One the platform refused outright is
    only tried again, REFUSED_AGAIN after the refusal: it cannot be in the history. Another
    live process's fresh claim is left alone."""
    if not _taken(poster=poster, tray=tray, now=now):
        return False
    if tray.refused_at is not None:
        if now - tray.refused_at < REFUSED_AGAIN:
            return False
        with poster.uow() as store:  # a new try, whose outcome is unknown until it is noted
            store.tray_refused(tray_id=tray.id, at=None)
        return _send(poster=poster, channel=tray.channel, tray_id=tray.id, shown=shown, now=now)
    try:
        found = poster.chat.find_notice(
            channel=tray.channel, message=shown, since=tray.opened_at - CLOCK_SKEW
        )
    except ChatError as error:
        # It may be there: not posted (never twice); the next sweep looks again.
        log.warning(
            "cannot look for the tray in %s's history yet: %s (%s)",
            tray.channel,
            error.code,
            error.hint,
        )
        return False
    if found is None:
        return _send(poster=poster, channel=tray.channel, tray_id=tray.id, shown=shown, now=now)
    with poster.uow() as store:
        store.tray_posted(tray_id=tray.id, message_id=found)
    log.info("the tray of %s was in %s already; noted it", tray.day, tray.channel)
    return True


def post_due_trays(
    *,
    poster: TrayPoster,
    now: datetime,
    defaults: Schedule,
    scorer_for: ScorerFor = no_scorer,
) -> int:
    """Open and post every tray of the platform that is due; how many went out (a tray found
    in history counts: it is out). Trays opened earlier today and not posted go first."""
    uow, platform = poster.uow, poster.platform
    sent = 0
    with uow(write=False) as store:
        unposted = store.unposted_trays(platform=platform, since=(now - timedelta(days=1)).date())
        watching = store.channels_watching(platform=platform)
    for tray in unposted:
        with uow(write=False) as store:
            shown = suggestions.tray_message(
                store=store, channel=tray.channel, ids=tray.suggestion_ids
            )
        if shown is not None:
            sent += _post_again(poster=poster, tray=tray, shown=shown, now=now)
    for channel in watching:
        schedule = schedule_of(uow=uow, channel=channel, defaults=defaults)
        local = local_now(schedule=schedule, now=now)
        if local.time() < schedule.post_time:
            continue
        news = cycle_start(now=now)
        # Chosen on a read: ranking (the taste model embeds) must not hold the write lock.
        with uow(write=False) as store:
            if store.tray_on(channel=channel, day=local.date()) is not None:
                continue
            settings = store.tray_settings(channel=channel)
            limit = min(settings.per_day, suggestions.MAX_PER_DAY)
            fresh = store.count_suggestions(channel=channel, states=("waiting",), since=news)
            if limit < 1 or not fresh:
                continue  # no tray here, or nothing new today (a later sweep may find some)
            chosen = suggestions.picks(
                store=store,
                channel=channel,
                now=now,
                limit=limit,
                scorer=scorer_for(channel=channel),
                news_since=news,
            )
        if not chosen:
            continue
        with uow() as store:
            opened = store.open_tray(channel=channel, day=local.date(), picks=chosen, now=now)
            if opened is not None:  # claimed as it opens: no other process posts it meanwhile
                store.claim_tray(tray_id=opened.id, owner=poster.owner, now=now, holder=None)
            shown = (
                suggestions.tray_message(store=store, channel=channel, ids=opened.suggestion_ids)
                if opened is not None
                else None
            )
        if opened is not None and shown is not None:
            sent += _send(poster=poster, channel=channel, tray_id=opened.id, shown=shown, now=now)
    return sent


def autofill_low_queues(
    *,
    uow: UnitOfWork[suggestions.Needs],
    chat: Chat,
    platform: str,
    now: datetime,
    scorer_for: ScorerFor = no_scorer,
) -> int:
    """Let the top suggestion fill each watching channel's queue that ran low (where its admins
    turned that on), telling the channel; how many papers joined."""
    with uow(write=False) as store:
        watching = store.channels_watching(platform=platform)
    filled = 0
    for channel in watching:
        title = suggestions.autofill(
            uow=uow, channel=channel, now=now, scorer=scorer_for(channel=channel)
        )
        if title is None:
            continue
        filled += 1
        try:
            chat.send_notice(channel=channel, message=words.autofilled(title=title))
        except ChatError as error:
            log.error("could not tell %s of an autofill: %s (%s)", channel, error.code, error.hint)
    return filled
