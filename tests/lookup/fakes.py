"""Local fakes of the arXiv API and Crossref, speaking their real formats over HTTP."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlparse

ARXIV = {
    "2104.04473": (
        "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
        ["Deepak Narayanan", "Mohammad Shoeybi"],
        "Large language models have led to state-of-the-art accuracies across several tasks. "
        "We show how tensor, pipeline, and data parallelism can be composed to scale to "
        "thousands of GPUs.",
    ),
}
CROSSREF = {
    "10.1145/3458817.3476209": (
        "Efficient large-scale language model training on GPU clusters",
        [{"given": "Deepak", "family": "Narayanan"}],
        "<jats:p>We compose <jats:italic>tensor</jats:italic> and pipeline parallelism.</jats:p>",
    ),
}

_ENTRY = """<entry><id>http://arxiv.org/abs/{id}v2</id><title>{title}</title>
<summary>{summary}</summary>{authors}
<link href="http://arxiv.org/abs/{id}v2" rel="alternate" type="text/html"/></entry>"""
_ERROR = """<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_{id}</id>
<title>Error</title><summary>incorrect id format for {id}</summary></entry>"""


def arxiv_feed(*, arxiv_id: str) -> str:
    """The Atom feed the arXiv API answers for one id (an Error entry when unknown)."""
    if arxiv_id in ARXIV:
        title, authors, summary = ARXIV[arxiv_id]
        names = "".join(f"<author><name>{a}</name></author>" for a in authors)
        entry = _ENTRY.format(id=arxiv_id, title=title, summary=summary, authors=names)
    else:
        entry = _ERROR.format(id=arxiv_id)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
        f"<title>arXiv Query</title>{entry}</feed>"
    )


class _Handler(BaseHTTPRequestHandler):
    """GET /api/query?id_list=ID and GET /works/DOI; `server.fail` forces a 503."""

    def do_GET(self) -> None:
        url = urlparse(self.path)
        self.server.hits.append(self.path)  # type: ignore[attr-defined]
        if self.server.fail:  # type: ignore[attr-defined]
            self._send(503, "text/plain", "busy")
        elif url.path == "/api/query":
            arxiv_id = parse_qs(url.query).get("id_list", [""])[0]
            self._send(200, "application/atom+xml", arxiv_feed(arxiv_id=arxiv_id))
        elif url.path.startswith("/works/"):
            doi = unquote(url.path.removeprefix("/works/")).lower()
            if doi not in CROSSREF:
                self._send(404, "text/plain", "Resource not found.")
                return
            title, authors, abstract = CROSSREF[doi]
            message = {
                "DOI": doi,
                "title": [title],
                "author": authors,
                "abstract": abstract,
                "URL": f"https://doi.org/{doi}",
            }
            self._send(200, "application/json", json.dumps({"status": "ok", "message": message}))
        else:
            self._send(404, "text/plain", "no")

    def _send(self, status: int, kind: str, body: str) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: tests read hits, not logs."""


@contextmanager
def metadata_server() -> Iterator[ThreadingHTTPServer]:
    """A running fake of both services; `.base` is its URL, `.hits` the paths asked."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.hits = []  # type: ignore[attr-defined]
    server.fail = False  # type: ignore[attr-defined]
    server.base = f"http://127.0.0.1:{server.server_address[1]}"  # type: ignore[attr-defined]
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
