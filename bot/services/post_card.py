"""What a daily post shows: the paper picked for it (by taste when the channel asked) and its
card (votes, what is left, yesterday's recap, related papers), also when a post is redrawn.
The semantic extra only ever adds to a post: its failures are logged, never raised."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, datetime
from typing import Protocol

from bot.domain import Channel, Paper, PaperCard, Post, RelatedRead
from bot.ports import (
    ActivityStore,
    ChannelsStore,
    Chat,
    ListsStore,
    PapersStore,
    PostsStore,
    RecapsStore,
    SearchStore,
    SemanticStore,
    UnitOfWork,
    WorkspacesStore,
)
from bot.ports.session_memory import SessionMemoryStore
from bot.services import embedding, related, taste
from bot.services.embedding import SemanticExtra


class Needs(
    WorkspacesStore,
    PapersStore,
    ListsStore,
    ChannelsStore,
    PostsStore,
    RecapsStore,
    ActivityStore,
    SearchStore,
    SemanticStore,
    SessionMemoryStore,
    Protocol,
):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


log = logging.getLogger(__name__)


def card(
    *,
    store: Needs,
    channel: Channel,
    post: Post,
    semantic_extra: SemanticExtra,
) -> PaperCard:
    """The card of a claimed post: its paper, live votes, what is left, yesterday's recap."""
    paper = store.paper(paper_id=post.paper_id)
    if paper is None:  # a foreign key guarantees it; say so loudly if that ever breaks
        raise LookupError(f"post {post.id} names paper {post.paper_id}, which is gone")
    return PaperCard(
        paper=paper,
        post_id=post.id,
        local_date=post.local_date,
        votes=store.vote_count(post_id=post.id),
        remaining=store.count_queued(workspace=channel.key.workspace_key, channel=channel),
        # Each platform names people its own way (Slack asks users.info); the core keeps ids.
        added_by_name=None,
        recap=store.recap_before(channel=channel, local_date=post.local_date),
        list_name=store.list_name(list_id=paper.list_id) if paper.list_id is not None else None,
        related=_related(
            store=store,
            channel=channel,
            paper=paper,
            day=post.local_date,
            semantic_extra=semantic_extra,
        ),
        pick_reason=store.pick_reason(post_id=post.id),
    )


def _related(
    *,
    store: Needs,
    channel: Channel,
    paper: Paper,
    day: date,
    semantic_extra: SemanticExtra,
) -> tuple[RelatedRead, ...]:
    """The post's related papers; a failure of the optional extra never stops a post."""
    try:
        return related.on_post(
            store=store, channel=channel, paper=paper, day=day, semantic_extra=semantic_extra
        )
    except Exception:
        log.exception("related papers of post %s on %s failed; posting without", paper.id, day)
        return ()


def pick(
    *,
    store: Needs,
    channel: Channel,
    now: datetime,
    semantic_extra: SemanticExtra,
) -> taste.Pick | None:
    """The channel's next paper (by taste when it asked); the extra failing means queue order.
    Once the channel has read papers, the chosen one gets its vector now, for its related
    line (before that, no model is loaded for a post: a first start stays light)."""
    semantic = semantic_extra.index
    try:
        chosen = taste.pick(store=store, semantic=semantic, channel=channel, now=now)
    except Exception:
        log.exception("picking by taste in %s failed; taking the queue's head", channel.key)
        head = store.queued(workspace=channel.key.workspace_key, channel=channel, limit=1)
        chosen = taste.Pick(paper=head[0]) if head else None
    if chosen is None or semantic is None:
        return chosen
    try:
        if store.read_papers(workspace=channel.key.workspace_key, viewer=channel.key):
            embedding.ensure_vector(
                store=store,
                semantic=semantic,
                paper=chosen.paper,
                workspace=channel.key.workspace_key,
                now=now,
            )
    except Exception:
        log.exception("no vector for paper %s; its post names no related papers", chosen.paper.id)
    return chosen


def card_of_post(
    *,
    uow: UnitOfWork[Needs],
    post_id: int,
    semantic_extra: SemanticExtra,
) -> tuple[Post, PaperCard] | None:
    """A delivered post and its card as it should look now (fresh vote counts), to redraw it."""
    with uow(write=False) as store:
        post = store.post_by_id(post_id=post_id)
        if post is None or post.message_id is None:
            return None
        channel = store.channel(key=post.channel)
        if channel is None:
            return None
        return post, card(store=store, channel=channel, post=post, semantic_extra=semantic_extra)


def redraw(
    *,
    uow: UnitOfWork[Needs],
    post_id: int,
    chat_of: Callable[[str], Chat | None],
    semantic_extra: SemanticExtra,
) -> None:
    """Redraw a post with its current counts on the Chat of the platform it was posted to (the
    coalescer's flush, and a Room's inline redraw)."""
    found = card_of_post(uow=uow, post_id=post_id, semantic_extra=semantic_extra)
    if found is None:
        return
    post, card = found
    chat = chat_of(post.channel.platform)
    if chat is not None and post.message_id is not None:
        chat.update_post(channel=post.channel, message_id=post.message_id, card=card)
