"""The web archive's meetings: a public channel's sessions page, and a channel's calendar feed
for whoever holds its token.

The page follows the archive's rule (public channels of the viewer's workspace only). The feed
follows its token alone: a calendar app carries no sign-in, so the token is the credential.
Both bring the stored sessions up to date first, so a change shows at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import Channel, ChannelKey, WorkspaceKey
from bot.meetings.ballots import Rsvp
from bot.meetings.ics import uri_value
from bot.ports import MeetingsStore, UnitOfWork
from bot.ports.meetings import SessionRecord
from bot.ports.names import CHANNEL
from bot.services import archive_web, calendar_feed
from bot.services.meeting_sessions import HORIZON, answers_of, bring_up_to_date
from bot.services.web_links import BadLink, Signer
from bot.wording import web as wording

# How far back the page lists sessions: as far as the feed does.
PAST = timedelta(days=calendar_feed.PAST_DAYS)


class Needs(archive_web.Needs, MeetingsStore, Protocol):
    """The roles these views use."""


@dataclass(frozen=True, slots=True)
class SessionLine:
    """A session as the page lists it: its RSVPs counted (all zero when cancelled), and its
    place as a link when the place is an http or https URL (None: plain text)."""

    record: SessionRecord
    counts: Mapping[Rsvp, int]
    link: str | None


@dataclass(frozen=True, slots=True)
class SessionsPage:
    """A public channel's sessions: those not over yet (soonest first) and those of the last
    PAST (latest first)."""

    channel: Channel
    ahead: tuple[SessionLine, ...]
    past: tuple[SessionLine, ...]


def place_link(*, place: str) -> str | None:
    """A place as a link: an http(s) URL of one word, made safe to write (ics.uri_value);
    None for anything else (a room, a sentence, another scheme), which is shown as text."""
    if not place.startswith(("https://", "http://")) or any(c.isspace() for c in place):
        return None
    return uri_value(url=place)


def _line(*, record: SessionRecord, answers: Mapping[str, Rsvp]) -> SessionLine:
    """One session with its answers counted."""
    counts = {answer: 0 for answer in Rsvp}
    for answer in answers.values():
        counts[answer] += 1
    return SessionLine(record=record, counts=counts, link=place_link(place=record.session.place))


def has_sessions(*, uow: UnitOfWork[Needs], channel: ChannelKey, now: datetime) -> bool:
    """Whether the channel has a meeting, or sessions the page would list."""
    with uow(write=False) as store:
        if store.meeting_plan(channel=channel) is not None:
            return True
        return bool(store.session_records(channel=channel, since=now - PAST, until=now + HORIZON))


def sessions_page(
    *, uow: UnitOfWork[Needs], workspace: WorkspaceKey, name: str, now: datetime
) -> SessionsPage | None:
    """A public channel's sessions (by its name or platform id); None when no public channel
    of the workspace has it."""
    with uow(write=False) as store:
        found = archive_web.public_channel(store=store, workspace=workspace, name=name)
    if found is None:
        return None
    bring_up_to_date(uow=uow, channel=found.key, now=now)
    with uow(write=False) as store:
        records = store.session_records(channel=found.key, since=now - PAST, until=now + HORIZON)
        answers = answers_of(store=store, records=records)
    lines = [_line(record=r, answers=answers.get(r.id, {})) for r in records]
    return SessionsPage(
        channel=found,
        ahead=tuple(line for line in lines if line.record.session.end > now),
        past=tuple(reversed([line for line in lines if line.record.session.end <= now])),
    )


def calendar(
    *, uow: UnitOfWork[Needs], signer: Signer | None, token: str, now: datetime
) -> bytes | None:
    """The feed of the channel a genuine token names, called after the channel; None for any
    other token (or with no signer: sign-in is off, so no token was ever made).

    A private channel's feed is served too: its address is a capability URL, handed out by
    /paperclub sessions in that channel only, and it holds times and places, nothing said
    there: whoever holds it reads them, and nobody without it (hence 404, not 401, for a
    wrong one: no hint that a channel exists)."""
    if signer is None:
        return None
    try:
        channel = signer.check_calendar(token=token)
    except BadLink:
        return None
    with uow(write=False) as store:
        named = store.names_in(workspace=channel.workspace_key, kind=CHANNEL)
    title = wording.calendar_name(channel=named.get(channel.channel) or channel.channel)
    return calendar_feed.feed(uow=uow, channel=channel, name=title, now=now)
