"""Reading the channels' watches: each source once per announce cycle, politely, resumably.

A cycle is a UTC day: arXiv announces once a weekday, around midnight UTC, and journals and
preprint servers update their feeds daily at most. A watch is read once its cycle is new. A
"not modified" answer reads the cycle, but for an arXiv category on a mailing morning, where
it means the listing is not out yet (a late announcement): that is asked again an hour later,
conditionally, until noon UTC. A feed cut short is read again, whole, an hour later. Watches
of several channels on one source share one request and one parse. An arXiv search
(keywords or authors, no categories) asks arXiv's API once a cycle for its newest matches
and keeps the recent ones.

What a read found and how far it got are written in one unit of work: a crash before it
commits leaves the cycle unread (read again at the next round), and a crash after it leaves
nothing to redo; a candidate read twice is one suggestion (the store's keys are unique per
channel). A source that fails is tried again later (its Retry-After, else a growing backoff;
a day when a person must fix it) and reported once per run of failures.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from bot.domain import ChannelKey
from bot.ports import UnitOfWork
from bot.ports.fetching import Body, Failed, Fetched, Fetcher, NotModified, Validators
from bot.ports.sources import SourcesStore, SourceState, Watch
from bot.sources.candidates import Candidate
from bot.sources.keywords import match_filters
from bot.sources.watch_text import API_RESULTS, SourceBases, searches_arxiv, source_url

if TYPE_CHECKING:
    from bot.sources.feeds import FeedRead

log = logging.getLogger("paperclub")

READ_AGAIN = timedelta(hours=1)  # a listing not out yet, or cut short, is asked again after
# arXiv mails Monday to Friday around midnight UTC (Sunday to Thursday evenings, New York); a
# listing not out by noon UTC is not coming that day (a holiday), and a weekend has none.
MAILING_DAYS = 5  # Monday to Friday, as datetime.weekday() counts (0-4)
RETRY_UNTIL = 12  # hour of the day, UTC
FIX_FIRST = timedelta(days=1)  # a source a person must fix (a 404) is tried daily meanwhile
CROSSREF_LOOKBACK = timedelta(days=7)  # a journal's first read covers the week before
# An arXiv search keeps the papers submitted up to a week before its last read (a first read:
# before now). arXiv announces, and its API shows, a submission hours to days after it was
# made (a weekend: three days; a holiday: more), so a window opening at the last read would
# miss what was submitted before it and announced after. Read twice, a paper is one suggestion.
API_LOOKBACK = timedelta(days=7)


class Needs(SourcesStore, Protocol):
    """The roles a read uses."""


@dataclass(frozen=True, slots=True)
class SourceFailure:
    """A watch's source failing, for the first time in this run of failures: to be reported
    to the channel's admins."""

    watch: Watch
    reason: str


@dataclass(frozen=True, slots=True)
class ReadRound:
    """What one round of reads did: sources asked, suggestions kept, failures to report."""

    asked: int = 0
    kept: int = 0
    failures: tuple[SourceFailure, ...] = ()


def cycle_of(*, now: datetime) -> str:
    """The announce cycle `now` falls in: its UTC day, as stored."""
    return now.astimezone(UTC).date().isoformat()


def cycle_start(*, now: datetime) -> datetime:
    """When the announce cycle `now` falls in began (its UTC midnight)."""
    return datetime.combine(now.astimezone(UTC).date(), datetime.min.time(), tzinfo=UTC)


def _due(*, state: SourceState, cycle: str, now: datetime) -> bool:
    """Whether a watch is to be read now: its cycle is unread and no retry time is ahead."""
    return state.cycle != cycle and (state.retry_at is None or state.retry_at <= now)


def _url(*, watch: Watch, state: SourceState, bases: SourceBases, now: datetime) -> str:
    """Where the watch is read this time (a journal: works indexed since the last read)."""
    since = (state.read_at or now - CROSSREF_LOOKBACK).astimezone(UTC).date()
    return source_url(spec=watch.spec, bases=bases, since=since)


