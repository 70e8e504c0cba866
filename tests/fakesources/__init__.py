"""Local fakes of the sources issue 32 reads: arXiv's announcement feeds and API, any RSS or
Atom feed, and Crossref's journal works. Each is a context manager serving 127.0.0.1:0 with
`.url`, the state a test sets, and `.requests` (every request, headers included).

Real captures of each format, with their sources, are in samples/ (see samples/README.md).
"""

from __future__ import annotations

from .announcements import AnnounceCalendar, Announcement
from .arxiv import ARXIV_SPACING_S, FakeArxiv
from .crossref import FakeCrossref
from .crossref_works import CrossrefWork
from .feeds import ATOM_KIND, RDF_KIND, RSS_KIND, FakeFeeds
from .server import Answer, Hold, Request

__all__ = [
    "ARXIV_SPACING_S",
    "ATOM_KIND",
    "RDF_KIND",
    "RSS_KIND",
    "AnnounceCalendar",
    "Announcement",
    "Answer",
    "CrossrefWork",
    "FakeArxiv",
    "FakeCrossref",
    "FakeFeeds",
    "Hold",
    "Request",
]
