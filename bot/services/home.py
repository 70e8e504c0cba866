"""The App Home: what one person sees (their channels' next papers, schedules and states, today's
suggestions (home_trays), their own votes and comments, admin buttons), and what its buttons and
schedule form do.

Everything a Home button or the form does is the slash command's own subcommand, run through
commands.handle: the same services, the same admin check, the same replies. A tray's buttons
are decided as in the channel (Room.clicks.tray), like /paperclub suggestions add|hide.
"""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.domain import Channel, ChannelKey, Schedule
from bot.messages import Button, Buttons, Divider, Message, message
from bot.ports import (
    ChannelsStore,
    Chat,
    HomeStore,
    PapersStore,
    PostsStore,
    UnitOfWork,
    WorkspacesStore,
)
from bot.ports.reconcile import ReconcileStore
from bot.ports.sources import SourcesStore
from bot.schedule_text import DAY_NAMES, ScheduleTextError, describe_days, parse_hhmm
from bot.services import admin, commands
from bot.services.home_trays import tray_sections
from bot.services.reply import Reply
from bot.services.schedule import describe_when, local_now, next_post_at
from bot.wording import home as words
from bot.wording import meeting_form as meeting_words
from bot.wording import reconcile as reconcile_words


class Needs(
    PapersStore,
    ChannelsStore,
    PostsStore,
    HomeStore,
    ReconcileStore,
    SourcesStore,
    WorkspacesStore,
    Protocol,
):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


# Home button actions -> the /paperclub subcommand each one runs.
ACTIONS = {
    "home_pause": "pause",
    "home_resume": "resume",
    "home_skip": "skip",
    "home_post_now": "next",
}
SCHEDULE_ACTION = "home_schedule"
MEETING_ACTION = "home_meeting"  # opens the meeting form (bot/services/meeting_form)
NEXT_SHOWN = 3  # next papers shown per channel
RECENT_SHOWN = 5  # recent votes, and recent comments
CHANNELS_SHOWN = 12  # channels shown in full; a Home view holds at most 100 blocks
ZONE_REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who opened the Home: `channels`, the ones their platform says they are in (None when it
    could not say)."""

    user: str
    channels: frozenset[ChannelKey] | None


@dataclass(frozen=True, slots=True)
class HomeView:
    """The Home as neutral sections, top to bottom; each platform lays them out."""

    sections: tuple[Message, ...]
    admin: bool


@dataclass(frozen=True, slots=True)
class ScheduleForm:
    """The schedule form of one channel: its current schedule and the zones to choose from."""

    channel: ChannelKey
    current: Schedule
    zones: tuple[str, ...]


@functools.cache
def zones() -> tuple[str, ...]:
    """The IANA zones a person picks from: every Area/City of the world's regions, and UTC."""
    names = (z for z in zoneinfo.available_timezones() if z.split("/")[0] in ZONE_REGIONS)
    return ("UTC", *sorted(names))


def followed(*, uow: UnitOfWork[Needs], viewer: Viewer) -> list[Channel]:
    """The followed channels the viewer is in, in a stable order."""
    if not viewer.channels:
        return []
    with uow(write=False) as store:
        found = [c for c in store.channels() if c.key in viewer.channels]
    return sorted(found, key=lambda c: (c.key.workspace, c.key.channel))


def _channel_section(
    *, uow: UnitOfWork[Needs], channel: Channel, now: datetime, can_act: bool
) -> Message:
    """One channel: its schedule and state, its next papers, and an admin's buttons."""
    schedule = channel.schedule
    today = local_now(schedule=schedule, now=now).date()
    with uow(write=False) as store:
        papers = store.queued(
            workspace=channel.key.workspace_key, channel=channel, limit=NEXT_SHOWN
        )
        total = store.count_queued(workspace=channel.key.workspace_key, channel=channel)
        posted = store.post_on(channel=channel, local_date=today) is not None
    at = next_post_at(schedule=schedule, now=now, posted_today=posted)
    head = words.channel_line(
        channel=channel.key,
        when=f"{schedule.post_time:%H:%M}",
        zone=schedule.timezone,
        days=describe_days(days=schedule.weekdays),
        paused=channel.paused,
        next_post=None if channel.paused else describe_when(at=at, now=now),
    )
    listed = words.next_papers(titles=tuple(p.title for p in papers), total=total)
    if not can_act:
        return message(head, *listed)
    with uow(write=False) as store:
        [missed] = store.reconcile_status(channels=[channel.key])
    value = channel.key.channel
    toggle = (
        Button(label=words.RESUME, action="home_resume", value=value)
        if channel.paused
        else Button(label=words.PAUSE, action="home_pause", value=value)
    )
    buttons = Buttons(
        buttons=(
            toggle,
            Button(label=words.SKIP, action="home_skip", value=value),
            Button(label=words.POST_NOW, action="home_post_now", value=value),
            Button(label=words.SET_SCHEDULE, action=SCHEDULE_ACTION, value=value),
            Button(label=meeting_words.SET_MEETING, action=MEETING_ACTION, value=value),
        )
    )
    return message(head, *listed, reconcile_words.status_line(status=missed), buttons)


