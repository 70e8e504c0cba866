"""Suggestions: ranking what the watches found for the channel's tray, and what people do
with one (promote it into the queue, or hide it: "Not for us"), by button or by command.

Anyone may decide a suggestion; the first decision holds (a conditional write: a second click,
or another replica's, is told what became of it). Promoting queues the candidate like
/paperclub add would, unless the workspace holds the paper already.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Literal, Protocol

from bot.domain import ChannelKey, PaperDraft
from bot.ingest.keys import dedupe_keys
from bot.messages import Message
from bot.ports import ChannelsStore, PapersStore, UnitOfWork, WorkspacesStore
from bot.ports.sources import Pick, SourcesStore, Suggestion
from bot.services.adding import queue_draft
from bot.services.embedding import SemanticExtra
from bot.services.reply import ClickAnswer, Reply
from bot.sources.candidates import Candidate
from bot.sources.keywords import match_filters
from bot.sources.rank import Scorer, rank
from bot.sources.tray import fill_tray
from bot.wording import suggestions as words

HISTORY = 200  # papers read, at most, the ranking learns from
FRESH = timedelta(days=7)  # a suggestion waiting longer than this is no longer news
CONSIDERED = 2_000  # waiting suggestions ranked at most (newest first)
MAX_PER_DAY = 5  # Discord shows five rows of buttons at most: one row a suggestion
BOT = ""  # who decided, when the bot did (autofill)


class Needs(SourcesStore, PapersStore, ChannelsStore, WorkspacesStore, Protocol):
    """The roles of the archive suggestions use."""


def picks(
    *,
    store: Needs,
    channel: ChannelKey,
    now: datetime,
    limit: int,
    scorer: Scorer | None,
    news_since: datetime | None = None,
) -> list[Pick]:
    """The best `limit` waiting suggestions for the channel's group, new to its archive;
    with `news_since`, none unless one of them was found since then (a day's tray: a day
    nothing was announced has none, though older ones still wait)."""
    waiting = [
        s
        for s in store.suggestions(channel=channel, states=("waiting",), limit=CONSIDERED)
        if s.found_at >= now - FRESH
    ]
    if news_since is not None and not any(s.found_at >= news_since for s in waiting):
        return []
    if not waiting or limit < 1:
        return []
    by_candidate = {s.candidate: s for s in waiting}
    watches = {w.id: w.spec for w in store.watches(channel=channel)}
    filters = {}
    for s in waiting:
        spec = watches.get(s.watch_id) if s.watch_id is not None else None
        if spec is not None:
            found = match_filters(
                candidate=s.candidate, keywords=spec.keywords, authors=spec.authors
            )
            if found is not None:
                filters[s.candidate] = found
    ranked = rank(
        candidates=list(by_candidate),
        history=store.group_history(channel=channel, limit=HISTORY),
        scorer=scorer,
        filters=filters,
    )
    chosen = fill_tray(
        ranked=ranked, known=store.known_keys(workspace=channel.workspace_key), limit=limit
    )
    return [
        Pick(suggestion_id=by_candidate[r.candidate].id, reason=r.reason, score=r.score)
        for r in chosen
    ]


def tray_message(*, store: Needs, channel: ChannelKey, ids: Sequence[int]) -> Message | None:
    """A tray's message as its suggestions stand now; None when none of them is left."""
    held = [store.suggestion(channel=channel, suggestion_id=i) for i in ids]
    shown = [s for s in held if s is not None]
    if not shown:
        return None
    # Waiting: found within FRESH of the tray's newest (older ones are never shown again).
    since = max(s.found_at for s in shown) - FRESH
    waiting = store.count_suggestions(channel=channel, states=("waiting",), since=since)
    return words.tray(suggestions=shown, waiting=waiting)


def _draft(*, candidate: Candidate, user: str) -> PaperDraft:
    """The paper a promoted candidate becomes."""
    return PaperDraft(
        title=candidate.title,
        abstract=candidate.abstract,
        authors=candidate.authors,
        url=candidate.url,
        arxiv_id=candidate.arxiv_id,
        doi=candidate.doi,
        origin=f"suggested ({candidate.source}), added by {user or 'Paper Club'}",
        published=candidate.announced,
    )


class _AlreadyDecided(Exception):
    """Someone decided the suggestion between our read and our write (another click, another
    replica): the unit of work is rolled back, so nothing of ours (a queued paper) is kept."""


def _decided(
    *,
    store: Needs,
    suggestion: Suggestion,
    state: Literal["promoted", "hidden"],
    user: str,
    now: datetime,
    paper_id: int | None = None,
) -> None:
    """Decide the suggestion, or raise _AlreadyDecided when the conditional write found it
    decided already."""
    if not store.decide_suggestion(
        suggestion_id=suggestion.id, state=state, user=user, now=now, paper_id=paper_id
    ):
        raise _AlreadyDecided


