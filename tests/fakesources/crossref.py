"""FakeCrossref: api.crossref.org's /journals/{issn}/works with filters, rows, offset, deep
paging and the polite pool's headers.

    with FakeCrossref() as crossref:
        crossref.add(CrossrefWork(doi=..., issn="1932-6203", ...))
        client.get(crossref.url + "/journals/1932-6203/works?filter=from-index-date:2024-09-01"
                   "&rows=100&cursor=*&mailto=club@example.org")

Deep paging as the real service does it (see samples/): `cursor=*` opens a cursor whose
next-cursor stays the same token page after page; each 200 moves it on, and a page with no
items ends it. A token it never issued is a 400. A mailto parameter or a "mailto:" in the
User-Agent puts a request in the polite pool (x-api-pool: polite), as Crossref's etiquette says.
"""

from __future__ import annotations

import base64
import itertools
import threading
from urllib.parse import parse_qs

from . import crossref_works as works_body
from .crossref_works import CrossrefWork
from .server import Answer, SourceServer, text_answer

JSON_KIND = "application/json"
MAX_ROWS = 1000


class FakeCrossref(SourceServer):
    """Works by journal; `cursors` says how far each issued cursor has gone."""

    name = "crossref"

    def __init__(self, *, spacing: float = 0.0, retry_after: int = 1) -> None:
        """No works yet."""
        super().__init__(spacing=spacing, retry_after=retry_after)
        self._works: list[CrossrefWork] = []
        self._state = threading.Lock()
        self.cursors: dict[str, int] = {}
        self._tokens = itertools.count(1)

    def add(self, *works: CrossrefWork) -> None:
        """Make works known; requests arriving later see them."""
        with self._state:
            self._works.extend(works)

    def journal_url(self, issn: str) -> str:
        """/journals/{issn}/works of the running fake."""
        return f"{self.url}/journals/{issn}/works"

    def answer(self, *, path: str, query: str, headers: dict[str, str]) -> Answer:
        """/journals/{issn}/works, else 404."""
        parts = path.strip("/").split("/")
        if len(parts) != 3 or parts[0] != "journals" or parts[2] != "works":
            return self._with_pool(answer=_not_found(), query=query, headers=headers)
        with self._state:
            journal = [w for w in self._works if parts[1] in (w.issn, *w.extra_issns)]
        answer = _not_found() if not journal else self._page(works=journal, query=query)
        return self._with_pool(answer=answer, query=query, headers=headers)

    def _page(self, *, works: list[CrossrefWork], query: str) -> Answer:
        """One page of a journal's works."""
        params = parse_qs(query, keep_blank_values=True)
        raw_rows = params.get("rows", ["20"])[0]
        if not raw_rows.isdigit() or int(raw_rows) > MAX_ROWS:
            text = f"Integer specified as {raw_rows} but must be a positive integer <= {MAX_ROWS}."
            return _bad(
                body=works_body.validation_failure(
                    kind="integer-not-valid", value=raw_rows, text=text
                )
            )
        rows = int(raw_rows)
        filters = works_body.parse_filters(raw=params.get("filter", [""])[0])
        if isinstance(filters, str):
            text = f"Filter {filters} specified but there is no such filter for this route."
            return _bad(
                body=works_body.validation_failure(
                    kind="filter-not-available", value=filters, text=text
                )
            )
        text = " ".join(params.get("query.bibliographic", []))
        found = works_body.ranked(
            works=works_body.selected(works=works, filters=filters), text=text
        )
        cursor = params.get("cursor", [None])[0]
        offset = params.get("offset", ["0"])[0]
        start = int(offset) if offset.isdigit() else 0
        if cursor is not None:
            with self._state:
                if cursor == "*":
                    cursor = base64.b64encode(f"fake-cursor-{next(self._tokens)}".encode()).decode()
                    self.cursors[cursor] = 0
                elif cursor not in self.cursors:
                    return _bad(
                        body=works_body.validation_failure(
                            kind="cursor-not-valid", value=cursor, text="Cursor expired or invalid."
                        )
                    )
                start = self.cursors[cursor]
                self.cursors[cursor] = start + rows
        body = works_body.work_list(
            page=found[start : start + rows],
            total=len(found),
            rows=rows,
            cursor=cursor,
            text=text,
            start=start if cursor is None else 0,
        )
        return Answer(200, body.encode("utf-8"), {"Content-Type": JSON_KIND})

    @staticmethod
    def _with_pool(*, answer: Answer, query: str, headers: dict[str, str]) -> Answer:
        """The pool and rate-limit headers every answer of the real service carries."""
        agent = next((v for k, v in headers.items() if k.lower() == "user-agent"), "")
        polite = "mailto" in parse_qs(query) or "mailto:" in agent
        answer.headers.update(
            {
                "x-api-pool": "polite" if polite else "public",
                "x-rate-limit-limit": "50",
                "x-rate-limit-interval": "1s",
            }
        )
        return answer


def _not_found() -> Answer:
    """The real 404 for an ISSN Crossref does not know: a JSON content type, a plain body."""
    return text_answer(
        status=404, text="Resource not found.", kind="application/json;charset=utf-8"
    )


def _bad(*, body: str) -> Answer:
    """A 400 with a validation-failure body."""
    return Answer(400, body.encode("utf-8"), {"Content-Type": JSON_KIND})
