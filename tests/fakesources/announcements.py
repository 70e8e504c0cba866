"""arXiv's announcement model: what each day's mailing holds, and which days have none.

arXiv announces Sunday to Thursday evenings (Eastern time); the feeds at rss.arxiv.org carry
the latest mailing from midnight Eastern, Monday to Friday. On Saturdays, Sundays and arXiv
holidays the feed is empty (its skipDays say so). A paper is announced once as `new` in its
primary category and as `cross` in each other one; a later version is a `replace` there and a
`replace-cross` elsewhere (arXiv's RSS and Atom specifications, arxiv-docs source/help).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

LICENCE = "http://creativecommons.org/licenses/by/4.0/"
_CATEGORY_RE = re.compile(r"^[a-z]+(?:-[a-z]+)*(?:\.[A-Za-z]+(?:-[A-Za-z]+)*)?$", re.IGNORECASE)


def well_formed_category(*, category: str) -> bool:
    """Whether `category` has the shape of an archive (cs) or subject class (cs.AI, q-bio.NC)."""
    return bool(_CATEGORY_RE.match(category))


def _covers(*, wanted: str, category: str) -> bool:
    """Whether a requested category names `category`: itself, or its archive (cs for cs.AI).
    Feed URLs are case-insensitive (arXiv's own example is /rss/cs.ai+q-bio.NC)."""
    wanted, category = wanted.lower(), category.lower()
    return category == wanted or category.startswith(wanted + ".")


@dataclass(frozen=True)
class Announcement:
    """One paper in one day's mailing.

    `categories`: primary first. `replacement`: this version replaces one announced before
    (its `version` is then above 1). Titles and abstracts are any text: the feeds escape them.
    """

    arxiv_id: str
    title: str
    abstract: str
    authors: tuple[str, ...]
    categories: tuple[str, ...]
    version: int = 1
    replacement: bool = False
    rights: str = LICENCE
    doi: str | None = None
    journal_ref: str | None = None

    @property
    def versioned_id(self) -> str:
        """The id as the feeds' guid and description carry it: 2508.13167v1."""
        return f"{self.arxiv_id}v{self.version}"

    def announce_type(self, *, wanted: Sequence[str]) -> str | None:
        """new, cross, replace or replace-cross in a feed of the `wanted` categories; None when
        none of them lists the paper."""
        primary, others = self.categories[0], self.categories[1:]
        if any(_covers(wanted=w, category=primary) for w in wanted):
            return "replace" if self.replacement else "new"
        if any(_covers(wanted=w, category=c) for w in wanted for c in others):
            return "replace-cross" if self.replacement else "cross"
        return None


_ORDER = {"new": 0, "cross": 1, "replace": 2, "replace-cross": 3}


class AnnounceCalendar:
    """The mailings a test sets, day by day, and arXiv's days without one.

    Weekends never have a mailing; `holidays` are the extra days arXiv skips. A listing set on
    a day without a mailing is refused: arXiv would not announce it then.
    """

    def __init__(self, *, holidays: Iterable[date] = ()) -> None:
        """No listings yet."""
        self.holidays = set(holidays)
        self._listings: dict[date, list[Announcement]] = {}

    def announces_on(self, *, day: date) -> bool:
        """Whether arXiv mails a listing on `day` (Monday to Friday, not a holiday)."""
        return day.weekday() < 5 and day not in self.holidays

    def announce(self, *, day: date, papers: Iterable[Announcement]) -> None:
        """Add `papers` to the listing of `day`."""
        if not self.announces_on(day=day):
            raise ValueError(f"arXiv has no mailing on {day:%A %Y-%m-%d}")
        self._listings.setdefault(day, []).extend(papers)

    def listing(self, *, day: date, wanted: Sequence[str]) -> list[tuple[Announcement, str]]:
        """The papers the feed of `wanted` categories shows for `day`, each with its announce
        type, each once however many wanted categories list it: new, then cross, then
        replacements, as arXiv's listing pages order them."""
        shown: dict[str, tuple[Announcement, str]] = {}
        for paper in self._listings.get(day, []):
            kind = paper.announce_type(wanted=wanted)
            if kind is not None and paper.versioned_id not in shown:
                shown[paper.versioned_id] = (paper, kind)
        return sorted(shown.values(), key=lambda pair: _ORDER[pair[1]])

    def previous_mailing(self, *, day: date) -> date | None:
        """The last day before `day` with a mailing (weekends and holidays skipped), within
        a fortnight; None when there is none."""
        for back in range(1, 15):
            earlier = day - timedelta(days=back)
            if self.announces_on(day=earlier):
                return earlier
        return None

    def papers_up_to(self, *, day: date) -> list[tuple[date, Announcement]]:
        """Every announcement on or before `day` with its day, oldest first (the API's view)."""
        return [
            (when, paper)
            for when in sorted(self._listings)
            if when <= day
            for paper in self._listings[when]
        ]
