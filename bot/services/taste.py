"""The picker that knows the group: the queue ranked by predicted interest, learnt from how the
group voted on and discussed what it read, and how the channel's members rated the sessions
that read a paper (a ridge model over the papers' vectors, as arxiv-sanity ranks per user), plus
an age bonus so that nothing waits forever."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.domain import Channel, ChannelKey, Paper
from bot.domain.ratings import NOT_RATED, RatingCount
from bot.domain.semantic import PickOrder, ReadPaper
from bot.domain.votes import VoteCount, liking_of
from bot.messages import message
from bot.ports import ChannelsStore, PapersStore, Semantic, SemanticStore, UnitOfWork
from bot.ports.session_memory import SessionMemoryStore
from bot.services.embedding import SemanticExtra
from bot.services.reply import Reply
from bot.wording import replies
from bot.wording import semantic as words


class Needs(PapersStore, ChannelsStore, SemanticStore, SessionMemoryStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


CANDIDATES = 200  # queued papers weighed at each pick: the queue's head, not all of a big list
MIN_READ = 3  # papers read (with a vector) before the group's taste says anything
# Standard deviations of predicted interest a week of waiting is worth: after about two
# months a paper the group would like least still beats a favourite that just arrived.
AGE_PER_WEEK = 0.25


@dataclass(frozen=True, slots=True)
class Pick:
    """The paper to post, and the line saying why (None in plain queue order)."""

    paper: Paper
    reason: str | None = None


def liking(*, read: ReadPaper, rated: RatingCount = NOT_RATED) -> float:
    """How much the group liked a paper it read: 👍 minus 👎, and some for the discussion;
    and what members said of the sessions that read it."""
    return liking_of(votes=read.votes, comments=read.comments, rated=rated)


def likings(*, read: Sequence[ReadPaper], rated: Mapping[int, RatingCount]) -> dict[int, float]:
    """How much the group liked each paper it read, and each paper a session of the channel
    read and its members rated (one chosen by a poll is not always posted)."""
    liked = {p.paper_id: liking(read=p, rated=rated.get(p.paper_id, NOT_RATED)) for p in read}
    for paper_id, count in rated.items():
        if paper_id not in liked:
            liked[paper_id] = liking_of(votes=VoteCount(), comments=0, rated=count)
    return liked


def order(
    *, candidates: Sequence[Paper], predicted: Mapping[int, float], now: datetime
) -> list[tuple[Paper, float, int]]:
    """Candidates by predicted interest (standardised) plus the age bonus, best first, with
    the score and the days each waited; ties keep queue order."""
    values = [predicted.get(paper.id) for paper in candidates]
    known = [value for value in values if value is not None]
    mean = statistics.fmean(known) if known else 0.0
    spread = statistics.pstdev(known) if len(known) > 1 else 0.0
    ranked = []
    for place, (paper, value) in enumerate(zip(candidates, values, strict=True)):
        interest = (value - mean) / spread if value is not None and spread > 0 else 0.0
        days = max(0, (now - paper.added_at).days)
        ranked.append((place, paper, interest + AGE_PER_WEEK * days / 7, days))
    ranked.sort(key=lambda item: (-item[2], item[0]))
    return [(paper, score, days) for _, paper, score, days in ranked]


def pick(
    *, store: Needs, semantic: Semantic | None, channel: Channel, now: datetime
) -> Pick | None:
    """The channel's next paper: in queue order, or by taste when the channel asked for it and
    the group has read enough to learn from; None for an empty queue."""
    workspace = channel.key.workspace_key
    if channel.pick_order != PickOrder.TASTE:
        head = store.queued(workspace=workspace, channel=channel, limit=1)
        return Pick(paper=head[0]) if head else None
    candidates = store.queued(workspace=workspace, channel=channel, limit=CANDIDATES)
    if not candidates:
        return None
    if semantic is None:
        return Pick(paper=candidates[0], reason=words.TASTE_UNAVAILABLE)
    # As queued() does: a paper without an abstract waits while any paper has one.
    with_abstract = [paper for paper in candidates if paper.abstract] or candidates
    read = store.read_papers(workspace=workspace, viewer=channel.key)
    liked = likings(read=read, rated=store.rated_papers(channel=channel.key))
    # A paper a session rated may still be queued: it is a candidate, never its own label.
    asked = {paper.id for paper in with_abstract}
    liked = {paper_id: like for paper_id, like in liked.items() if paper_id not in asked}
    predicted = semantic.predict(
        store=store, workspace=workspace, liked=liked, candidates=[p.id for p in with_abstract]
    )
    if len(predicted) < 1 or len(liked) < MIN_READ or len(set(liked.values())) < 2:
        return Pick(paper=candidates[0], reason=words.taste_learning(needed=MIN_READ))
    paper, _score, days = order(candidates=with_abstract, predicted=predicted, now=now)[0]
    nearest = semantic.nearest_to(
        store=store,
        workspace=workspace,
        paper_id=paper.id,
        k=1,
        among=[r.paper_id for r in read if liked[r.paper_id] > 0],
    )
    like = next((r for r in read if nearest and r.paper_id == nearest[0].paper_id), None)
    reason = words.taste_reason(
        title=like.title if like else None, up=like.votes.up if like else 0, days=days
    )
    return Pick(paper=paper, reason=reason)


def set_order(
    *,
    uow: UnitOfWork[Needs],
    channel: ChannelKey,
    args: Sequence[str],
    semantic_extra: SemanticExtra,
) -> Reply:
    """/paperclub order queue|taste: how this channel's next papers are picked."""
    wanted = args[0].lower() if len(args) == 1 else ""
    if wanted not in {order.value for order in PickOrder}:
        return Reply(message=message(words.ORDER_ASK))
    with uow() as store:
        followed = store.channel(key=channel)
        if followed is None:
            return Reply(message=replies.NOT_FOLLOWED)
        store.set_pick_order(channel=followed, order=PickOrder(wanted))
    if wanted == PickOrder.QUEUE:
        return Reply(message=message(words.ORDER_QUEUE))
    note = "" if semantic_extra.index is not None else " " + words.TASTE_UNAVAILABLE + "."
    return Reply(message=message(words.ORDER_TASTE + note))
