"""Read-only views of the archive: queues per channel, finding a channel, the export records
(papers, and meetings' sessions)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.domain import Channel, Paper, PaperRecord, WorkspaceKey
from bot.ports import ChannelsStore, PapersStore, SessionHistoryStore, UnitOfWork
from bot.ports.session_history import SessionHistory


class Needs(PapersStore, ChannelsStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


@dataclass(frozen=True, slots=True)
class QueueView:
    """The head of one channel's queue; channel None is the shared list."""

    channel: Channel | None
    papers: tuple[Paper, ...]
    total: int


class UnknownChannel(ValueError):
    """A channel named on the command line that no followed channel matches (or several do)."""


def find_channel(*, uow: UnitOfWork[Needs], name: str) -> Channel:
    """The followed channel a person names: its id ('C0123', '#C0123'), 'platform:id' or the
    whole key 'platform:workspace:id'; UnknownChannel when none or several match."""
    wanted = name.strip().lstrip("#")
    with uow(write=False) as store:
        channels = store.channels()
    parts = wanted.split(":")
    matches = [
        c
        for c in channels
        if parts in ([c.key.channel], [c.key.platform, c.key.channel], str(c.key).split(":"))
    ]
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(str(c.key) for c in channels) or "none yet"
    if not matches:
        raise UnknownChannel(f"no followed channel is called {name!r} (followed: {known})")
    raise UnknownChannel(f"{name!r} matches several channels; name one of: {known}")


def queues(
    *,
    uow: UnitOfWork[Needs],
    workspace: WorkspaceKey,
    channel: Channel | None = None,
    limit: int = 10,
) -> list[QueueView]:
    """The next papers of each followed channel of a workspace (or of one channel), or of
    its shared list when it follows none."""
    with uow(write=False) as store:
        followed = [c for c in store.channels() if c.key.workspace_key == workspace]
        wanted: list[Channel | None] = [channel] if channel else list(followed) or [None]
        return [
            QueueView(
                channel=one,
                papers=tuple(store.queued(workspace=workspace, channel=one, limit=limit)),
                total=store.count_queued(workspace=workspace, channel=one),
            )
            for one in wanted
        ]


def records(*, uow: UnitOfWork[Needs], workspace: WorkspaceKey) -> list[PaperRecord]:
    """Every paper of a workspace with its posts, votes and comments, for export."""
    with uow(write=False) as store:
        return list(store.paper_records(workspace=workspace))


def sessions(
    *, uow: UnitOfWork[SessionHistoryStore], workspace: WorkspaceKey
) -> list[SessionHistory]:
    """Every session of a workspace's meetings, cancelled ones too, earliest first, with its
    poll, presenter and RSVPs, for export."""
    with uow(write=False) as store:
        return store.session_history(workspace=workspace, channel=None, since=None, until=None)
