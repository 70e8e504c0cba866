"""The day's suggestions tray, posted by the minute sweep: once a channel's local day has
reached its post time, its best new suggestions are chosen (the tray is opened: one row per
channel and day, so two sweeps or two replicas open it once) and posted as one message, once
(bot/services/notices_once: claimed as it opens, looked for in the history before a second
try, found by its buttons: each suggestion's number is in one tray). A tray whose every
suggestion was decided on its unnoted message before a restart has no button left to be found
by, and is posted again, showing the decisions. A tray shows news: it is opened only once a
watch found something in the current announce cycle (sources_read: a UTC day), so a weekend or
a holiday has none.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey, Schedule
from bot.ports import Chat, ChatError, UnitOfWork
from bot.services import notices_once, suggestions
from bot.services.schedule import local_now
from bot.services.sources_read import cycle_start
from bot.sources.rank import Scorer
from bot.wording import suggestions as words

log = logging.getLogger("paperclub")


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


class _TrayNoting:
    """notices_once.Noting for trays."""

    def claim(
        self,
        store: suggestions.Needs,
        *,
        record_id: int,
        owner: str,
        now: datetime,
        holder: str | None,
    ) -> bool:
        """Take or renew the tray's claim."""
        return store.claim_tray(tray_id=record_id, owner=owner, now=now, holder=holder)

    def refused(self, store: suggestions.Needs, *, record_id: int, at: datetime | None) -> None:
        """Note the tray refused (None: tried again)."""
        store.tray_refused(tray_id=record_id, at=at)

    def sent(self, store: suggestions.Needs, *, record_id: int, message_id: str) -> None:
        """Note the tray's message."""
        store.tray_posted(tray_id=record_id, message_id=message_id)


def sender_of(*, poster: TrayPoster) -> notices_once.Sender[suggestions.Needs]:
    """How a poster's trays go out once."""
    return notices_once.Sender(
        uow=poster.uow,
        noting=_TrayNoting(),
        chat=poster.chat,
        owner=poster.owner,
        owner_alive=poster.owner_alive,
        what="suggestions tray",
    )


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
    sender = sender_of(poster=poster)
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
            sent += notices_once.send_again(sender=sender, record=tray, shown=shown, now=now)
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
            sent += notices_once.send(
                sender=sender, record_id=opened.id, channel=channel, shown=shown, now=now
            )
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
