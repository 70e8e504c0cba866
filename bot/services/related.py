"""Related papers: the papers a group already read that are closest in meaning to one paper,
under each daily post and for /paperclub related (the semantic extra's)."""

from __future__ import annotations

from datetime import date

from bot import ingest
from bot.domain import Channel, ChannelKey, Paper, RelatedRead
from bot.ingest.keys import dedupe_keys
from bot.messages import message
from bot.ports import Semantic, Store, UnitOfWork
from bot.search_query import parse_query
from bot.services import meaning
from bot.services.reply import Reply
from bot.wording import meaning as words

ON_POST = 2  # a daily post names at most two
ON_ASK = 5  # /paperclub related lists more
# Below this cosine similarity a read paper is not "related" for this model: unrelated
# abstracts score 0.0-0.3, papers on one topic 0.5 and up.
FLOOR = 0.4


def closest_read(
    *,
    store: Store,
    semantic: Semantic,
    paper: Paper,
    viewer: ChannelKey,
    k: int,
    before: date | None = None,
) -> tuple[RelatedRead, ...]:
    """Up to `k` papers read in the viewer's sight (before `before`) closest to `paper`."""
    read = {
        r.paper_id: r
        for r in store.read_papers(workspace=viewer.tenant, viewer=viewer)
        if r.paper_id != paper.id and (before is None or r.date < before)
    }
    near = semantic.nearest_to(
        store=store, workspace=viewer.tenant, paper_id=paper.id, among=read.keys(), k=k
    )
    return tuple(
        RelatedRead(title=read[n.paper_id].title, date=read[n.paper_id].date,
                    permalink=read[n.paper_id].permalink, votes=read[n.paper_id].votes)
        for n in near
        if n.similarity >= FLOOR
    )  # fmt: skip


def on_post(*, store: Store, channel: Channel, paper: Paper, day: date) -> tuple[RelatedRead, ...]:
    """The related line of a daily post: read in this channel's sight before that day."""
    semantic = meaning.installed()
    if semantic is None:
        return ()
    return closest_read(store=store, semantic=semantic, paper=paper, viewer=channel.key,
                        k=ON_POST, before=day)  # fmt: skip


def ask(*, uow: UnitOfWork, text: str, viewer: ChannelKey) -> Reply:
    """/paperclub related <arXiv id, DOI or title>: the closest papers the group read."""
    semantic = meaning.installed()
    if not text.strip():
        return Reply(message=message(words.RELATED_ASK))
    if semantic is None:
        return Reply(message=message(words.RELATED_UNAVAILABLE))
    with uow(write=False) as store:
        paper = _find(store=store, text=text, viewer=viewer)
        if paper is None:
            return Reply(message=message(words.RELATED_NOT_FOUND.format(text=text[:200])))
        found = closest_read(store=store, semantic=semantic, paper=paper, viewer=viewer, k=ON_ASK)
    return Reply(message=words.related_reply(title=paper.title, related=found))


def _find(*, store: Store, text: str, viewer: ChannelKey) -> Paper | None:
    """The paper meant: by arXiv id, DOI or link, by its title, else the best search hit."""
    draft = ingest.draft_from_reference(text=text, origin="related")
    if draft is not None:
        known = store.paper_by_keys(workspace=viewer.tenant, keys=dedupe_keys(draft=draft))
        if known is None and not (draft.arxiv_id or draft.doi or draft.url):
            known = store.paper_by_title(workspace=viewer.tenant, title=draft.title)
        if known is not None:
            return known
    page = store.search(query=parse_query(text=text), limit=1, offset=0, viewer=viewer,
                        workspace=viewer.tenant)  # fmt: skip
    return page.hits[0].paper if page.hits else None