def home(
    *,
    uow: UnitOfWork[Needs],
    chat: Chat,
    viewer: Viewer,
    admins: tuple[str, ...],
    now: datetime,
    notice: Message | None = None,
) -> HomeView:
    """The viewer's Home; admin buttons only for someone the slash command deems an admin."""
    channels = followed(uow=uow, viewer=viewer)
    can_act = bool(channels) and admin.is_admin(
        channel=channels[0].key, user=viewer.user, admins=admins, chat=chat
    )
    sections: list[Message] = [message(words.INTRO)]
    if notice is not None:
        sections.append(message(*notice.blocks, Divider()))
    if viewer.channels is None:
        sections.append(words.CHANNELS_UNKNOWN)
    elif not channels:
        sections.append(words.NO_CHANNELS)
    else:
        sections.append(message(words.CHANNELS_HEADING))
        for channel in channels[:CHANNELS_SHOWN]:
            sections.append(_channel_section(uow=uow, channel=channel, now=now, can_act=can_act))
        if len(channels) > CHANNELS_SHOWN:
            sections.append(message(words.more_channels(count=len(channels) - CHANNELS_SHOWN)))
        sections.extend(tray_sections(uow=uow, channels=channels[:CHANNELS_SHOWN], now=now))
    sections.extend(_activity(uow=uow, user=viewer.user, channels=[c.key for c in channels]))
    return HomeView(sections=tuple(sections), admin=can_act)


def _activity(
    *, uow: UnitOfWork[Needs], user: str, channels: Sequence[ChannelKey]
) -> list[Message]:
    """The viewer's own recent votes and comments, in the channels they are in."""
    with uow(write=False) as store:
        votes = store.votes_by(user=user, channels=channels, limit=RECENT_SHOWN)
        said = store.comments_by(user=user, channels=channels, limit=RECENT_SHOWN)
    vote_block = (
        words.listing(items=tuple(words.vote_item(vote=v) for v in votes))
        if votes
        else words.NO_VOTES
    )
    comment_block = (
        words.listing(items=tuple(words.comment_item(comment=c) for c in said))
        if said
        else words.NO_COMMENTS
    )
    return [
        message(Divider(), words.VOTES_HEADING, vote_block),
        message(words.COMMENTS_HEADING, comment_block),
    ]


def _in(*, channel: ChannelKey, reply: Reply) -> Reply:
    """A reply shown on the Home, saying which channel it is about."""
    return Reply(
        message=words.notice(channel=channel, said=reply.message), reschedule=reply.reschedule
    )


def act(*, call: commands.Invocation, action: str) -> Reply | None:
    """What a Home button does: its /paperclub subcommand, admin check included; None for an
    action that is no Home button."""
    subcommand = ACTIONS.get(action)
    if subcommand is None:
        return None
    return _in(channel=call.channel, reply=commands.handle(call=call, text=subcommand))


def _followed_by_admin(*, call: commands.Invocation) -> Channel | str:
    """The followed channel the form is about; a reason when the caller may not change it."""
    if not admin.is_admin(channel=call.channel, user=call.user, admins=call.admins, chat=call.chat):
        return words.NOT_ADMIN
    with call.uow(write=False) as store:
        channel = store.channel(key=call.channel)
    return channel if channel is not None else words.NOT_FOLLOWED


def schedule_form(*, call: commands.Invocation) -> ScheduleForm | Reply:
    """The form to set a channel's schedule, for an admin; the reason shown on the Home else."""
    channel = _followed_by_admin(call=call)
    if isinstance(channel, str):
        return Reply(message=words.notice(channel=call.channel, said=message(channel)))
    return ScheduleForm(channel=call.channel, current=channel.schedule, zones=zones())


def read_form(
    *, call: commands.Invocation, time: str | None, zone: str | None, days: Sequence[str]
) -> str | dict[str, str]:
    """The `schedule` subcommand a submitted form stands for, or what is wrong with it, by
    field ("time", "zone", "days")."""
    channel = _followed_by_admin(call=call)
    if isinstance(channel, str):
        return {"time": channel}
    errors: dict[str, str] = {}
    if not time:
        errors["time"] = words.NEED_TIME
    else:
        try:
            parse_hhmm(text=time)
        except ScheduleTextError:
            errors["time"] = words.BAD_TIME
    if not zone:
        errors["zone"] = words.NEED_ZONE
    elif zone not in zones():
        errors["zone"] = words.BAD_ZONE
    picked = [day for day in DAY_NAMES if day in days]
    if not picked or len(picked) != len(set(days)):
        errors["days"] = words.NEED_DAYS
    return errors or f"schedule {time} {zone} {','.join(picked)}"


def save_schedule(*, call: commands.Invocation, command: str) -> Reply:
    """Run the `schedule` subcommand a valid form stands for, shown on the Home."""
    return _in(channel=call.channel, reply=commands.handle(call=call, text=command))
