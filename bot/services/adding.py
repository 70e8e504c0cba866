"""`/paperclub add`: a paper joins the channel's queue, unless the group already has it."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot import ingest
from bot.domain import NewPaper, Paper, PaperDraft, PaperStatus, PostView
from bot.ingest.keys import dedupe_keys, fingerprint
from bot.ports import LookupFailed, PaperLookup, Store, UnitOfWork
from bot.services.admin import Reply

USAGE = (
    "Usage: `/paperclub add <arXiv id or URL | DOI | URL | title>`, "
    "e.g. `/paperclub add 2104.04473`."
)


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
        return draft, f" {exc}, so it is added as typed, without its title and abstract."
    if found is None:
        what = (
            f"arXiv has no paper {draft.arxiv_id}"
            if draft.arxiv_id
            else f"Crossref has no DOI {draft.doi}"
        )
        return draft, f" ({what}; added as typed.)"
    merged = replace(
        found,
        arxiv_id=draft.arxiv_id or found.arxiv_id,
        doi=draft.doi or found.doi,
        url=found.url or draft.url,
        origin=draft.origin,
    )
    return merged, ""


def _known(*, store: Store, paper: Paper, channel_id: str) -> Reply:
    """The reply about a paper the archive already holds."""
    views = store.post_views(paper_id=paper.id)
    position = store.queue_position(paper=paper, channel=channel_id)
    return Reply(text=_already(paper=paper, views=views, position=position))


def _already(*, paper: Paper, views: list[PostView], position: int) -> str:
    """What the group did with a paper it already has."""
    if paper.status is PaperStatus.QUEUED:
        return f"“{paper.title}” is already in the queue, at position {position}."
    if paper.status is PaperStatus.SKIPPED:
        return f"“{paper.title}” was in the queue before and an admin skipped it."
    if not views:
        return f"“{paper.title}” is already in the archive."
    view = views[-1]
    thread = f" <{view.permalink}|Read the thread.>" if view.permalink else ""
    return (
        f"The group already read “{paper.title}” on {view.date:%a %d %b %Y} in <#{view.channel}>: "
        f"👍 {view.votes.up} · 👎 {view.votes.down} · 💬 {len(view.comments)}.{thread}"
    )


def add(
    *,
    uow: UnitOfWork,
    lookup: PaperLookup,
    text: str,
    channel_id: str,
    user: str,
    now: datetime,
) -> Reply:
    """Normalise the reference like the importer, then report it or queue it in this channel."""
    draft = ingest.draft_from_reference(text=text, origin=f"added by {user}")
    if draft is None:
        return Reply(text=USAGE)
    with uow(write=False) as store:
        known = store.paper_by_keys(keys=dedupe_keys(draft=draft))
        if known is not None:
            return _known(store=store, paper=known, channel_id=channel_id)
    complete, note = _fetch(lookup=lookup, draft=draft)
    keys = dedupe_keys(draft=complete)
    with uow() as store:
        known = store.paper_by_keys(keys=keys)
        if known is not None:  # the fetched title matched a paper typed differently before
            return _known(store=store, paper=known, channel_id=channel_id)
        key = fingerprint(title=complete.title, abstract=complete.abstract)
        new = NewPaper(
            draft=complete, fingerprint=key, source=complete.origin, added_by=user,
            added_at=now, position=store.max_position() + 1, channel=channel_id,
        )  # fmt: skip
        if store.insert_papers(papers=[new]) == 0:
            return Reply(text="Someone added that paper a moment ago; it is in the queue.")
        paper = store.paper_by_keys(keys=keys)
        position = store.queue_position(paper=paper, channel=channel_id) if paper else 0
    return Reply(
        text=f"Added “{complete.title}” to this channel's queue at position {position}.{note}"
    )
