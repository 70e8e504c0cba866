"""Suggestions for the tray tests of every platform: found by a watch through the Store, and
the day's tray chosen and posted by the sweep's own post_due_trays."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time

from bot.db.database import Database
from bot.domain import ChannelKey, PaperDraft, Schedule
from bot.ports import Chat, UnitOfWork
from bot.ports.sources import WatchSpec
from bot.services import importing, trays
from bot.services.suggestions import Needs
from bot.sources.candidates import Candidate

WATCH = WatchSpec(kind="arxiv", target="cs.LG")
DEFAULTS = Schedule(post_time=time(9, 0), timezone="Europe/Berlin", weekdays=frozenset(range(1, 6)))
HOSTILE = (
    "<!channel> @everyone @here <@U0ADMIN> <#C0001> **bold** `code` ||spoiler|| "
    "[click](https://evil.example) :tada: 🧪 " + "x" * 10_000
)


def load_short(database: Database) -> int:
    """Two papers instead of the sample list, so that /paperclub queue (five titles) still
    shows the paper a suggestion added at its end; how many were added."""
    drafts = [
        PaperDraft(title=f"Queued paper {n}", abstract=f"The abstract of queued paper {n}.")
        for n in (1, 2)
    ]
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return importing.import_drafts(uow=database, drafts=drafts, now=now).added


def candidate(*, title: str, number: int) -> Candidate:
    """An arXiv announcement the sample reading list does not hold."""
    arxiv_id = f"2601.{number:05d}"
    return Candidate(
        title=title,
        source="arxiv",
        authors=("Ada Lovelace", "Grace Hopper"),
        abstract=f"What {title} is about, in a few words.",
        arxiv_id=arxiv_id,
        url=f"https://arxiv.org/abs/{arxiv_id}",
        announced=date(2026, 1, 4),
    )


def suggest(
    *,
    uow: UnitOfWork[Needs],
    channel: ChannelKey,
    titles: Sequence[str],
    now: datetime,
    first: int = 1,
) -> None:
    """A watch in `channel` that found these titles (numbered from `first`), waiting."""
    with uow() as store:
        watch = store.add_watch(channel=channel, spec=WATCH, user="U0ADMIN", now=now)
        found = [candidate(title=t, number=first + n) for n, t in enumerate(titles)]
        assert store.add_suggestions(channel=channel, watch_id=watch, candidates=found, now=now)


def post_trays(*, uow: UnitOfWork[Needs], chat: Chat, platform: str, now: datetime) -> int:
    """What the minute sweep does for the trays: how many went out."""
    poster = trays.TrayPoster(
        uow=uow, chat=chat, platform=platform, owner="tests:1:a", owner_alive=lambda _o: True
    )
    return trays.post_due_trays(poster=poster, now=now, defaults=DEFAULTS)


def numbers(*, uow: UnitOfWork[Needs], channel: ChannelKey) -> dict[str, int]:
    """Title -> suggestion number, of the channel's suggestions shown in a tray."""
    with uow(write=False) as store:
        shown = store.suggestions(
            channel=channel, states=("shown", "promoted", "hidden"), limit=100
        )
    return {s.candidate.title: s.id for s in shown}


def state_of(*, uow: UnitOfWork[Needs], channel: ChannelKey, number: int) -> str | None:
    """What became of one suggestion of the channel (None: not the channel's)."""
    with uow(write=False) as store:
        found = store.suggestion(channel=channel, suggestion_id=number)
    return found.state if found is not None else None
