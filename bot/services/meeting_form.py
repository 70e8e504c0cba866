"""The App Home's meeting form: what an admin sees in it (the channel's meeting as it stands),
and the `meeting set` subcommand a submitted one stands for.

The form is read by the readers `/paperclub meeting set` uses (bot/meetings/meeting_text),
field by field, so that each wrong field gets its own words; what it saves is that one
subcommand, run through commands.handle like a typed one (admin check included): one path,
and one write for the series and its reminders together.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, time
from typing import Protocol

from bot.domain import ChannelKey
from bot.meetings.meeting_text import (
    WEEKDAYS,
    MeetingTextError,
    lead_text,
    read_date,
    read_duration,
    read_reminders,
    read_series,
    read_time,
    read_weekday,
    take_reminders,
)
from bot.meetings.reminders import Before
from bot.messages import message
from bot.ports import ArchiveUnavailable
from bot.services import admin, commands
from bot.services.home import zones
from bot.services.invocation import Invocation
from bot.services.reply import Reply
from bot.wording import home as home_words
from bot.wording import meeting_form as words
from bot.wording import replies

EVERY_MOST = 8  # weeks between sessions, as `meeting set ... every N weeks` allows
ERROR_SHOWN = 200  # characters of a field's error (a reader's words quote what was typed)
DEFAULT_DURATION = "60m"


@dataclass(frozen=True, slots=True)
class MeetingForm:
    """The form of one channel, filled with its meeting (None and empty for a new one)."""

    channel: ChannelKey
    weekday: int | None  # ISO, 1 Monday .. 7 Sunday
    start: time | None
    zone: str
    every_weeks: int
    first_date: date | None
    duration: str
    place: str
    reminders: str
    zones: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MeetingFields:
    """What a submitted form holds, as typed or picked (None: left empty). `day` is one of
    WEEKDAYS, `every` a number of weeks, `first` an ISO date."""

    day: str | None
    time: str | None
    zone: str | None
    every: str | None
    first: str | None
    duration: str | None
    place: str | None
    reminders: str | None


def _admin_of(*, call: Invocation) -> bool:
    """Whether the caller may change this channel's meeting (as `meeting set` decides)."""
    return admin.is_admin(channel=call.channel, user=call.user, admins=call.admins, chat=call.chat)


