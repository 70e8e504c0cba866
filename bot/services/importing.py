"""Bring parsed drafts into the store: dedupe, place at the end of the queue, report."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from bot.domain import ImportReport, NewPaper, PaperDraft, Rejection, WorkspaceKey
from bot.ingest.keys import dedupe_keys
from bot.ports import ListsStore, PapersStore, UnitOfWork, WorkspacesStore
from bot.services import workspaces


class Needs(WorkspacesStore, PapersStore, ListsStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


# Column limits of the schema; a longer value is clipped, not a reason to lose the paper.
TITLE_MAX = 300
URL_MAX = 2000
DOI_MAX = 300

Progress = Callable[[int, int], None]


def _fit(*, draft: PaperDraft) -> PaperDraft:
    """Clip fields to what the schema holds; an over-long URL is dropped rather than cut."""
    title = draft.title if len(draft.title) <= TITLE_MAX else draft.title[: TITLE_MAX - 1] + "…"
    url = draft.url if draft.url and len(draft.url) <= URL_MAX else None
    doi = draft.doi if draft.doi and len(draft.doi) <= DOI_MAX else None
    return replace(draft, title=title, url=url, doi=doi)


def _file_of(*, origin: str) -> str:
    """The file of an origin ("list.txt:12" -> "list.txt")."""
    head, sep, line = origin.rpartition(":")
    return head if sep and line.isdigit() else origin


def import_drafts(
    *,
    uow: UnitOfWork[Needs],
    drafts: Sequence[PaperDraft],
    now: datetime,
    added_by: str | None = None,
    queue_channel_id: int | None = None,
    rejected: Sequence[Rejection] = (),
    progress: Progress | None = None,
    batch_size: int = 1000,
    workspace: WorkspaceKey | None = None,
) -> ImportReport:
    """Add every new draft at the end of a workspace's queue (None: the only workspace, see
    workspaces.resolve); each batch is one transaction. Drafts of a named reading list
    ("Related papers: …") are kept with that list."""
    into = workspace if workspace is not None else workspaces.resolve(uow=uow, named=None)
    with uow() as store:
        workspace_id = store.workspace_id(workspace=into)
        known = store.known_keys(workspace=into)
        position = store.max_position(workspace=into)
        lists = {
            (draft.list_name, origin): store.reading_list(
                name=draft.list_name, origin=origin, now=now
            )
            for draft in drafts
            if draft.list_name
            for origin in (_file_of(origin=draft.origin),)
        }
    rejections = list(rejected)
    known_origins: list[str] = []
    added = 0
    batch: list[NewPaper] = []

    def flush() -> None:
        """Write the batch; rows another writer stored meanwhile count as known."""
        nonlocal added
        if not batch:
            return
        with uow() as store:
            kept = store.insert_papers(papers=batch)
        added += kept
        known_origins.extend(["(stored meanwhile)"] * (len(batch) - kept))
        batch.clear()

    for done, raw in enumerate(drafts, start=1):
        draft = _fit(draft=raw)
        if not draft.title.strip():
            rejections.append(Rejection(origin=draft.origin, reason="no title or abstract"))
        else:
            keys = dedupe_keys(draft=draft)
            if known.intersection(keys):
                known_origins.append(draft.origin)
            else:
                known.update(keys)
                position += 1
                batch.append(
                    NewPaper(
                        draft=draft,
                        # dedupe_keys computed it already; hashing twice doubled import time.
                        fingerprint=next(k[3:] for k in keys if k.startswith("fp:")),
                        source=draft.origin,
                        added_by=added_by,
                        added_at=now,
                        position=position,
                        workspace_id=workspace_id,
                        queue_channel_id=queue_channel_id,
                        list_id=lists.get((draft.list_name, _file_of(origin=draft.origin))),
                    )
                )
                if len(batch) >= batch_size:
                    flush()
        if progress is not None:
            progress(done, len(drafts))
    flush()
    return ImportReport(
        added=added,
        known=len(known_origins),
        rejected=tuple(rejections),
        known_origins=tuple(known_origins),
    )
