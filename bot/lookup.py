"""Paper metadata from the arXiv API and Crossref, over plain HTTP with a short timeout.

Implements ports.PaperLookup. Without network access every call fails fast with
LookupFailed, and `/paperclub add` keeps the paper with what it already knows.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import replace
from urllib.parse import quote, urlencode

from bot import ingest
from bot.domain import PaperDraft
from bot.ingest.crossref import crossref_work
from bot.ports import LookupFailed

USER_AGENT = "PaperClub/0.1 (reading-group bot; https://github.com/)"


class HttpLookup:
    """arXiv ids through the arXiv API, DOIs through Crossref; base URLs are settings."""

    def __init__(self, *, arxiv_url: str, crossref_url: str, timeout: float) -> None:
        """Where to ask and how long to wait."""
        self.arxiv_url = arxiv_url
        self.crossref_url = crossref_url.rstrip("/")
        self.timeout = timeout

    def _get(self, *, url: str, service: str) -> bytes | None:
        """The body of a GET; None for a 404; LookupFailed for anything else that goes wrong."""
        # Settings only admit http(s) base URLs, so no file: or custom scheme gets here.
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})  # noqa: S310
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310
                return bytes(response.read(2_000_000))
        except urllib.error.HTTPError as exc:
            exc.close()  # it holds the connection: unclosed, its socket waits for the GC
            if exc.code == 404:
                return None
            raise LookupFailed(f"{service} answered HTTP {exc.code}") from None
        except TimeoutError:
            raise LookupFailed(f"{service} did not answer within {self.timeout:g} s") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            why = getattr(reason, "strerror", None) or str(reason)
            raise LookupFailed(f"{service} could not be reached: {why.lower()}") from None

    def by_arxiv_id(self, *, arxiv_id: str) -> PaperDraft | None:
        """Title, authors and abstract of an arXiv paper, or None when arXiv has no such id."""
        query = urlencode({"id_list": arxiv_id, "max_results": "1"})
        body = self._get(url=f"{self.arxiv_url}?{query}", service="arXiv")
        if body is None:
            return None
        drafts, _ = ingest.parse(path="arxiv-api", text=body.decode("utf-8", "replace"), fmt="atom")
        # The arXiv API answers an unknown id with a feed whose only entry is titled "Error".
        found = [d for d in drafts if d.arxiv_id == arxiv_id and d.title.lower() != "error"]
        return found[0] if found else None

    def by_doi(self, *, doi: str) -> PaperDraft | None:
        """Title, authors and abstract of a DOI from Crossref, or None when it has no record."""
        body = self._get(
            url=f"{self.crossref_url}/works/{quote(doi, safe='/')}", service="Crossref"
        )
        if body is None:
            return None
        try:
            message = json.loads(body)["message"]
        except (ValueError, KeyError, TypeError):
            raise LookupFailed("Crossref answered something that is not a work record") from None
        found = crossref_work(work={**message, "DOI": message.get("DOI") or doi})
        return replace(found, doi=doi) if found is not None else None
