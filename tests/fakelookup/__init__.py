"""A local fake of the arXiv API and Crossref's REST API for the search-based enrichment tests.

Use: `with FakeScholar(records) as fake:` then point a client at `fake.arxiv_url` and
`fake.crossref_url`; FakeScholar() serves reading_list.CATALOGUE.
"""

from __future__ import annotations

from .records import Record
from .server import FakeScholar, Request

__all__ = ["FakeScholar", "Record", "Request"]
