"""The web archive's meetings: a public channel's sessions page (each session's presenter and
paper, and who presented how often), and a channel's calendar feed for whoever holds its token.

The page follows the archive's rule (public channels of the viewer's workspace only). The feed
follows its token alone: a calendar app carries no sign-in, so the token is the credential.
Both bring the stored sessions up to date first, so a change shows at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import Channel, ChannelKey, Paper, WorkspaceKey
from bot.meetings.ballots import Rsvp
from bot.meetings.ics import uri_value
from bot.ports import MeetingsStore, SessionHistoryStore, UnitOfWork
from bot.ports.meetings import SessionRecord
from bot.ports.names import CHANNEL
from bot.ports.session_history import SessionHistory
from bot.services import archive_web, calendar_feed
from bot.services.meeting_sessions import HORIZON, bring_up_to_date
from bot.services.web_links import BadLink, Signer
from bot.wording import web as wording

# How far back the page lists sessions: as far as the feed does.
PAST = timedelta(days=calendar_feed.PAST_DAYS)


class Needs(archive_web.Needs, MeetingsStore, SessionHistoryStore, Protocol):
    """The roles these views use."""


@dataclass(frozen=True, slots=True)
class SessionLine:
    """A session as the page lists it: its RSVPs counted (all zero when cancelled), its
    place as a link when the place is an http or https URL (None: plain text), its
    presenter's user id and the paper its poll chose (None: none, or one the archive keeps
    from its pages: a paper waiting in a private channel's queue)."""

    record: SessionRecord
    counts: Mapping[Rsvp, int]
    link: str | None
    presenter: str | None = None
    paper: Paper | None = None
    # After it: (worth it, not really, good discussion, quiet), and its notes' links (each
    # made safe to write: an http(s) URL; others left out).
    rated: tuple[int, int, int, int] = (0, 0, 0, 0)
    links: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SessionsPage:
    """A public channel's sessions: those not over yet (soonest first) and those of the last
    PAST (latest first)."""

    channel: Channel
    ahead: tuple[SessionLine, ...]
    past: tuple[SessionLine, ...]
    # Who presented how often, every session started so far (cancelled ones not): (user id,
    # sessions), most first.
    presented: tuple[tuple[str, int], ...] = ()


def place_link(*, place: str) -> str | None:
    """A place as a link: an http(s) URL of one word, made safe to write (ics.uri_value);
    None for anything else (a room, a sentence, another scheme), which is shown as text."""
    if not place.startswith(("https://", "http://")) or any(c.isspace() for c in place):
        return None
    return uri_value(url=place)


def _line(*, memory: SessionHistory, paper: Paper | None) -> SessionLine:
    """One session with its answers counted."""
    counts = {answer: 0 for answer in Rsvp}
    for _, answer in memory.rsvps:
        counts[answer] += 1
    record = memory.record
    return SessionLine(
        record=record,
        counts=counts,
        link=place_link(place=record.session.place),
        presenter=memory.presenter.user if memory.presenter is not None else None,
        paper=paper,
        rated=(
            sum(1 for _, r in memory.ratings if r.worth is True),
            sum(1 for _, r in memory.ratings if r.worth is False),
            sum(1 for _, r in memory.ratings if r.discussion is True),
            sum(1 for _, r in memory.ratings if r.discussion is False),
        ),
        links=tuple(url for url in (place_link(place=u) for u in memory.links) if url),
    )


def presented(*, history: Sequence[SessionHistory]) -> tuple[tuple[str, int], ...]:
    """How many sessions each member presented (cancelled ones not), most first, then by id."""
    counted = Counter(
        m.presenter.user for m in history if m.presenter is not None and not m.record.cancelled
    )
    return tuple(sorted(counted.items(), key=lambda item: (-item[1], item[0])))


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
    key = found.key
    with uow(write=False) as store:
        shown = store.session_history(
            workspace=workspace, channel=key, since=now - PAST, until=now + HORIZON
        )
        history = store.session_history(workspace=workspace, channel=key, since=None, until=now)
        chosen = {m.paper.paper_id for m in shown if m.paper is not None}
        papers = {i: store.public_paper(workspace=workspace, paper_id=i) for i in chosen}
    lines = [
        _line(memory=m, paper=papers.get(m.paper.paper_id) if m.paper else None) for m in shown
    ]
    return SessionsPage(
        channel=found,
        ahead=tuple(line for line in lines if line.record.session.end > now),
        past=tuple(reversed([line for line in lines if line.record.session.end <= now])),
        presented=presented(history=history),
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
