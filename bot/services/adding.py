"""`/paperclub add`: a paper joins the channel's queue, unless the group already has it."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Protocol

from bot import ingest
from bot.domain import ChannelKey, NewPaper, Paper, PaperDraft, WorkspaceKey
from bot.ingest.keys import dedupe_keys, fingerprint
from bot.ports import (
    ChannelsStore,
    LookupFailed,
    PaperLookup,
    PapersStore,
    UnitOfWork,
    WorkspacesStore,
)
from bot.services.embedding import SemanticExtra
from bot.services.reply import Reply
from bot.wording import replies


class Needs(WorkspacesStore, PapersStore, ChannelsStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


def _fetch(*, lookup: PaperLookup, draft: PaperDraft) -> tuple[PaperDraft, str]:
    """The draft completed from arXiv or Crossref when it has an id; a note when that failed."""
    if not (draft.arxiv_id or draft.doi):
        return draft, ""
    try:
        found = (
            lookup.by_arxiv_id(arxiv_id=draft.arxiv_id)
            if draft.arxiv_id
            else lookup.by_doi(doi=draft.doi or "")
        )
    except LookupFailed as exc:
        return draft, replies.offline_note(reason=str(exc))
    if found is None:
        return draft, replies.not_found_note(arxiv_id=draft.arxiv_id, doi=draft.doi)
    merged = replace(
        found,
        arxiv_id=draft.arxiv_id or found.arxiv_id,
        doi=draft.doi or found.doi,
        url=found.url or draft.url,
        origin=draft.origin,
    )
    return merged, ""


def _typed_fields(*, draft: PaperDraft) -> tuple[str, ...]:
    """What the person typed and enrichment must keep: a title given as such (not an id or a
    link, whose title comes from a service)."""
    typed = not (draft.arxiv_id or draft.doi or draft.url or draft.title_derived)
    return ("title",) if typed else ()


def held(*, store: Needs, workspace: WorkspaceKey, draft: PaperDraft) -> Paper | None:
    """The workspace's paper a reference names: by its ids or link, else ("have we read
    it?") by its title when it gave no id."""
    known = store.paper_by_keys(workspace=workspace, keys=dedupe_keys(draft=draft))
    if known is None and not (draft.arxiv_id or draft.doi or draft.url):
        known = store.paper_by_title(workspace=workspace, title=draft.title)
    return known


def _known(*, store: Needs, paper: Paper, channel: ChannelKey) -> Reply:
    """The reply about a paper the archive already holds, as this channel may see it."""
    views = store.post_views(paper_id=paper.id, viewer=channel)
    position = store.queue_position(paper=paper, channel=store.channel(key=channel))
    return Reply(
        message=replies.already_have(
            paper=paper, status=paper.status.value, views=views, position=position
        )
    )


def queue_draft(
    *,
    store: Needs,
    draft: PaperDraft,
    channel: ChannelKey,
    user: str,
    now: datetime,
    locked: tuple[str, ...] = (),
) -> tuple[Paper, int] | None:
    """Insert a paper the workspace does not hold at the end of the channel's queue (its own
    when it follows the list, else the shared one): the paper and its queue position; None
    when another writer stored it meanwhile. `locked`: fields enrichment must keep."""
    followed = store.channel(key=channel)
    new = NewPaper(
        draft=draft,
        fingerprint=fingerprint(title=draft.title, abstract=draft.abstract),
        source=draft.origin,
        added_by=user,
        added_at=now,
        position=store.max_position(workspace=channel.workspace_key) + 1,
        workspace_id=store.workspace_id(workspace=channel.workspace_key, claim=True),
        queue_channel_id=followed.id if followed else None,
        locked=locked,
    )
    if store.insert_papers(papers=[new]) == 0:
        return None
    paper = store.paper_by_keys(workspace=channel.workspace_key, keys=dedupe_keys(draft=draft))
    if paper is None:
        return None
    return paper, store.queue_position(paper=paper, channel=followed)


def add(
    *,
    uow: UnitOfWork[Needs],
    lookup: PaperLookup,
    text: str,
    channel: ChannelKey,
    user: str,
    now: datetime,
    semantic_extra: SemanticExtra,
) -> Reply:
    """Normalise the reference like the importer, then report it or queue it in this channel
    (its own queue when it follows the list, else the shared one); `semantic_extra` is told
    of a paper added."""
    draft = ingest.draft_from_reference(text=text, origin=f"added by {user}")
    if draft is None:
        return Reply(message=replies.ADD_USAGE)
    with uow(write=False) as store:
        known = held(store=store, workspace=channel.workspace_key, draft=draft)
        if known is not None:
            return _known(store=store, paper=known, channel=channel)
    complete, note = _fetch(lookup=lookup, draft=draft)
    keys = dedupe_keys(draft=complete)
    with uow() as store:
        known = store.paper_by_keys(workspace=channel.workspace_key, keys=keys)
        if known is not None:  # the fetched title matched a paper typed differently before
            return _known(store=store, paper=known, channel=channel)
        queued = queue_draft(
            store=store,
            draft=complete,
            channel=channel,
            user=user,
            now=now,
            locked=_typed_fields(draft=draft),
        )
        if queued is None:
            return Reply(message=replies.RACE_ADDED)
        _paper, position = queued
    semantic_extra.written()  # committed: the embedder may read it now
    return Reply(message=replies.added(title=complete.title, position=position, note=note))
