"""The sources scenario (issue 32) on any platform: two simulated weeks of arXiv announcements
read by the real reader, and the real sweep posting trays and daily papers, one scheduled
morning at a time; what happened each day is kept for the invariants.

The fortnight runs Monday 5 to Sunday 18 January 2026 in a channel posting at 09:00 Berlin
(08:00 UTC) on weekdays. arXiv mails Monday to Friday except one holiday; the readings hold a
cross-list of cs.LG into cs.CL (both watched, one watch each), a replacement of the paper the
channel read the Friday before, and titles written to hurt a chat (mentions, markup, emoji).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Protocol

from bot.db.database import Database
from bot.domain import ChannelKey, PaperDraft
from bot.ports.sources import Suggestion, Tray
from bot.runtime.wiring import Wiring
from bot.services import importing, sources_read
from bot.sources.watch_text import SourceBases
from tests.fakesources import AnnounceCalendar, Announcement, FakeArxiv
from tests.slack.conftest import FakeClock
from tests.sources.faketime import FakeTime, fetcher_on

FIRST = date(2026, 1, 5)  # a Monday
DAYS = 14
HOLIDAY = date(2026, 1, 14)  # a Wednesday arXiv does not mail (the channel still posts)
LATE = date(2026, 1, 8)  # a Thursday whose mailing is not out at the morning's read
BEFORE = date(2026, 1, 2)  # the Friday before: the channel reads READ_ID
MORNING = time(8, 5)  # UTC: five minutes after the channel's 09:00 in Berlin
MAILED = time(5, 5)  # UTC: the worker's look after arXiv's midnight Eastern mailing
LATER = timedelta(hours=1, minutes=5)  # the worker's look after a 304 (READ_AGAIN: an hour)
PER_DAY = 2  # the tray's size, set by command
READ_ID = "2512.04321"  # read before the fortnight; replaced on the second Monday
CROSS_ID = "2601.00777"  # cs.LG, cross-listed to cs.CL: in both watched feeds
READ_TITLE = "Pipelines of speculative decoders, read the Friday before"
WAIT = 10.0  # seconds a platform's answer may take
NINE, BERLIN, WEEKDAYS = time(9, 0), "Europe/Berlin", frozenset(range(1, 6))  # the schedule
HOSTILE = (
    "<!channel> @everyone **bold** _it_ `code` [x](https://evil.example) 🚀🔥",
    "<@U0ADMIN> <#C0001> <script>alert(1)</script> &amp; " + "long " * 40,
)
HOSTILE_MARKS = ("@everyone", "🚀", "alert(1)", "**bold**")  # what survives the feed's parsing
WATCHES = ("watch add arxiv cs.LG", "watch add arxiv cs.CL")
SETTINGS = (f"suggestions size {PER_DAY}", "suggestions autofill on")


def at_morning(*, day: date) -> datetime:
    """The scheduled morning of `day`, when the scenario reads and sweeps."""
    return datetime.combine(day, MORNING, tzinfo=UTC)


def at_mailing(*, day: date) -> datetime:
    """When the worker first reads `day`'s mailing (the admin set up an hour before)."""
    return datetime.combine(day, MAILED, tzinfo=UTC)


def fortnight() -> list[date]:
    """Each day of the two weeks."""
    return [FIRST + timedelta(days=n) for n in range(DAYS)]


def read_paper() -> PaperDraft:
    """The paper the channel read the Friday before the fortnight."""
    return PaperDraft(
        title=READ_TITLE,
        authors=("Ada Lovelace",),
        arxiv_id=READ_ID,
        url=f"https://arxiv.org/abs/{READ_ID}",
        origin="scenario",
    )


def import_read_paper(*, database: Database) -> None:
    """Queue the paper read before the fortnight (posted by the sweep of BEFORE)."""
    report = importing.import_drafts(
        uow=database, drafts=[read_paper()], now=at_morning(day=BEFORE) - timedelta(days=1)
    )
    assert report.added == 1


def _paper(*, day: date, n: int, category: str) -> Announcement:
    """The n-th new paper of a day's mailing, primary in `category`."""
    number = f"2601.{day.day:02d}{n:03d}"
    hostile = HOSTILE[(day.day + n) % 2] if n == 0 else ""
    return Announcement(
        arxiv_id=number,
        title=f"{hostile} Paper {number} on {category} pipelines".strip(),
        abstract=f"Scheduling micro-batches, day {day.isoformat()}, paper {n}.",
        authors=(f"Author {day.day}-{n}", "Grace Hopper"),
        categories=(category,),
    )


def calendar() -> AnnounceCalendar:
    """The fortnight's mailings: three cs.LG and one cs.CL paper each mailing day, the
    cross-list on the first Tuesday (replaced, as a replace-cross, on the second Thursday), and
    the replacement of the paper read before on the second Monday."""
    cal = AnnounceCalendar(holidays=[HOLIDAY])
    for day in fortnight():
        if not cal.announces_on(day=day):
            continue
        papers = [_paper(day=day, n=n, category="cs.LG") for n in range(3)]
        papers.append(_paper(day=day, n=3, category="cs.CL"))
        cal.announce(day=day, papers=papers)
    cross = Announcement(
        arxiv_id=CROSS_ID,
        title="Cross-listed: token trees for speculative decoding",
        abstract="Listed in cs.LG and cross-listed in cs.CL.",
        authors=("Alan Turing",),
        categories=("cs.LG", "cs.CL"),
    )
    cal.announce(day=FIRST + timedelta(days=1), papers=[cross])
    cal.announce(
        day=FIRST + timedelta(days=10),
        papers=[replace(cross, version=2, replacement=True)],
    )
    replaced = Announcement(
        arxiv_id=READ_ID,
        title=READ_TITLE + " (v2)",
        abstract="A second version of a paper the group read.",
        authors=("Ada Lovelace",),
        categories=("cs.LG",),
        version=2,
        replacement=True,
    )
    cal.announce(day=FIRST + timedelta(days=7), papers=[replaced])
    return cal


