"""The web archive's views: one workspace's public channels, through the core services.

The archive reads as a member of no channel would: a viewer whose channel id no channel has
sees the workspace's public channels alone, so search, posts and comments follow the same
rule as `/paperclub search` run in a public channel (a private channel's content never shows).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Protocol

from bot.domain import Channel, ChannelKey, Paper, PostView, WorkspaceKey
from bot.domain.archive import PostList, VoteMoment, WeekActivity
from bot.ports import (
    ArchivePagesStore,
    NamesStore,
    PapersStore,
    SearchStore,
    SemanticStore,
    UnitOfWork,
    WorkspacesStore,
)
from bot.ports.archive_pages import one_person
from bot.ports.names import CHANNEL, PERSON
from bot.services import search as search_service
from bot.services.embedding import SemanticExtra
from bot.services.telemetry import Telemetry
from bot.services.workspaces import resolve


class Needs(
    WorkspacesStore,
    PapersStore,
    SearchStore,
    ArchivePagesStore,
    SemanticStore,
    NamesStore,
    Protocol,
):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


PAGE_SIZE = 20
SEARCH_PAGE_SIZE = 10
PERIODS = {"week": 7, "month": 30, "year": 365}
CHART_WEEKS = 26
NOBODY = ""  # no channel has this id, so the viewer is in none of them


@dataclass(frozen=True, slots=True)
class PaperPage:
    """A paper, where it was posted publicly (with votes and comments), and its votes' times."""

    paper: Paper
    posts: tuple[PostView, ...]
    votes: tuple[VoteMoment, ...]


@dataclass(frozen=True, slots=True)
class Names:
    """What the platform calls the workspace's public channels and its people, by id (as the
    running bot last learnt them: bot.services.names); an id stands in for an unknown name."""

    channels: Mapping[str, str] = field(default_factory=dict)
    people: Mapping[str, str] = field(default_factory=dict)

    def channel(self, key: ChannelKey | None) -> str:
        """A channel's name without the #, e.g. "general"."""
        return "" if key is None else self.channels.get(key.channel, key.channel)

    def person(self, user: str | None) -> str:
        """A person's display name."""
        return "" if not user else self.people.get(user, user)


def names(*, uow: UnitOfWork[Needs], workspace: WorkspaceKey) -> Names:
    """The names of the workspace's public channels and of its people."""
    with uow(write=False) as store:
        public = {c.key.channel for c in store.public_channels(workspace=workspace)}
        channels = store.names_in(workspace=workspace, kind=CHANNEL)
        people = store.names_in(workspace=workspace, kind=PERSON)
    return Names(channels={k: v for k, v in channels.items() if k in public}, people=people)


def public_viewer(*, workspace: WorkspaceKey) -> ChannelKey:
    """A viewer in the workspace that is in no channel: it sees public channels only."""
    return ChannelKey(platform=workspace.platform, workspace=workspace.id, channel=NOBODY)


def _viewer(*, uow: UnitOfWork[Needs], workspace: WorkspaceKey) -> ChannelKey:
    """Who the archive reads as: nobody's channel, or one person's own (one_person)."""
    if one_person(workspace=workspace):
        with uow(write=False) as store:
            own = store.public_channels(workspace=workspace)
        if own:
            return own[0].key
    return public_viewer(workspace=workspace)


def workspace_of(*, uow: UnitOfWork[Needs], named: str | None) -> WorkspaceKey:
    """The workspace shown: the one named, else the only one (WorkspaceUnknown)."""
    return resolve(uow=uow, named=named)


def workspaces(*, uow: UnitOfWork[Needs]) -> list[WorkspaceKey]:
    """Every workspace the archive holds, to choose from."""
    with uow(write=False) as store:
        return store.workspaces()


def latest(*, uow: UnitOfWork[Needs], workspace: WorkspaceKey, offset: int = 0) -> PostList:
    """The latest public posts, newest first."""
    with uow(write=False) as store:
        return store.public_posts(
            workspace=workspace,
            channel_id=None,
            since=None,
            by_votes=False,
            limit=PAGE_SIZE,
            offset=max(0, offset),
        )


