"""The Store's part for sources: what each channel watches, how far each watch was read, the
candidates it found (suggestions), and the day's tray of them.

A suggestion belongs to one channel: promoting it queues it there, hiding it hides it there.
Its dedupe keys (bot/sources/candidates.candidate_keys) are unique per channel, so a paper
announced twice (a cross-list, two watches, a fetch repeated after a crash) is one suggestion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, Protocol

from bot.domain import ChannelKey
from bot.sources.candidates import Candidate
from bot.sources.rank import GroupHistory, Reason

WatchKind = Literal["arxiv", "feed", "crossref"]
# waiting: found, never in a tray; shown: in a tray, undecided; promoted: queued by someone;
# hidden: "Not for us"; passed: shown on an earlier day and left undecided (never shown again).
SuggestionState = Literal["waiting", "shown", "promoted", "hidden", "passed"]


@dataclass(frozen=True, slots=True)
class WatchSpec:
    """What a watch follows. `target`: arXiv categories joined by "+" ("cs.LG+cs.CL"), a
    feed's http(s) URL, or a journal's ISSN ("1234-5678"); keywords match title or abstract,
    authors any author (bot/sources/keywords.match_filters); none of either: everything."""

    kind: WatchKind
    target: str
    keywords: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Watch:
    """A channel's watch (`number`: its id, what `watch remove` takes)."""

    id: int
    channel: ChannelKey
    spec: WatchSpec
    added_by: str
    added_at: datetime