def _parsed(*, watch: Watch, body: Body) -> FeedRead:
    """The body read as the watch's kind of source. The readers are imported here: they load
    feedparser (60 ms), which a process with no watch due never needs."""
    from bot.sources.crossref import read_crossref
    from bot.sources.feeds import read_feed

    source = f"watch:{watch.id}"
    if watch.spec.kind == "crossref":
        return read_crossref(data=body.data, source=source)
    return read_feed(data=body.data, source=source)


def _passing(*, watch: Watch, candidates: Iterable[Candidate]) -> list[Candidate]:
    """The candidates the watch's keywords and authors let through."""
    spec = watch.spec
    return [
        c
        for c in candidates
        if match_filters(candidate=c, keywords=spec.keywords, authors=spec.authors) is not None
    ]


def _recent(
    *, watch: Watch, state: SourceState, candidates: Sequence[Candidate], now: datetime
) -> Sequence[Candidate]:
    """An arXiv search's candidates submitted within API_LOOKBACK of its last read (the API
    answers the newest matches of all time; a feed's candidates are all new). A day, not an
    instant: the API's dates are UTC, and a paper on the window's first day is kept."""
    if not searches_arxiv(spec=watch.spec):
        return candidates
    since = ((state.read_at or now) - API_LOOKBACK).astimezone(UTC).date()
    recent = [c for c in candidates if c.announced is None or c.announced >= since]
    if len(recent) >= API_RESULTS:  # a whole page is recent: older matches may be left out
        log.warning(
            "watch %d (%s): all %d papers of the arXiv search's page were submitted since %s; "
            "older ones of that time were not read (narrower keywords fit one page)",
            watch.id,
            watch.channel,
            len(recent),
            since.isoformat(),
        )
    return recent


def _failed(
    *, state: SourceState, reason: str, retry_in: float | None, now: datetime
) -> SourceState:
    """The state after a failure: counted, retried later, its first report still owed."""
    wait = timedelta(seconds=retry_in) if retry_in is not None else FIX_FIRST
    return replace(
        state,
        failures=state.failures + 1,
        retry_at=now + wait,
        failing_since=state.failing_since or now,
        last_error=reason[:500],
    )


def _kept(
    *,
    uow: UnitOfWork[Needs],
    watch: Watch,
    state: SourceState,
    candidates: Sequence[Candidate],
    now: datetime,
) -> int:
    """Keep a read's candidates and the watch's new state in one unit of work."""
    with uow() as store:
        kept = 0
        if candidates:
            kept = store.add_suggestions(
                channel=watch.channel, watch_id=watch.id, candidates=candidates, now=now
            )
        store.save_source_state(state=state)
    return kept


def _asked_again(*, watch: Watch, now: datetime) -> bool:
    """Whether a 304 means "not out yet, ask again": an arXiv category's listing on a mailing
    morning (UTC), before RETRY_UNTIL. Any other unchanged source is read for the cycle."""
    utc = now.astimezone(UTC)
    category = watch.spec.kind == "arxiv" and not searches_arxiv(spec=watch.spec)
    return category and utc.weekday() < MAILING_DAYS and utc.hour < RETRY_UNTIL


