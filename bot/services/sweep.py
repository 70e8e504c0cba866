"""What the scheduler's jobs do: a channel's post when its time comes, and the minute sweep
(whatever is due and not posted yet, weekly recaps, housekeeping, then kicking enrichment and
embedding on their own threads). The wiring only builds this and hands its methods to the
scheduler."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Protocol

from bot.domain import ChannelKey, Schedule
from bot.ports import ArchiveUnavailable, Clock, Store, UnitOfWork
from bot.ports.session_events import SessionEvents
from bot.services import (
    housekeeping,
    names,
    posting,
    recap,
    session_events,
    session_notices,
    trays,
)
from bot.services.posting import Poster

log = logging.getLogger("paperclub")
_QUIET = {posting.Outcome.NOT_DUE, posting.Outcome.ALREADY, posting.Outcome.PAUSED}


class Enrichment(Protocol):
    """Completing queued papers from arXiv and Crossref, on a thread of its own."""

    def prepare(self, *, now: datetime) -> None:
        """Complete the next papers of channels due now or soon, before they are posted."""
        ...

    def kick(self) -> None:
        """Try papers never tried (an add, an import) soon."""
        ...


class Embedding(Protocol):
    """Giving papers their vectors, on a thread of its own (nothing without the extra)."""

    def kick(self, *, first: bool = False) -> None:
        """Run a pass soon (not after the `first` sweep: a start loads no model)."""
        ...


class Sweep:
    """The scheduler's jobs on the platforms' posters."""

    def __init__(
        self,
        *,
        uow: UnitOfWork[Store],
        clock: Clock,
        posters: Mapping[str, Poster],
        enrichment: Enrichment,
        embedding: Embedding,
        beat: Callable[[], None],
        defaults: Schedule,
        scorer_for: trays.ScorerFor | None = None,
    ) -> None:
        """`posters`: one per platform of this process (read at each run: filled as they are
        built); `beat`: tells the health check the worker is alive; `defaults`: when a channel
        that watches sources but has no daily post gets its tray; `scorer_for`: the taste
        model that ranks suggestions (None: the keyword path alone; the sources' thread warms
        it, so no post here waits for the model)."""
        self.uow, self.clock, self.posters, self.defaults = uow, clock, posters, defaults
        self.scorer_for = scorer_for
        self.enrichment, self.embedding, self.beat = enrichment, embedding, beat
        self.caught_up = False
        self.refusals = session_events.Refusals()  # what platforms refused of session events

    def on_channel(self, key: ChannelKey) -> None:
        """A channel's post time came."""
        poster = self.posters.get(key.platform)
        if poster is not None:
            self.enrichment.prepare(now=self.clock.now())
            self._suggest(poster=poster, trays_too=False)
            result = posting.post_today(poster=poster, channel=key, now=self.clock.now())
            log_result(channel=key, result=result)

    def sweep(self) -> dict[ChannelKey, posting.PostResult]:
        """Post whatever is due and not posted yet on every platform, then due weekly recaps."""
        results: dict[ChannelKey, posting.PostResult] = {}
        # The next papers of channels due now or soon first: a post shows what was found.
        self.enrichment.prepare(now=self.clock.now())
        for poster in self.posters.values():
            self._suggest(poster=poster, trays_too=False)  # a queue run empty fills first
            results.update(posting.post_due(poster=poster, now=self.clock.now()))
            self._suggest(poster=poster, trays_too=True)
            self._remind(poster=poster)
            self._publish_events(poster=poster)
            recap.send_due_recaps(poster=poster, now=self.clock.now())
            # Names for the web archive: after the posts, so a slow platform delays none.
            names.learn(
                uow=self.uow, chat=poster.chat, platform=poster.platform, now=self.clock.now()
            )
            self.beat()  # a long sweep is the worker at work, not a stuck one
        housekeeping.forget_old_events(uow=self.uow, now=self.clock.now())
        self.enrichment.kick()  # papers never tried (an add, an import), on its own thread
        return results

    def _suggest(self, *, poster: Poster, trays_too: bool) -> None:
        """Let the top suggestion fill queues run low, then (`trays_too`) post the trays due;
        a failure is logged, and the posts and recaps go on."""
        now, chat, platform = self.clock.now(), poster.chat, poster.platform
        scorer_for = self.scorer_for or trays.no_scorer
        try:
            if not trays_too:
                trays.autofill_low_queues(
                    uow=self.uow, chat=chat, platform=platform, now=now, scorer_for=scorer_for
                )
                return
            trays.post_due_trays(
                poster=trays.TrayPoster(
                    uow=self.uow,
                    chat=chat,
                    platform=platform,
                    owner=poster.owner,
                    owner_alive=poster.owner_alive,
                ),
                now=now,
                defaults=self.defaults,
                scorer_for=scorer_for,
            )
        except ArchiveUnavailable:
            log.warning("suggestions wait: the archive is unavailable")
        except Exception:
            log.exception("suggestions for %s failed", platform)

    def _remind(self, *, poster: Poster) -> None:
        """Send the sessions' messages that are due (reminders, polls and their results); a
        failure is logged, and the rest of the sweep goes on."""
        sessions = session_notices.SessionSender(
            uow=self.uow,
            chat=poster.chat,
            platform=poster.platform,
            owner=poster.owner,
            owner_alive=poster.owner_alive,
        )
        try:
            session_notices.send_due_notices(sessions=sessions, now=self.clock.now())
        except ArchiveUnavailable:
            log.warning("session messages wait: the archive is unavailable")
        except Exception:
            log.exception("session messages for %s failed", poster.platform)

    def _publish_events(self, *, poster: Poster) -> None:
        """Bring the sessions' platform events in step, where the platform keeps them
        (Discord); after the reminders, so nothing here delays or breaks one."""
        if not isinstance(poster.chat, SessionEvents):
            return
        publisher = session_events.EventPublisher(
            uow=self.uow, events=poster.chat, platform=poster.platform, refusals=self.refusals
        )
        try:
            session_events.publish_due(publisher=publisher, now=self.clock.now())
        except ArchiveUnavailable:
            log.warning("session events wait: the archive is unavailable")
        except Exception:
            log.exception("session events for %s failed", poster.platform)

    def on_sweep(self) -> None:
        """The minute sweep, with every attempt logged; the first one (the catch-up after a
        start) says when it is done, so an operator (or a test) knows nothing more is coming."""
        results = self.sweep()
        for key, result in results.items():
            log_result(channel=key, result=result)
        self.embedding.kick(first=not self.caught_up)  # papers added since
        if not self.caught_up:
            self.caught_up = True
            log.info("caught up: %d channel(s) checked for today's post", len(results))


def log_result(*, channel: ChannelKey, result: posting.PostResult) -> None:
    """Log what a post attempt did, quietly when nothing was due."""
    level = logging.DEBUG if result.outcome in _QUIET else logging.INFO
    log.log(level, "channel %s: %s", channel, result.outcome.value)
