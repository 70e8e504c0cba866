"""The weekly recap: on the day and time a channel chose (off by default), the week's papers
ranked by votes and discussion, sent at most once per channel and date."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from bot.domain import Channel, WeeklyRecap
from bot.ports import ChatError
from bot.schedule_text import DAY_NAMES, ScheduleTextError, parse_days, parse_hhmm
from bot.services.admin import NOT_FOLLOWED, Reply
from bot.services.posting import Poster
from bot.services.schedule import local_now
from bot.services.top import describe

log = logging.getLogger(__name__)
USAGE = (
    "Usage: `/paperclub recap fri 16:00` (weekly, in this channel's time zone) "
    "or `/paperclub recap off`."
)


def configure(*, poster: Poster, channel_id: str, args: list[str]) -> Reply:
    """`recap <day> <HH:MM>` turns the weekly recap on; `recap off` turns it off."""
    words = [a.lower() for a in args if a.lower() != "weekly"]
    if words == ["off"]:
        recap = None
    elif len(words) == 2:
        try:
            days = parse_days(text=words[0])
            at = parse_hhmm(text=words[1])
        except ScheduleTextError as exc:
            return Reply(text=f"I couldn't read that: {exc}. {USAGE}")
        if len(days) != 1:
            return Reply(text=f"The recap is weekly: name one day. {USAGE}")
        recap = WeeklyRecap(weekday=next(iter(days)), at=at)
    else:
        return Reply(text=USAGE)
    with poster.uow() as store:
        channel = store.channel(platform=poster.platform, channel_id=channel_id)
        if channel is None:
            return Reply(text=NOT_FOLLOWED)
        store.set_recap(channel=channel, recap=recap)
    if recap is None:
        return Reply(text="The weekly recap is off in this channel.")
    day = DAY_NAMES[recap.weekday - 1].capitalize()
    return Reply(
        text=f"Weekly recap on: every {day} at {recap.at:%H:%M} {channel.schedule.timezone}, "
        "ranking the week's papers by votes and discussion."
    )


def _due(*, channel: Channel, now: datetime) -> bool:
    """Whether the channel's recap time of this week has come today."""
    if channel.recap is None or channel.paused:
        return False
    local = local_now(schedule=channel.schedule, now=now)
    return local.isoweekday() == channel.recap.weekday and local.time() >= channel.recap.at


def recap_text(*, poster: Poster, channel: Channel, now: datetime) -> str:
    """The recap message: the last seven days' papers, best first."""
    today = local_now(schedule=channel.schedule, now=now).date()
    with poster.uow(write=False) as store:
        entries = store.top_posts(
            channel=channel.channel_id, since=today - timedelta(days=6), until=today, limit=10
        )
    if not entries:
        return "*This week in Paper Club:* no papers were posted this week."
    lines = [f"{n}. {describe(entry=e)}" for n, e in enumerate(entries, start=1)]
    return "*This week in Paper Club*, ranked by votes and discussion:\n" + "\n".join(lines)


def send_due_recaps(*, poster: Poster, now: datetime) -> int:
    """Send every recap that is due and not sent yet; how many went out."""
    with poster.uow(write=False) as store:
        channels = [c for c in store.channels() if c.platform == poster.platform]
    sent = 0
    for channel in channels:
        if not _due(channel=channel, now=now):
            continue
        today = local_now(schedule=channel.schedule, now=now).date()
        with poster.uow() as store:
            recap_id = store.claim_recap(channel=channel, local_date=today, now=now)
        if recap_id is None:
            continue
        text = recap_text(poster=poster, channel=channel, now=now)
        try:
            ts = poster.chat.send_notice(channel=channel.channel_id, text=text)
        except ChatError as error:
            log.error(
                "weekly recap to %s failed: %s (%s)", channel.channel_id, error.code, error.hint
            )
            # Refused outright: try again at the next sweep. Unknown outcome: never twice.
            if error.posted_nothing:
                with poster.uow() as store:
                    store.settle_recap(recap_id=recap_id, ts=None)
            continue
        with poster.uow() as store:
            store.settle_recap(recap_id=recap_id, ts=ts or "")
        sent += 1
    return sent
