"""Related papers: the papers a group already read that are closest in meaning to one paper,
under each daily post and for /paperclub related (the semantic extra's)."""

from __future__ import annotations

from datetime import date
from typing import Protocol

from bot import ingest
from bot.domain import Channel, ChannelKey, Paper, RelatedRead, WorkspaceKey
from bot.messages import message
from bot.ports import (
    ChannelsStore,
    PapersStore,
    SearchStore,
    Semantic,
    SemanticStore,
    UnitOfWork,
    WorkspacesStore,
)
from bot.search_query import parse_query
from bot.services import adding
from bot.services.embedding import SemanticExtra
from bot.services.reply import Reply
from bot.wording import semantic as words


class Needs(WorkspacesStore, PapersStore, ChannelsStore, SearchStore, SemanticStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


ON_POST = 2  # a daily post names at most two
ON_ASK = 5  # /paperclub related lists more
# Below this cosine similarity a read paper is not "related" for this model: unrelated
# abstracts score 0.0-0.3, papers on one topic 0.5 and up.
FLOOR = 0.4


def closest_read(
    *,
    store: Needs,
    semantic: Semantic,
    paper: Paper,
    workspace: WorkspaceKey,
    viewer: ChannelKey | None,
    k: int,
    before: date | None = None,
) -> tuple[RelatedRead, ...]:
    """Up to `k` papers read in the viewer's sight (None: the operator, every channel), before
    `before` when given, closest to `paper`."""
    read = {
        r.paper_id: r
        for r in store.read_papers(workspace=workspace, viewer=viewer)
        if r.paper_id != paper.id and (before is None or r.date < before)
    }
    near = semantic.nearest_to(
        store=store, workspace=workspace, paper_id=paper.id, among=read.keys(), k=k
    )
    return tuple(
        RelatedRead(
            title=read[n.paper_id].title,
            date=read[n.paper_id].date,
            permalink=read[n.paper_id].permalink,
            votes=read[n.paper_id].votes,
        )
        for n in near
        if n.similarity >= FLOOR
    )


def on_post(
    *,
    store: Needs,
    channel: Channel,
    paper: Paper,
    day: date,
    semantic_extra: SemanticExtra,
) -> tuple[RelatedRead, ...]:
    """The related line of a daily post: read in this channel's sight before that day."""
    semantic = semantic_extra.index
    if semantic is None:
        return ()
    return closest_read(
        store=store,
        semantic=semantic,
        paper=paper,
        workspace=channel.key.workspace_key,
        viewer=channel.key,
        k=ON_POST,
        before=day,
    )


def find(
    *,
    uow: UnitOfWork[Needs],
    text: str,
    workspace: WorkspaceKey,
    viewer: ChannelKey | None,
    semantic_extra: SemanticExtra,
) -> tuple[Paper, tuple[RelatedRead, ...]] | str:
    """The paper a reference names and the closest papers read, or what to tell the asker."""
    semantic = semantic_extra.index
    if not text.strip():
        return words.RELATED_ASK
    if semantic is None:
        return words.related_unavailable(why=semantic_extra.reason)
    with uow(write=False) as store:
        paper = _find(store=store, text=text, workspace=workspace, viewer=viewer)
        if paper is None:
            return words.RELATED_NOT_FOUND.format(text=" ".join(text.split())[:200])
        near = closest_read(
            store=store,
            semantic=semantic,
            paper=paper,
            workspace=workspace,
            viewer=viewer,
            k=ON_ASK,
        )
    return paper, near


def ask(
    *,
    uow: UnitOfWork[Needs],
    text: str,
    viewer: ChannelKey,
    semantic_extra: SemanticExtra,
) -> Reply:
    """/paperclub related <arXiv id, DOI or title>: the closest papers the group read."""
    found = find(
        uow=uow,
        text=text,
        workspace=viewer.workspace_key,
        viewer=viewer,
        semantic_extra=semantic_extra,
    )
    if isinstance(found, str):
        return Reply(message=message(found))
    paper, near = found
    return Reply(message=words.related_reply(title=paper.title, related=near))


def _find(
    *, store: Needs, text: str, workspace: WorkspaceKey, viewer: ChannelKey | None
) -> Paper | None:
    """The paper meant: by arXiv id, DOI or link, by its title, else the best search hit."""
    draft = ingest.draft_from_reference(text=text, origin="related")
    known = None if draft is None else adding.held(store=store, workspace=workspace, draft=draft)
    if known is not None:
        return known
    query = parse_query(text=text)
    if not query.has_text:  # no words: a search would list every paper, not name one
        return None
    page = store.search(query=query, limit=1, offset=0, viewer=viewer, workspace=workspace)
    return page.hits[0].paper if page.hits else None