def _promote(*, store: Needs, suggestion: Suggestion, user: str, now: datetime) -> Message:
    """Queue a suggestion's paper and mark it promoted (in the caller's unit of work)."""
    candidate = suggestion.candidate
    draft = _draft(candidate=candidate, user=user)
    known = store.paper_by_keys(
        workspace=suggestion.channel.workspace_key, keys=dedupe_keys(draft=draft)
    )
    if known is not None:  # added by hand meanwhile: wanted, and already there
        _decided(
            store=store,
            suggestion=suggestion,
            state="promoted",
            user=user,
            now=now,
            paper_id=known.id,
        )
        return words.already_in(title=candidate.title)
    queued = queue_draft(store=store, draft=draft, channel=suggestion.channel, user=user, now=now)
    if queued is None:  # another writer stored the paper meanwhile: already there
        _decided(store=store, suggestion=suggestion, state="promoted", user=user, now=now)
        return words.already_in(title=candidate.title)
    paper, position = queued
    _decided(
        store=store, suggestion=suggestion, state="promoted", user=user, now=now, paper_id=paper.id
    )
    return words.promoted(title=candidate.title, position=position)


def _redrawn(
    *, store: Needs, channel: ChannelKey, suggestion_id: int
) -> tuple[Message | None, str | None]:
    """The tray that holds the suggestion as it stands now, and its posted message's id
    (None, None: it was in no tray)."""
    tray = store.tray_of(suggestion_id=suggestion_id)
    if tray is None:
        return None, None
    shown = tray_message(store=store, channel=channel, ids=tray.suggestion_ids)
    return shown, tray.message_id or None


def decide(
    *,
    uow: UnitOfWork[Needs],
    channel: ChannelKey,
    number: str,
    how: Literal["promoted", "hidden"],
    user: str,
    now: datetime,
    semantic_extra: SemanticExtra,
) -> ClickAnswer:
    """Promote or hide the channel's suggestion `number` (a button's value, or typed)."""
    if not number.strip().isdigit() or len(number.strip()) > 12:
        return ClickAnswer(reply=Reply(message=words.no_such(number=number)))
    try:
        with uow() as store:
            suggestion = store.suggestion(channel=channel, suggestion_id=int(number))
            if suggestion is None:
                return ClickAnswer(reply=Reply(message=words.no_such(number=number)))
            if suggestion.state in ("promoted", "hidden"):
                answer = words.decided(suggestion=suggestion)
            elif how == "promoted":
                answer = _promote(store=store, suggestion=suggestion, user=user, now=now)
            else:
                _decided(store=store, suggestion=suggestion, state=how, user=user, now=now)
                answer = words.hidden(title=suggestion.candidate.title)
            shown, posted = _redrawn(store=store, channel=channel, suggestion_id=suggestion.id)
    except _AlreadyDecided:  # told what the other decision was, as a second click is
        with uow(write=False) as store:
            now_held = store.suggestion(channel=channel, suggestion_id=int(number))
            if now_held is None:
                return ClickAnswer(reply=Reply(message=words.no_such(number=number)))
            answer = words.decided(suggestion=now_held)
            shown, posted = _redrawn(store=store, channel=channel, suggestion_id=now_held.id)
    if how == "promoted":
        semantic_extra.written()  # a paper may have been added: the embedder may read it
    return ClickAnswer(reply=Reply(message=answer), redrawn=shown, posted=posted)


def autofill(
    *, uow: UnitOfWork[Needs], channel: ChannelKey, now: datetime, scorer: Scorer | None
) -> str | None:
    """When the channel's queue runs low and its admins let the tray fill it, queue the top
    suggestion (today's tray first, else the best waiting one); its title, None otherwise."""
    try:
        return _autofill(uow=uow, channel=channel, now=now, scorer=scorer)
    except _AlreadyDecided:  # a person decided the top one meanwhile: the next sweep retries
        return None


def _autofill(
    *, uow: UnitOfWork[Needs], channel: ChannelKey, now: datetime, scorer: Scorer | None
) -> str | None:
    """autofill's work, in one unit of work (after a read that finds it off: the minute sweep
    asks for every watching channel, and most have it off or a queue that is not empty)."""
    with uow(write=False) as store:
        if not store.tray_settings(channel=channel).autofill:
            return None
    with uow() as store:
        settings = store.tray_settings(channel=channel)
        followed = store.channel(key=channel)
        if not settings.autofill or followed is None:
            return None
        if store.count_queued(workspace=channel.workspace_key, channel=followed) >= (
            settings.autofill_below
        ):
            return None
        shown = sorted(
            store.suggestions(channel=channel, states=("shown",), limit=CONSIDERED),
            key=lambda s: (-(s.score or 0.0), s.id),
        )
        best = [s.id for s in shown] or [
            p.suggestion_id
            for p in picks(store=store, channel=channel, now=now, limit=1, scorer=scorer)
        ]
        for number in best:
            suggestion = store.suggestion(channel=channel, suggestion_id=number)
            if suggestion is None:
                continue
            _promote(store=store, suggestion=suggestion, user=BOT, now=now)
            if store.count_queued(workspace=channel.workspace_key, channel=followed) > 0:
                return suggestion.candidate.title
    return None
