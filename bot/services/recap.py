"""The weekly recap: on the day and time a channel chose (off by default), the week's papers
ranked by votes and discussion, sent at most once per channel and date."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from bot.domain import Channel, ChannelKey, WeeklyRecap
from bot.messages import Message, message
from bot.ports import ChatError
from bot.schedule_text import DAY_NAMES, ScheduleTextError, parse_days, parse_hhmm
from bot.services.posting import Poster
from bot.services.reply import Reply
from bot.services.schedule import local_now
from bot.wording import archive, replies

log = logging.getLogger(__name__)


def configure(*, poster: Poster, channel: ChannelKey, args: list[str]) -> Reply:
    """`recap <day> <HH:MM>` turns the weekly recap on; `recap off` turns it off."""
    words = [a.lower() for a in args if a.lower() != "weekly"]
    if words == ["off"]:
        recap = None
    elif len(words) == 2:
        try:
            days = parse_days(text=words[0])
            at = parse_hhmm(text=words[1])
        except ScheduleTextError as exc:
            problem = f"I couldn't read that: {exc}."
            return Reply(message=replies.usage_after(problem=problem, usage=replies.RECAP_USAGE))
        if len(days) != 1:
            problem = replies.RECAP_ONE_DAY
            return Reply(message=replies.usage_after(problem=problem, usage=replies.RECAP_USAGE))
        recap = WeeklyRecap(weekday=next(iter(days)), at=at)
    else:
        return Reply(message=message(replies.RECAP_USAGE))
    with poster.uow() as store:
        followed = store.channel(key=channel)
        if followed is None:
            return Reply(message=replies.NOT_FOLLOWED)
        store.set_recap(channel=followed, recap=recap)
    if recap is None:
        return Reply(message=replies.RECAP_OFF)
    day = DAY_NAMES[recap.weekday - 1].capitalize()
    zone = followed.schedule.timezone
    return Reply(message=replies.recap_on(day=day, at=f"{recap.at:%H:%M}", zone=zone))


def _due(*, channel: Channel, now: datetime) -> bool:
    """Whether the channel's recap time of this week has come today."""
    if channel.recap is None or channel.paused:
        return False
    local = local_now(schedule=channel.schedule, now=now)
    return local.isoweekday() == channel.recap.weekday and local.time() >= channel.recap.at


def recap_message(*, poster: Poster, channel: Channel, now: datetime) -> Message:
    """The recap message: the last seven days' papers, best first."""
    today = local_now(schedule=channel.schedule, now=now).date()
    with poster.uow(write=False) as store:
        entries = store.top_posts(
            channel=channel, since=today - timedelta(days=6), until=today, limit=10
        )
    return archive.weekly_recap(entries=entries)


def send_due_recaps(*, poster: Poster, now: datetime) -> int:
    """Send every recap that is due and not sent yet; how many went out."""
    with poster.uow(write=False) as store:
        channels = [c for c in store.channels() if c.key.platform == poster.platform]
    sent = 0
    for channel in channels:
        if not _due(channel=channel, now=now):
            continue
        today = local_now(schedule=channel.schedule, now=now).date()
        with poster.uow() as store:
            recap_id = store.claim_recap(channel=channel, local_date=today, now=now)
        if recap_id is None:
            continue
        said = recap_message(poster=poster, channel=channel, now=now)
        try:
            message_id = poster.chat.send_notice(channel=channel.key, message=said)
        except ChatError as error:
            log.error("weekly recap to %s failed: %s (%s)", channel.key, error.code, error.hint)
            # Refused outright: try again at the next sweep. Unknown outcome: never twice.
            if error.posted_nothing:
                with poster.uow() as store:
                    store.settle_recap(recap_id=recap_id, message_id=None)
            continue
        with poster.uow() as store:
            store.settle_recap(recap_id=recap_id, message_id=message_id or "")
        sent += 1
    return sent