def channels(*, uow: UnitOfWork[Needs], workspace: WorkspaceKey) -> list[Channel]:
    """The public channels that follow the reading list."""
    with uow(write=False) as store:
        return store.public_channels(workspace=workspace)


def public_channel(*, store: Needs, workspace: WorkspaceKey, name: str) -> Channel | None:
    """The public channel with this platform id, else this name; None when no public one has
    it."""
    public = store.public_channels(workspace=workspace)
    named = store.names_in(workspace=workspace, kind=CHANNEL)
    found = [c for c in public if c.key.channel == name] or [
        c for c in public if named.get(c.key.channel) == name
    ]
    return found[0] if found else None


def channel_posts(
    *, uow: UnitOfWork[Needs], workspace: WorkspaceKey, name: str, offset: int = 0
) -> tuple[Channel, PostList] | None:
    """A public channel (by its name, or its platform id) and its posts; None when no public
    one has it."""
    with uow(write=False) as store:
        found = public_channel(store=store, workspace=workspace, name=name)
        if found is None:
            return None
        posts = store.public_posts(
            workspace=workspace,
            channel_id=found.id,
            since=None,
            by_votes=False,
            limit=PAGE_SIZE,
            offset=max(0, offset),
        )
        return found, posts


def top(
    *, uow: UnitOfWork[Needs], workspace: WorkspaceKey, period: str, today: date
) -> PostList | None:
    """The most voted public posts of the last week, month or year; None for another period."""
    if period not in PERIODS:
        return None
    since = today - timedelta(days=PERIODS[period])
    with uow(write=False) as store:
        return store.public_posts(
            workspace=workspace,
            channel_id=None,
            since=since,
            by_votes=True,
            limit=PAGE_SIZE,
            offset=0,
        )


def paper(*, uow: UnitOfWork[Needs], workspace: WorkspaceKey, paper_id: int) -> PaperPage | None:
    """A paper page, or None when the workspace holds no such paper for the public to see."""
    viewer = _viewer(uow=uow, workspace=workspace)
    with uow(write=False) as store:
        found = store.public_paper(workspace=workspace, paper_id=paper_id)
        if found is None:
            return None
        posts = store.post_views(paper_id=paper_id, viewer=viewer)
        moments = store.public_vote_moments(workspace=workspace, paper_id=paper_id)
    everything = one_person(workspace=workspace)
    shown = tuple(p for p in posts if everything or not p.private)
    return PaperPage(paper=found, posts=shown, votes=tuple(moments))


def search(
    *,
    uow: UnitOfWork[Needs],
    workspace: WorkspaceKey,
    text: str,
    offset: int = 0,
    semantic_extra: SemanticExtra,
    telemetry: Telemetry,
) -> search_service.SearchResult:
    """The same engine and syntax as `/paperclub search`, as a public channel sees it."""
    return search_service.search(
        uow=uow,
        text=text,
        viewer=_viewer(uow=uow, workspace=workspace),
        semantic_extra=semantic_extra,
        telemetry=telemetry,
        offset=offset,
        limit=SEARCH_PAGE_SIZE,
    )


def activity(*, uow: UnitOfWork[Needs], workspace: WorkspaceKey, today: date) -> list[WeekActivity]:
    """Every week of the last half year, with its public posts, votes and comments (zeros too)."""
    first = today - timedelta(days=today.weekday(), weeks=CHART_WEEKS - 1)
    with uow(write=False) as store:
        found = {w.monday: w for w in store.public_weeks(workspace=workspace, since=first)}
    mondays = [first + timedelta(weeks=n) for n in range(CHART_WEEKS)]
    return [found.get(m, WeekActivity(monday=m, posts=0, votes=0, comments=0)) for m in mondays]


def posting_days(
    *, uow: UnitOfWork[Needs], workspace: WorkspaceKey, today: date
) -> dict[date, int]:
    """How many public posts each day of the last half year had (days without any left out)."""
    first = today - timedelta(days=today.weekday(), weeks=CHART_WEEKS - 1)
    with uow(write=False) as store:
        days = store.public_post_days(workspace=workspace, since=first)
    counts: dict[date, int] = {}
    for day in days:
        counts[day] = counts.get(day, 0) + 1
    return counts