@dataclass(frozen=True, slots=True)
class SourceState:
    """How far a watch's source was read, and how it is failing.

    `cycle`: the announce cycle last read in full (the source's own day, "2024-09-02"); the
    validators are the last answer's ETag and Last-Modified (for a conditional GET);
    `failures` in a row, `retry_at` not before then; `failing_since` the first failure of this
    run of them, `reported` whether the channel's admins were told of it (once per run)."""

    watch_id: int
    cycle: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    read_at: datetime | None = None
    failures: int = 0
    retry_at: datetime | None = None
    failing_since: datetime | None = None
    last_error: str = ""
    reported: bool = False


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A candidate a channel's watch found, and what became of it. `reason` and `score` are
    the ranking's when it was shown (None before); `shown_on` the channel's local day of its
    tray; `paper_id` the paper promoting it queued."""

    id: int
    channel: ChannelKey
    watch_id: int | None
    candidate: Candidate
    found_at: datetime
    state: SuggestionState
    reason: Reason | None = None
    score: float | None = None
    shown_on: date | None = None
    decided_by: str | None = None
    decided_at: datetime | None = None
    paper_id: int | None = None


@dataclass(frozen=True, slots=True)
class Pick:
    """One suggestion chosen for a tray, with why and how well it ranked."""

    suggestion_id: int
    reason: Reason
    score: float


@dataclass(frozen=True, slots=True)
class Tray:
    """A channel's tray of one local day: its suggestions in ranked order, and the message
    that shows them once it is posted (None until then: a crash in between posts it at the
    next sweep)."""

    id: int
    channel: ChannelKey
    day: date
    suggestion_ids: tuple[int, ...]
    message_id: str | None
    opened_at: datetime
    # When the platform last refused it outright (nothing was posted), if it did.
    refused_at: datetime | None = None
    # The process posting it, and when it last renewed that claim.
    claimed_by: str | None = None
    claimed_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class TraySettings:
    """A channel's admin settings: how many suggestions a tray holds (0: no tray), and whether
    the top suggestion fills the queue by itself when fewer than `autofill_below` papers wait."""

    per_day: int = 3
    autofill: bool = False
    autofill_below: int = 1


class SourcesStore(Protocol):
    """Watches, their read state, suggestions and trays, inside one unit of work."""

    def add_watch(self, *, channel: ChannelKey, spec: WatchSpec, user: str, now: datetime) -> int:
        """Add a watch to a channel (followed or not: its row is made if missing); its id. The
        same spec twice in a channel is one watch: the existing one's id."""
        ...

    def remove_watch(self, *, channel: ChannelKey, watch_id: int, now: datetime) -> Watch | None:
        """Stop a channel's watch (its suggestions stay); the watch, None when the channel has
        no live watch with this id (another channel's is never touched)."""
        ...

    def watches(self, *, channel: ChannelKey | None) -> list[Watch]:
        """A channel's live watches (None: every channel's), by id."""
        ...

    def source_state(self, *, watch_id: int) -> SourceState:
        """How far a watch was read (a fresh SourceState for one never read)."""
        ...

    def save_source_state(self, *, state: SourceState) -> None:
        """Keep a watch's read state (replacing the last)."""
        ...

    def add_suggestions(
        self,
        *,
        channel: ChannelKey,
        watch_id: int | None,
        candidates: Sequence[Candidate],
        now: datetime,
    ) -> int:
        """Keep the candidates the channel does not know yet, as waiting suggestions: known
        is any key (candidate_keys) of a suggestion of the channel in any state, or of a paper
        of its workspace (known_keys, papers_by_title). A candidate sharing a key with one
        kept earlier in the same call is a duplicate too. `watch_id`: the watch that found
        them, None for a source that is no watch (a Zotero collection). How many were kept."""
        ...

    def suggestions(
        self, *, channel: ChannelKey, states: Sequence[SuggestionState], limit: int
    ) -> list[Suggestion]:
        """The channel's suggestions in these states, newest found first (ties by id)."""
        ...

    def count_suggestions(
        self, *, channel: ChannelKey, states: Sequence[SuggestionState], since: datetime
    ) -> int:
        """How many of the channel's suggestions in these states were found since `since`."""
        ...

    def suggestion(self, *, channel: ChannelKey, suggestion_id: int) -> Suggestion | None:
        """One of the channel's suggestions (None for another channel's or an unknown id)."""
        ...

    def decide_suggestion(
        self,
        *,
        suggestion_id: int,
        state: Literal["promoted", "hidden"],
        user: str,
        now: datetime,
        paper_id: int | None = None,
    ) -> bool:
        """Promote or hide a suggestion still waiting, shown or passed; False when it was
        decided already (a second click, another replica's)."""
        ...

    def group_history(self, *, channel: ChannelKey, limit: int) -> GroupHistory:
        """What the channel's group did, for the ranking: its `limit` latest posted papers
        with their votes and live comment counts, and the candidates it promoted and hid."""
        ...

    def tray_on(self, *, channel: ChannelKey, day: date) -> Tray | None:
        """The channel's tray of this local day, if it was opened."""
        ...

    def open_tray(
        self, *, channel: ChannelKey, day: date, picks: Sequence[Pick], now: datetime
    ) -> Tray | None:
        """Open the day's tray with these picks (marked shown with their reason and score;
        shown suggestions of earlier days become passed); None when the day's tray exists
        already (another replica, a second sweep)."""
        ...

    def tray_posted(self, *, tray_id: int, message_id: str) -> None:
        """Note the message that shows the tray."""
        ...

    def claim_tray(self, *, tray_id: int, owner: str, now: datetime, holder: str | None) -> bool:
        """Take or renew the claim on an unposted tray for `owner`, only while `holder` still
        holds it (None: nobody does); whether `owner` holds it now."""
        ...

    def tray_refused(self, *, tray_id: int, at: datetime | None) -> None:
        """Note that the platform refused the tray outright at `at` (None: a new try begins,
        whose outcome is not known until it is noted)."""
        ...

    def unposted_trays(self, *, platform: str, since: date) -> list[Tray]:
        """Trays opened on or after `since` whose message was never noted, oldest first."""
        ...

    def tray_of(self, *, suggestion_id: int) -> Tray | None:
        """The latest tray that held this suggestion."""
        ...

    def tray_settings(self, *, channel: ChannelKey) -> TraySettings:
        """The channel's tray settings (the defaults when never set)."""
        ...

    def save_tray_settings(self, *, channel: ChannelKey, settings: TraySettings) -> None:
        """Keep the channel's tray settings (its row is made if missing)."""
        ...

    def channels_watching(self, *, platform: str) -> list[ChannelKey]:
        """The platform's channels with at least one live watch."""
        ...
