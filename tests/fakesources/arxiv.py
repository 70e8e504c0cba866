"""FakeArxiv: rss.arxiv.org's announcement feeds and export.arxiv.org's API on one loopback port.

    with FakeArxiv(today=date(2024, 9, 2)) as arxiv:
        arxiv.calendar.announce(day=date(2024, 9, 2), papers=[...])
        client.get(arxiv.rss_url("cs.AI", "cs.LG"))      # /rss/cs.AI+cs.LG
        arxiv.set_day(date(2024, 9, 7))                  # a Saturday: the empty feed

The API part is tests/fakelookup's arXiv engine (search_query, id_list, paging, sortBy) over
every paper announced up to the served day, latest version of each.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from datetime import date
from urllib.parse import parse_qs, unquote

from tests.fakelookup import answers as lookup_answers
from tests.fakelookup.records import Record

from . import arxiv_bodies
from .announcements import AnnounceCalendar, Announcement, well_formed_category
from .conditional import conditional
from .server import Answer, SourceServer, text_answer

ARXIV_SPACING_S = 3.0  # arXiv's terms of use: no more than one request every three seconds
RSS_KIND = "application/rss+xml; charset=utf-8"
ATOM_KIND = "application/atom+xml; charset=utf-8"
BREAKS = ("truncated", "malformed", "html")
Render = Callable[..., str]  # arxiv_bodies.rss or arxiv_bodies.atom


class FakeArxiv(SourceServer):
    """The feeds at `rss_url(...)` / `atom_url(...)`, the API at `api_url`.

    State a test sets: `calendar` (listings and holidays), the served day (`set_day`, with
    `late=True` for a mailing not out yet), broken feeds (`break_next`), and the API's error
    feed (`api_error_next`). `spacing` > 0
    answers 429 with Retry-After to a request sooner than that after the last one served
    (ARXIV_SPACING_S is arXiv's own); `max_in_flight` tells whether a client ever opened two.
    """

    name = "arxiv"

    def __init__(
        self,
        *,
        today: date,
        calendar: AnnounceCalendar | None = None,
        spacing: float = 0.0,
        retry_after: int = 3,
    ) -> None:
        """Serve `today` from `calendar` (a new, empty one when None)."""
        super().__init__(spacing=spacing, retry_after=retry_after)
        self.calendar = calendar or AnnounceCalendar()
        self._state = threading.Lock()
        self._today = today
        self._late = False
        self._breaks: deque[str] = deque()
        self._api_errors: deque[str] = deque()

    def set_day(self, day: date, *, late: bool = False) -> None:
        """Serve `day`; `late`: its mailing is not out yet, so the feeds still show the previous
        mailing, byte for byte (same ETag), and the API does not know today's papers."""
        with self._state:
            self._today, self._late = day, late

    def break_next(self, how: str) -> None:
        """The next feed request gets a 200 whose body is `truncated` (cut inside the first
        item), `malformed` (not well-formed XML) or `html` (an error page, as a proxy sends)."""
        if how not in BREAKS:
            raise ValueError(f"how must be one of {BREAKS}, not {how!r}")
        with self._state:
            self._breaks.append(how)

    def api_error_next(self, *, summary: str) -> None:
        """The next API request is answered 200 with arXiv's error feed: one entry titled
        Error, `summary` its reason (as the API answers a query it cannot run)."""
        with self._state:
            self._api_errors.append(summary)

    def rss_url(self, *categories: str) -> str:
        """The RSS feed of `categories`, joined by "+" as arXiv's URLs join them."""
        return f"{self.url}/rss/{'+'.join(categories)}"

    def atom_url(self, *categories: str) -> str:
        """The Atom feed of `categories`."""
        return f"{self.url}/atom/{'+'.join(categories)}"

    @property
    def api_url(self) -> str:
        """The API's query endpoint (export.arxiv.org/api/query)."""
        return f"{self.url}/api/query"

    def feed_day(self) -> date | None:
        """The day whose mailing the feeds show now; None on a day without one (empty feed)."""
        with self._state:
            today, late = self._today, self._late
        if not self.calendar.announces_on(day=today):
            return None
        return self.calendar.previous_mailing(day=today) if late else today

    def answer(self, *, path: str, query: str, headers: dict[str, str]) -> Answer:
        """Route to the feeds or the API."""
        if path == "/api/query":
            return self._api(query=query)
        for prefix, render, kind in (
            ("/rss/", arxiv_bodies.rss, RSS_KIND),
            ("/atom/", arxiv_bodies.atom, ATOM_KIND),
        ):
            if path.startswith(prefix) and len(path) > len(prefix):
                text = self._feed(query=unquote(path[len(prefix) :]), render=render)
                return self._sent(text=text, kind=kind, headers=headers)
        return text_answer(status=404, text="Not Found")

    def _feed(self, *, query: str, render: Render) -> str:
        """The feed text for `query` (categories joined by "+") on the served day."""
        wanted = [part for part in query.split("+") if part]
        with self._state:
            today = self._today
        if not wanted or not all(well_formed_category(category=c) for c in wanted):
            title = arxiv_bodies.feed_error_title(query=query)
            return render(query=query, day=today, listing=[], title=title)
        day = self.feed_day()
        if day is None:
            return render(query=query, day=today, listing=[])
        return render(query=query, day=day, listing=self.calendar.listing(day=day, wanted=wanted))

    def _sent(self, *, text: str, kind: str, headers: dict[str, str]) -> Answer:
        """The feed as sent: broken when asked, else with validators (304 when they match)."""
        with self._state:
            how = self._breaks.popleft() if self._breaks else None
        if how == "truncated":
            return Answer(200, arxiv_bodies.truncated(body=text), {"Content-Type": kind})
        if how == "malformed":
            return Answer(200, arxiv_bodies.malformed(body=text), {"Content-Type": kind})
        if how == "html":
            page = "<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>"
            return text_answer(status=200, text=page, kind="text/html; charset=utf-8")
        day = self.feed_day()
        modified = arxiv_bodies.built_at(day=day) if day is not None else None
        return conditional(body=text.encode("utf-8"), kind=kind, modified=modified, headers=headers)

    def api_records(self) -> list[Record]:
        """What the API knows: each paper announced up to the feed day, at its latest version."""
        day = self.feed_day()
        with self._state:
            upto = day or self._today
        latest: dict[str, tuple[date, Announcement]] = {}
        for when, paper in self.calendar.papers_up_to(day=upto):
            first = latest.get(paper.arxiv_id, (when, paper))[0]
            latest[paper.arxiv_id] = (first, paper)
        return [_record(paper=paper, submitted=when) for when, paper in latest.values()]

    def _api(self, *, query: str) -> Answer:
        """export.arxiv.org/api/query through tests/fakelookup's engine (or an error asked for)."""
        with self._state:
            error = self._api_errors.popleft() if self._api_errors else None
        if error is not None:
            body = arxiv_bodies.api_error(query=query, summary=error)
            return Answer(200, body.encode("utf-8"), {"Content-Type": ATOM_KIND})
        params = parse_qs(query, keep_blank_values=True)
        found = lookup_answers.arxiv(records=self.api_records(), query=query, params=params)
        return Answer(found.status, found.body.encode("utf-8"), {"Content-Type": found.kind})


def _record(*, paper: Announcement, submitted: date) -> Record:
    """An announcement as the API engine holds it (published: the first announcement day)."""
    return Record(
        title=paper.title,
        authors=paper.authors,
        abstract=paper.abstract,
        arxiv_id=paper.versioned_id,
        doi=paper.doi,
        published=submitted.isoformat(),
        categories=paper.categories,
    )