class Platform(Protocol):
    """One platform's bot as the scenario drives it: its wiring, clock and archive, and a
    person typing /paperclub commands into the watched channel."""

    wiring: Wiring
    clock: FakeClock
    database: Database
    key: ChannelKey

    def command(self, text: str) -> str:
        """Run `/paperclub TEXT` as the channel's admin; the words of the answer."""
        ...

    def shown(self, *, message_id: str) -> str:
        """The text of one of the bot's messages in the channel, as people read it."""
        ...

    def click(self, *, message_id: str, suggestion_id: int, label: str) -> str:
        """A member clicks the button labelled `label` of a suggestion on the tray message;
        the answer the clicker reads."""
        ...

    def offered(self, *, message_id: str) -> set[str] | None:
        """The suggestion numbers whose buttons the message shows now (None: a platform that
        does not redraw a message in place)."""
        ...

    def harmful(self, *, message_id: str, titles: list[str]) -> list[str]:
        """What is wrong with how a message shows data: pings, and `titles` not readable as
        they were announced (empty: nothing)."""
        ...


@dataclass
class Day:
    """What one morning did: its tray (None: no tray), and the post of the day."""

    day: date
    tray: Tray | None
    tray_items: list[Suggestion]
    posted_arxiv_id: str | None
    read_before: frozenset[str]


@dataclass
class Scenario:
    """The fortnight on one platform: the fake arXiv, a fetcher on a fake clock, and each day."""

    platform: Platform
    arxiv: FakeArxiv
    fetch_time: FakeTime = field(default_factory=FakeTime)  # the fetcher's spacing clock
    read_at: time = MAILED  # UTC: when the worker first reads each day (MORNING: at the sweep)
    days: list[Day] = field(default_factory=list)

    @property
    def bases(self) -> SourceBases:
        """Where the reader asks: the fake arXiv."""
        return SourceBases(arxiv_feed=self.arxiv.url, crossref=self.arxiv.url)

    def morning(self, *, day: date) -> Day:
        """Serve `day`'s mailing and read the due watches as the worker would after it, then
        the sweep at the channel's post time. On LATE the mailing is not out at first: the read
        is a 304, and the worker's look an hour later finds it."""
        self.platform.clock.at = datetime.combine(day, self.read_at, tzinfo=UTC)
        self.arxiv.set_day(day, late=day == LATE)
        read_before = frozenset(self.read_ids())
        self.read()
        if day == LATE:
            self.platform.clock.at += LATER
            self.arxiv.set_day(day)
            self.read()
        self.platform.clock.at = at_morning(day=day)
        self.platform.wiring.sweep()
        with self.platform.database(write=False) as store:
            tray = store.tray_on(channel=self.platform.key, day=day)
            items = [
                s
                for s in (
                    store.suggestion(channel=self.platform.key, suggestion_id=i)
                    for i in (tray.suggestion_ids if tray else ())
                )
                if s is not None
            ]
        today = Day(
            day=day,
            tray=tray,
            tray_items=items,
            posted_arxiv_id=self.posted_on(day=day),
            read_before=read_before,
        )
        self.days.append(today)
        return today

    def read(self) -> None:
        """One round of the reader, as the worker runs it, on a fetcher spaced as for arXiv
        (3 s, on the fake clock: no real time)."""
        fetcher = fetcher_on(self.fetch_time, gaps={"127.0.0.1": 3.0})
        done = sources_read.read_due(
            uow=self.platform.database,
            fetcher=fetcher,
            bases=self.bases,
            now=self.platform.clock.now(),
        )
        assert done.failures == (), done.failures

    def posted_on(self, *, day: date) -> str | None:
        """The arXiv id of the paper posted on `day` ("" for one without), None: no post."""
        with self.platform.database(write=False) as store:
            channel = store.channel(key=self.platform.key)
            assert channel is not None
            post = store.post_on(channel=channel, local_date=day)
            if post is None or post.message_id is None:
                return None
            paper = store.paper(paper_id=post.paper_id)
        assert paper is not None
        return paper.arxiv_id or ""

    def read_ids(self) -> Iterator[str]:
        """The arXiv ids of every paper the channel was shown in a daily post so far."""
        for when in [BEFORE, *[d.day for d in self.days]]:
            found = self.posted_on(day=when)
            if found:
                yield found

    def all_suggestions(self) -> list[Suggestion]:
        """Every suggestion of the channel, in any state."""
        with self.platform.database(write=False) as store:
            return store.suggestions(
                channel=self.platform.key,
                states=("waiting", "shown", "promoted", "hidden", "passed"),
                limit=10_000,
            )
