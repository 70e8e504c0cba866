"""Which workspace a command means: named by `--workspace`, or the only one there is."""

from __future__ import annotations

from dataclasses import dataclass
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


# Where a platform's papers wait before one of its workspaces starts (bot/db/workspaces.py).
_TRIAL = frozenset({LOCAL, WorkspaceKey(platform="console", id="")})


def into_words(*, workspace: WorkspaceKey) -> str:
    """Which workspace a command wrote to, and for `local` or `console`, what becomes of it."""
    if workspace in _TRIAL:
        return (
            f"Workspace: {workspace}. The first Slack or Discord workspace to start takes these "
            "papers over (see the README's Workspaces)."
        )
    return f"Workspace: {workspace}."


def move_command(*, source: WorkspaceKey, target: WorkspaceKey) -> str:
    """The one command that moves a workspace's papers to another."""
    return f"paperclub workspaces move --from {source} --to {target}"


@dataclass(frozen=True, slots=True)
class Moved:
    """What `paperclub workspaces move` did: papers moved, and those the target held already."""

    source: WorkspaceKey
    target: WorkspaceKey
    moved: int
    left: int


def move(*, uow: UnitOfWork[Needs], source: str, target: str) -> Moved:
    """Move every paper of one workspace (one the archive holds) to another (made when new)."""
    src, dst = parse_workspace(text=source), parse_workspace(text=target)
    if src == dst:
        raise WorkspaceUnknown(f"--from and --to are both {src}.")
    with uow() as store:
        known = store.workspaces()
        if src not in known:
            raise WorkspaceUnknown(f"There is no workspace {src}. {_choices(known=known)}")
        moved, left = store.move_papers(source=src, target=dst)
    return Moved(source=src, target=dst, moved=moved, left=left)


def papers_elsewhere(*, uow: UnitOfWork[Needs], workspace: WorkspaceKey) -> dict[WorkspaceKey, int]:
    """The other workspaces with queued papers, and how many: where an empty channel's papers
    may have gone (an import before the platform started, a console trial)."""
    with uow(write=False) as store:
        counts = store.queued_by_workspace()
    return {key: n for key, n in counts.items() if key != workspace and n}