def meeting_form(*, call: Invocation) -> MeetingForm | str:
    """The form for an admin; why not, else."""
    if not _admin_of(call=call):
        return words.NOT_ADMIN
    with call.uow(write=False) as store:
        plan = store.meeting_plan(channel=call.channel)
        followed = store.channel(key=call.channel)
    zone = (followed.schedule if followed is not None else call.defaults).timezone
    if plan is None:
        return MeetingForm(
            channel=call.channel,
            weekday=None,
            start=None,
            zone=zone,
            every_weeks=1,
            first_date=None,
            duration=DEFAULT_DURATION,
            place="",
            reminders="1d 30m",
            zones=zones(),
        )
    series = plan.meeting
    minutes = int(series.duration.total_seconds() // 60)
    return MeetingForm(
        channel=call.channel,
        weekday=series.weekday,
        start=series.start,
        zone=series.zone,
        every_weeks=series.every_weeks,
        first_date=series.first_date,
        duration=lead_text(before=Before(minutes=minutes)),
        place=series.place,
        reminders=" ".join(lead_text(before=b) for b in plan.reminders),
        zones=zones(),
    )


Check = Callable[[str], object]


def _checked(*, errors: dict[str, str], field: str, text: str | None, check: Check) -> str:
    """`text` when `check` reads it; else its error noted under `field` ("" returned)."""
    if not text:
        return ""
    try:
        check(text)
    except MeetingTextError as why:
        errors[field] = str(why)[:ERROR_SHOWN]
        return ""
    return text


def read_meeting_form(*, call: Invocation, fields: MeetingFields) -> str | dict[str, str]:
    """The `meeting set ...` subcommand a submitted form stands for, or what is wrong with it
    by field ("day", "time", "zone", "every", "first", "duration", "place", "reminders")."""
    if not _admin_of(call=call):
        return {"day": words.NOT_ADMIN}
    errors: dict[str, str] = {}
    day = _checked(
        errors=errors, field="day", text=fields.day, check=lambda t: read_weekday(word=t)
    )
    at = _checked(errors=errors, field="time", text=fields.time, check=lambda t: read_time(word=t))
    length = "".join((fields.duration or "").split())
    length = _checked(
        errors=errors, field="duration", text=length, check=lambda t: read_duration(word=t)
    )
    first = _checked(
        errors=errors, field="first", text=fields.first, check=lambda t: read_date(word=t)
    )
    leads = (fields.reminders or "").replace(",", " ").split()
    _checked(
        errors=errors,
        field="reminders",
        text=" ".join(leads),
        check=lambda t: read_reminders(words=t.split()),
    )
    for field, value, need in (
        ("day", fields.day, words.NEED_DAY),
        ("time", fields.time, words.NEED_TIME),
        ("duration", length or fields.duration, words.NEED_DURATION),
    ):
        if not value and field not in errors:
            errors[field] = need
    if not fields.zone:
        errors["zone"] = words.NEED_ZONE
    elif fields.zone not in zones():
        errors["zone"] = words.BAD_ZONE
    every = fields.every or "1"
    if not every.isdigit() or not 1 <= int(every) <= EVERY_MOST:
        errors["every"] = words.BAD_EVERY
    if errors:
        return errors
    place = " ".join((fields.place or "").split())
    weekday = WEEKDAYS[read_weekday(word=day) - 1]  # as the reader took it ("thu…" -> "thu")
    typed = [weekday, at, str(fields.zone), "for", length, "every", every]
    typed += ["from", first] if first else []
    typed += ["reminders", ",".join(leads) if leads else "off"]
    typed += ["at", place] if place else []
    return _whole(call=call, typed=typed)


def _whole(*, call: Invocation, typed: list[str]) -> str | dict[str, str]:
    """The subcommand, once its words read as a whole as `meeting set` reads them (a rule a
    single field cannot break, like a Meeting's own checks, is told beside the day)."""
    try:
        rest, _leads = take_reminders(words=" ".join(typed).split())
        read_series(words=rest, zone=str(typed[2]), today=call.now.date())
    except (MeetingTextError, ValueError) as why:
        return {"day": str(why)[:ERROR_SHOWN]}
    return "meeting set " + " ".join(typed)


class Invoke(Protocol):
    """Room.invocation: the command context of a person in a channel."""

    def __call__(self, *, channel: ChannelKey, user: str) -> Invocation:
        """Who, where, and what the bot answers with."""
        ...


@dataclass(frozen=True, slots=True)
class MeetingForms:
    """The meeting form as Room hands it to an edge: opened, read, saved; each answer for
    the Home says which channel it is about."""

    invocation: Invoke

    def opened(self, *, channel: ChannelKey, user: str) -> MeetingForm | Reply:
        """The form for an admin; what the Home says instead, else."""
        form = meeting_form(call=self.invocation(channel=channel, user=user))
        if isinstance(form, str):
            return Reply(message=home_words.notice(channel=channel, said=message(form)))
        return form

    def read(
        self, *, channel: ChannelKey, user: str, fields: MeetingFields
    ) -> str | dict[str, str]:
        """The subcommand a submitted form stands for, or its errors by field."""
        return read_meeting_form(call=self.invocation(channel=channel, user=user), fields=fields)

    def save(self, *, channel: ChannelKey, user: str, command: str) -> Reply:
        """Run what `read` returned, as typed (admin check included), shown on the Home;
        "not saved" when the archive could not take it."""
        call = self.invocation(channel=channel, user=user)
        try:
            said = commands.handle(call=call, text=command).message
        except ArchiveUnavailable:  # logged where it was raised (bot/db)
            said = replies.NOT_SAVED
        return Reply(message=home_words.notice(channel=channel, said=said))
