"""Admin subcommands: schedule, pause, resume, skip, next. Each reply says what changed, in the
channel's own local time."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.domain import Channel, PaperStatus, Schedule
from bot.ports import Chat, UnitOfWork
from bot.schedule_text import ScheduleTextError, describe_days, parse_days, parse_hhmm
from bot.services.posting import Outcome, Poster, post_today
from bot.services.schedule import describe_when, next_post_at
from bot.services.search import SearchResult

SCHEDULE_USAGE = (
    "Usage: `/paperclub schedule HH:MM [Area/City] [mon-fri|daily|mon,wed,fri]`, "
    "for example `/paperclub schedule 09:30 Europe/Berlin mon,wed,fri`."
)
NOT_FOLLOWED = (
    "This channel does not follow the reading list yet. An admin can start it with "
    "`/paperclub schedule 09:00 Area/City`."
)
ADMIN_COMMANDS = frozenset({"schedule", "pause", "resume", "skip", "next", "recap"})


@dataclass(frozen=True, slots=True)
class Reply:
    """Text for the person who asked; `reschedule` when the scheduler must be rebuilt; search
    results, which each platform lays out its own way (`text` is then their plain summary)."""

    text: str
    reschedule: bool = False
    search: SearchResult | None = None


def is_admin(*, user: str, admins: tuple[str, ...], chat: Chat) -> bool:
    """PAPERCLUB_ADMINS when set, else the workspace's admins and owners."""
    return user in admins if admins else chat.is_admin(user=user)


def refusal(*, command: str) -> Reply:
    """The polite no for someone who is not an admin."""
    return Reply(
        text=f"Only Paper Club admins can use `/paperclub {command}`. "
        "Ask a workspace admin, or one of the people in PAPERCLUB_ADMINS."
    )


def _when_next(*, channel: Channel, now: datetime, posted_today: bool) -> str:
    """ "tomorrow at 09:00 (Europe/Berlin)", for replies."""
    at = next_post_at(schedule=channel.schedule, now=now, posted_today=posted_today)
    return f"{describe_when(at=at, now=now)} ({channel.schedule.timezone})"


def schedule(
    *,
    uow: UnitOfWork,
    platform: str,
    team_id: str,
    channel_id: str,
    args: list[str],
    defaults: Schedule,
    now: datetime,
) -> Reply:
    """Follow the channel, or change its schedule: `HH:MM [Area/City] [days]`."""
    if not args:
        return Reply(text=SCHEDULE_USAGE)
    try:
        post_time = parse_hhmm(text=args[0])
    except ScheduleTextError as exc:
        return Reply(text=f"I couldn't read the time: {exc}. {SCHEDULE_USAGE}")
    with uow(write=False) as store:
        current = store.channel(platform=platform, channel_id=channel_id)
    base = current.schedule if current else defaults
    new = replace(base, post_time=post_time)
    for arg in args[1:]:
        if "/" in arg or arg.upper() == "UTC":
            try:
                ZoneInfo(arg)
            except (ZoneInfoNotFoundError, ValueError, OSError):  # a folder is an OSError
                return Reply(text=f"`{arg}` is not a time zone I know; use an IANA name like "
                             "`Europe/Berlin` or `America/New_York`.")  # fmt: skip
            new = replace(new, timezone=arg)
        else:
            try:
                new = replace(new, weekdays=parse_days(text=arg))
            except ScheduleTextError as exc:
                return Reply(text=f"I couldn't read the days: {exc}. {SCHEDULE_USAGE}")
    with uow() as store:
        channel = store.save_channel(
            platform=platform, team_id=team_id, channel_id=channel_id, schedule=new
        )
    posted = _posted_today(uow=uow, channel=channel, now=now)
    verb = "Paper Club now posts here" if current is None else "Schedule changed: Paper Club posts"
    paused = (
        " The channel is paused; `/paperclub resume` starts it again." if channel.paused else ""
    )
    return Reply(
        text=f"{verb} at {new.post_time:%H:%M} {new.timezone}, "
        f"{describe_days(days=new.weekdays)}. Next paper: "
        f"{_when_next(channel=channel, now=now, posted_today=posted)}.{paused}",
        reschedule=True,
    )


def _posted_today(*, uow: UnitOfWork, channel: Channel, now: datetime) -> bool:
    """Whether the channel already has today's post (in its local time)."""
    today = now.astimezone(ZoneInfo(channel.schedule.timezone)).date()
    with uow(write=False) as store:
        return store.post_on(channel=channel, local_date=today) is not None


def set_paused(
    *, uow: UnitOfWork, platform: str, channel_id: str, paused: bool, now: datetime
) -> Reply:
    """Pause or resume the daily post in a channel."""
    with uow() as store:
        channel = store.channel(platform=platform, channel_id=channel_id)
        if channel is None:
            return Reply(text=NOT_FOLLOWED)
        if channel.paused == paused:
            state = "paused" if paused else "running"
            return Reply(text=f"Paper Club is already {state} in this channel; nothing changed.")
        store.set_channel_flags(channel=channel, paused=paused)
    if paused:
        return Reply(
            text="Paused: no papers will be posted here until an admin runs `/paperclub resume`. "
            "Votes, threads and search keep working.",
            reschedule=True,
        )
    posted = _posted_today(uow=uow, channel=channel, now=now)
    return Reply(
        text=f"Resumed. Next paper: {_when_next(channel=channel, now=now, posted_today=posted)}.",
        reschedule=True,
    )


def skip(*, uow: UnitOfWork, platform: str, channel_id: str, now: datetime) -> Reply:
    """Take the next paper out of the queue for good (marked skipped; it is never posted)."""
    with uow() as store:
        channel = store.channel(platform=platform, channel_id=channel_id)
        if channel is None:
            return Reply(text=NOT_FOLLOWED)
        head = store.queued(channel=channel_id, limit=2)
        if not head:
            return Reply(text="The queue is empty: there is nothing to skip.")
        store.set_paper_status(paper_id=head[0].id, status=PaperStatus.SKIPPED)
    posted = _posted_today(uow=uow, channel=channel, now=now)
    after = (
        f"Next up: “{head[1].title}”, {_when_next(channel=channel, now=now, posted_today=posted)}."
        if len(head) > 1
        else "The queue is now empty."
    )
    return Reply(text=f"Skipped “{head[0].title}”; it will not be posted. {after}")


def post_next(*, poster: Poster, channel_id: str, now: datetime) -> Reply:
    """Post today's paper now, unless the channel already has one today."""
    result = post_today(poster=poster, channel_id=channel_id, now=now, force=True)
    texts = {
        Outcome.POSTED: "Posted today's paper.",
        Outcome.RECOVERED: "Today's paper was already in the channel; I recorded it.",
        Outcome.ALREADY: "This channel already has today's paper; one a day is the rule.",
        Outcome.BUSY: "Today's paper is being posted right now.",
        Outcome.EMPTY: "The queue is empty, so there is nothing to post. "
        "Add papers on the server with `paperclub import FILE`.",
        Outcome.UNKNOWN_CHANNEL: NOT_FOLLOWED,
    }
    if result.outcome is Outcome.FAILED and result.error is not None:
        return Reply(text=f"Slack refused the post ({result.error.code}): {result.error.hint}")
    return Reply(text=texts.get(result.outcome, f"Nothing posted ({result.outcome.value})."))
