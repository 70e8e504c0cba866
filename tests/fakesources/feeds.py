"""FakeFeeds: any RSS or Atom document at any path, as a bioRxiv subject feed, a journal's
table of contents or a PubMed search feed would be served.

    with FakeFeeds() as feeds:
        feeds.put("/biorxiv_xml/neuroscience", body=sample, kind=RDF_KIND)
        feeds.oversized("/huge.xml", size=5_000_000)           # for a size cap
        feeds.stall_next(seconds=2); feeds.drip_next(chunk=64, every=0.1)

Validators (ETag, Last-Modified) and 304s follow conditional.py; `validators=False` serves a
feed the way many publishers do, without either.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import UTC, datetime

from .conditional import conditional
from .server import Answer, SourceServer, text_answer

RSS_KIND = "application/rss+xml; charset=utf-8"
ATOM_KIND = "application/atom+xml; charset=utf-8"
RDF_KIND = "application/rdf+xml; charset=utf-8"  # RSS 1.0, as bioRxiv's subject feeds are
_FILLER_ITEM = (
    "<item><title>Filler {n}</title><link>https://journal.example/article/{n}</link>"
    "<description>{pad}</description><guid>filler-{n}</guid></item>\n"
)


@dataclass
class _Document:
    """One path's document and how it is served."""

    body: bytes
    kind: str
    modified: datetime | None
    validators: bool
    length: bool


class FakeFeeds(SourceServer):
    """Documents put at paths; anything else is 404."""

    name = "feeds"

    def __init__(self, *, spacing: float = 0.0, retry_after: int = 3) -> None:
        """No documents yet."""
        super().__init__(spacing=spacing, retry_after=retry_after)
        self._docs: dict[str, _Document] = {}
        self._state = threading.Lock()

    def put(
        self,
        path: str,
        *,
        body: str | bytes,
        kind: str = RSS_KIND,
        modified: datetime | None = None,
        validators: bool = True,
        length: bool = True,
    ) -> str:
        """Serve `body` at `path` from now on (replacing what was there); returns its URL.

        `modified`: its Last-Modified (now when None); `validators=False`: no ETag, no
        Last-Modified, never a 304; `length=False`: no Content-Length (the body ends when the
        connection closes), so a size cap cannot trust a header.
        """
        data = body.encode("utf-8") if isinstance(body, str) else body
        when = modified or datetime.now(UTC).replace(microsecond=0)
        with self._state:
            self._docs[path] = _Document(data, kind, when, validators, length)
        return self.url + path

    def remove(self, path: str) -> None:
        """Take a document away: its path answers 404 again."""
        with self._state:
            self._docs.pop(path, None)

    def oversized(self, path: str, *, size: int, length: bool = True) -> str:
        """A well-formed RSS 2.0 feed of exactly `size` bytes (≥ 400) at `path`."""
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>'
            "<title>Oversized</title><link>https://journal.example/</link>"
            "<description>Padded to a size</description>\n"
        )
        tail = "</channel></rss>\n"
        if size < 400:
            raise ValueError("size must be at least 400 bytes")
        items: list[str] = []
        used = len(head) + len(tail)
        n = 0
        while True:
            item = _FILLER_ITEM.format(n=n, pad="x" * 200)
            if used + len(item) > size - 150:
                break
            items.append(item)
            used, n = used + len(item), n + 1
        last = _FILLER_ITEM.format(n=n, pad="")
        pad = size - used - len(last)
        items.append(_FILLER_ITEM.format(n=n, pad="x" * pad))
        body = head + "".join(items) + tail
        assert len(body.encode("utf-8")) == size
        return self.put(path, body=body, length=length)

    def answer(self, *, path: str, query: str, headers: dict[str, str]) -> Answer:
        """The document at `path` (the query string is ignored, as static feeds ignore it)."""
        with self._state:
            doc = self._docs.get(path)
        if doc is None:
            return text_answer(status=404, text="Not Found")
        if not doc.validators:
            return Answer(200, doc.body, {"Content-Type": doc.kind}, length=doc.length)
        answer = conditional(body=doc.body, kind=doc.kind, modified=doc.modified, headers=headers)
        if answer.status == 200:
            answer.length = doc.length
        return answer