def _apply(
    *,
    uow: UnitOfWork[Needs],
    watch: Watch,
    state: SourceState,
    fetched: Fetched,
    read: FeedRead | None,
    cycle: str,
    now: datetime,
) -> tuple[int, SourceFailure | None]:
    """Write what the fetch (and `read`, its body parsed) means for one watch: suggestions
    kept, and a failure to report."""
    if isinstance(fetched, Failed):
        retry_in = fetched.retry_in if fetched.retry else None
        failing = _failed(state=state, reason=fetched.reason, retry_in=retry_in, now=now)
        return _report(uow=uow, watch=watch, state=failing, now=now)
    if isinstance(fetched, NotModified):
        again = _asked_again(watch=watch, now=now)
        unchanged = SourceState(
            watch_id=watch.id,
            cycle=state.cycle if again else cycle,
            etag=fetched.validators.etag,
            last_modified=fetched.validators.last_modified,
            read_at=state.read_at,
            retry_at=now + READ_AGAIN if again else None,
        )
        return _kept(uow=uow, watch=watch, state=unchanged, candidates=(), now=now), None
    if read is None or (not read.candidates and read.problems):  # not a feed, or broke at once
        why = "; ".join(read.problems) if read else "nothing read"
        failing = _failed(state=state, reason=why, retry_in=None, now=now)
        return _report(uow=uow, watch=watch, state=failing, now=now)
    whole = not read.cut_short
    done = SourceState(
        watch_id=watch.id,
        # A feed cut short is read again, whole, an hour later: its validators are not kept.
        cycle=cycle if whole else state.cycle,
        etag=fetched.validators.etag if whole else None,
        last_modified=fetched.validators.last_modified if whole else None,
        read_at=now,
        retry_at=None if whole else now + READ_AGAIN,
    )
    for problem in read.problems:
        log.warning("watch %d (%s): %s", watch.id, watch.channel, problem)
    candidates = [replace(c, source=f"watch:{watch.id}") for c in read.candidates]
    recent = _recent(watch=watch, state=state, candidates=candidates, now=now)
    passing = _passing(watch=watch, candidates=recent)
    return _kept(uow=uow, watch=watch, state=done, candidates=passing, now=now), None


def _report(
    *, uow: UnitOfWork[Needs], watch: Watch, state: SourceState, now: datetime
) -> tuple[int, SourceFailure | None]:
    """Keep a failing state; the failure to report when this run of failures was not yet."""
    owed = not state.reported
    _kept(uow=uow, watch=watch, state=replace(state, reported=True), candidates=(), now=now)
    log.warning("watch %d (%s) failed: %s", watch.id, watch.channel, state.last_error)
    return 0, SourceFailure(watch=watch, reason=state.last_error) if owed else None


def read_due(
    *,
    uow: UnitOfWork[Needs],
    fetcher: Fetcher,
    bases: SourceBases,
    now: datetime,
    channels: Iterable[ChannelKey] | None = None,
) -> ReadRound:
    """Read every watch whose cycle is due (of `channels`, None: every channel's), one request
    a source; what was kept and which failures are owed a report."""
    cycle = cycle_of(now=now)
    wanted = None if channels is None else set(channels)
    with uow(write=False) as store:
        watches = [w for w in store.watches(channel=None) if wanted is None or w.channel in wanted]
        states = {w.id: store.source_state(watch_id=w.id) for w in watches}
    groups: dict[str, list[Watch]] = {}
    for watch in watches:
        if _due(state=states[watch.id], cycle=cycle, now=now):
            url = _url(watch=watch, state=states[watch.id], bases=bases, now=now)
            groups.setdefault(url, []).append(watch)
    asked = kept = 0
    failures: list[SourceFailure] = []
    for url, group in groups.items():
        held = {(states[w.id].etag, states[w.id].last_modified) for w in group}
        etag, modified = held.pop() if len(held) == 1 else (None, None)
        fetched = fetcher.fetch(
            url=url,
            validators=Validators(etag=etag, last_modified=modified),
            failures=max(states[w.id].failures for w in group),
        )
        asked += 1
        # Parsed once, however many watches share the source.
        read = _parsed(watch=group[0], body=fetched) if isinstance(fetched, Body) else None
        for watch in group:
            count, failure = _apply(
                uow=uow,
                watch=watch,
                state=states[watch.id],
                fetched=fetched,
                read=read,
                cycle=cycle,
                now=now,
            )
            kept += count
            if failure is not None:
                failures.append(failure)
    return ReadRound(asked=asked, kept=kept, failures=tuple(failures))
