"""Admin subcommands: schedule, pause, resume, skip, next (which subcommands need an admin is the
command table's say). Each reply says what changed, in the channel's own local time."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.domain import Channel, ChannelKey, PaperStatus, Schedule
from bot.messages import message
from bot.ports import ChannelsStore, Chat, PapersStore, PostsStore, UnitOfWork
from bot.schedule_text import ScheduleTextError, describe_days, parse_days, parse_hhmm
from bot.services.posting import Outcome, Poster, post_today
from bot.services.reply import Reply
from bot.services.schedule import describe_when, next_post_at
from bot.wording import replies


class Needs(PapersStore, ChannelsStore, PostsStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


def is_admin(*, channel: ChannelKey, user: str, admins: tuple[str, ...], chat: Chat) -> bool:
    """PAPERCLUB_ADMINS when set, else the admins of the channel's workspace (or guild)."""
    return user in admins if admins else chat.is_admin(channel=channel, user=user)


def refusal(*, command: str) -> Reply:
    """The polite no for someone who is not an admin."""
    return Reply(message=replies.refusal(command=command))


def _when_next(*, channel: Channel, now: datetime, posted_today: bool) -> str:
    """ "tomorrow at 09:00 (Europe/Berlin)", for replies."""
    at = next_post_at(schedule=channel.schedule, now=now, posted_today=posted_today)
    return f"{describe_when(at=at, now=now)} ({channel.schedule.timezone})"


def _read_schedule(*, args: list[str], base: Schedule) -> Schedule | Reply:
    """The schedule that `HH:MM [Area/City] [days]` describes over `base`; a Reply if unreadable."""
    try:
        new = replace(base, post_time=parse_hhmm(text=args[0]))
    except ScheduleTextError as exc:
        problem = f"I couldn't read the time: {exc}."
        return Reply(message=replies.usage_after(problem=problem, usage=replies.SCHEDULE_USAGE))
    for arg in args[1:]:
        if "/" in arg or arg.upper() == "UTC":
            try:
                ZoneInfo(arg)
            except (ZoneInfoNotFoundError, ValueError, OSError):  # a folder is an OSError
                return Reply(message=replies.unknown_zone(zone=arg))
            new = replace(new, timezone=arg)
        else:
            try:
                new = replace(new, weekdays=parse_days(text=arg))
            except ScheduleTextError as exc:
                problem = f"I couldn't read the days: {exc}."
                usage = replies.SCHEDULE_USAGE
                return Reply(message=replies.usage_after(problem=problem, usage=usage))
    return new


def schedule(
    *,
    uow: UnitOfWork[Needs],
    chat: Chat,
    channel: ChannelKey,
    args: list[str],
    defaults: Schedule,
    now: datetime,
) -> Reply:
    """Follow the channel, or change its schedule: `HH:MM [Area/City] [days]`."""
    if not args:
        return Reply(message=message(replies.SCHEDULE_USAGE))
    with uow(write=False) as store:
        current = store.channel(key=channel)
    new = _read_schedule(args=args, base=current.schedule if current else defaults)
    if isinstance(new, Reply):
        return new
    # Asked each time: a channel can be made private after it started following the list.
    private = chat.is_private(channel=channel)
    with uow() as store:
        followed = store.save_channel(key=channel, schedule=new, private=private)
    posted = _posted_today(uow=uow, channel=followed, now=now)
    return Reply(
        message=replies.scheduled(
            new=current is None,
            when=f"{new.post_time:%H:%M} {new.timezone}",
            days=describe_days(days=new.weekdays),
            next_post=_when_next(channel=followed, now=now, posted_today=posted),
            paused=followed.paused,
        ),
        reschedule=True,
    )


def _posted_today(*, uow: UnitOfWork[Needs], channel: Channel, now: datetime) -> bool:
    """Whether the channel already has today's post (in its local time)."""
    today = now.astimezone(ZoneInfo(channel.schedule.timezone)).date()
    with uow(write=False) as store:
        return store.post_on(channel=channel, local_date=today) is not None


def set_paused(
    *, uow: UnitOfWork[Needs], channel: ChannelKey, paused: bool, now: datetime
) -> Reply:
    """Pause or resume the daily post in a channel."""
    with uow() as store:
        followed = store.channel(key=channel)
        if followed is None:
            return Reply(message=replies.NOT_FOLLOWED)
        if followed.paused == paused:
            return Reply(message=replies.already_paused(paused=paused))
        store.set_channel_flags(channel=followed, paused=paused)
    if paused:
        return Reply(message=replies.PAUSED, reschedule=True)
    posted = _posted_today(uow=uow, channel=followed, now=now)
    next_post = _when_next(channel=followed, now=now, posted_today=posted)
    return Reply(message=replies.resumed(next_post=next_post), reschedule=True)


def skip(*, uow: UnitOfWork[Needs], channel: ChannelKey, now: datetime) -> Reply:
    """Take the next paper out of the queue for good (marked skipped; it is never posted)."""
    with uow() as store:
        followed = store.channel(key=channel)
        if followed is None:
            return Reply(message=replies.NOT_FOLLOWED)
        head = store.queued(workspace=channel.workspace_key, channel=followed, limit=2)
        if not head:
            return Reply(message=replies.NOTHING_TO_SKIP)
        store.set_paper_status(paper_id=head[0].id, status=PaperStatus.SKIPPED)
    posted = _posted_today(uow=uow, channel=followed, now=now)
    return Reply(
        message=replies.skipped(
            title=head[0].title,
            next_title=head[1].title if len(head) > 1 else None,
            next_post=_when_next(channel=followed, now=now, posted_today=posted),
        )
    )


def post_next(*, poster: Poster, channel: ChannelKey, now: datetime) -> Reply:
    """Post today's paper now, unless the channel already has one today."""
    result = post_today(poster=poster, channel=channel, now=now, force=True)
    if result.outcome is Outcome.FAILED and result.error is not None:
        error = result.error
        return Reply(
            message=replies.post_refused(platform=poster.platform, code=error.code, hint=error.hint)
        )
    if result.outcome is Outcome.UNKNOWN_CHANNEL:
        return Reply(message=replies.NOT_FOLLOWED)
    known = replies.POST_NEXT.get(result.outcome.value)
    return Reply(message=known or replies.nothing_posted(outcome=result.outcome.value))
