"""Which workspace a command means: named by `--workspace`, or the only one there is."""

from __future__ import annotations

from typing import Protocol

from bot.domain import LOCAL, WorkspaceKey
from bot.ports import UnitOfWork, WorkspacesStore


class Needs(WorkspacesStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


class WorkspaceUnknown(ValueError):
    """A workspace was named that the archive does not hold, or none was named among several."""


def parse_workspace(*, text: str) -> WorkspaceKey:
    """'slack:T01' or 'discord:123' (platform and team or guild), 'console', or 'local' (the
    archive no platform has claimed yet)."""
    cleaned = text.strip()
    if cleaned.lower() == "local":
        return LOCAL
    platform, _, team = cleaned.partition(":")
    if not platform or any(c.isspace() for c in cleaned):
        raise WorkspaceUnknown(f"{text!r} is not a workspace: write it as slack:T0123 or local.")
    return WorkspaceKey(platform=platform.lower(), id=team)


def resolve(*, uow: UnitOfWork[Needs], named: str | None, new: bool = False) -> WorkspaceKey:
    """The workspace a command works on: the one named (`new`: also one the archive does not
    hold yet, as an import may fill a workspace before it first starts), else the only one;
    on a new archive (none yet) the unclaimed one, which the first platform to start takes
    over."""
    with uow(write=False) as store:
        known = store.workspaces()
    if named is not None:
        wanted = parse_workspace(text=named)
        if wanted not in known and not new and not (wanted == LOCAL and not known):
            raise WorkspaceUnknown(
                f"There is no workspace {wanted}. {_choices(known=known)}".rstrip()
            )
        return wanted
    if len(known) > 1:
        raise WorkspaceUnknown(
            f"This archive holds {len(known)} workspaces; say which with --workspace. "
            + _choices(known=known)
        )
    return known[0] if known else LOCAL


def _choices(*, known: list[WorkspaceKey]) -> str:
    """The workspaces there are, as --workspace takes them."""
    if not known:
        return "The archive has none yet."
    return "Choose one of: " + ", ".join(str(key) for key in known) + "."
