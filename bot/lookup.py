"""Paper metadata from the arXiv API and Crossref, over plain HTTP with a short deadline.

Implements ports.PaperLookup. Without network access every call fails fast with
LookupFailed, and `/paperclub add` keeps the paper with what it already knows.
`get_within` is the one GET both this and bot/enrich/fetch.py make: the timeout bounds the
whole request (bot.outbound.deadline), and a redirect never leaves the host that was asked.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from dataclasses import replace
from typing import IO
from urllib.parse import quote, urlencode, urlsplit

from bot import ingest
from bot.domain import PaperDraft
from bot.ingest.crossref import crossref_work
from bot.ingest.doi import normalise_doi
from bot.outbound.deadline import Deadline, WatchedConnection, WatchedTlsConnection
from bot.outbound.failure import failure
from bot.ports import LookupFailed

USER_AGENT = "PaperClub/0.1 (reading-group bot; https://github.com/)"
_CHUNK = 65_536
_PORTS = {"http": 80, "https": 443}


class RedirectRefused(urllib.error.URLError):
    """A service redirected to another host (or port, or scheme) than the one asked."""


class _Http(urllib.request.HTTPHandler):
    """http: through a watched connection."""

    def __init__(self, *, deadline: Deadline) -> None:
        """The request's deadline."""
        super().__init__()
        self.deadline = deadline

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        """Open with a connection the deadline watches."""
        return self.do_open(
            lambda host, **kw: WatchedConnection(host, deadline=self.deadline, **kw), req
        )


class _Https(urllib.request.HTTPSHandler):
    """https: through a watched connection."""

    def __init__(self, *, deadline: Deadline) -> None:
        """The request's deadline."""
        super().__init__()
        self.deadline = deadline

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        """Open with a connection the deadline watches."""
        return self.do_open(
            lambda host, **kw: WatchedTlsConnection(host, deadline=self.deadline, **kw), req
        )


def _origin(*, url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of a URL, the default port filled in."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or _PORTS.get(scheme)
    except ValueError:  # a port that is no number
        port = -1
    return scheme, (parts.hostname or "").lower(), port


class _SameHost(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only on the host and port asked (or from http up to https on it): an
    answer must never send the bot on to another machine, the LAN or a cloud metadata address."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        """The next request, or RedirectRefused for another host."""
        old, new = _origin(url=req.full_url), _origin(url=newurl)
        upgrade = old[0] == "http" and old[2] == 80 and new == ("https", old[1], 443)
        if new != old and not upgrade:
            fp.close()  # the redirect's own answer holds the connection
            raise RedirectRefused(f"it redirected to another host ({new[1] or newurl}), refused")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def get_within(*, url: str, user_agent: str, timeout: float, limit: int) -> bytes:
    """The body (at most `limit` bytes) of a GET that takes `timeout` seconds at most in all:
    connecting, redirects, headers and body. HTTPError for an error status (its caller closes
    it), TimeoutError once the time is up, RedirectRefused, or what else urllib raises."""
    # Settings only admit http(s) base URLs, so no file: or custom scheme gets here.
    request = urllib.request.Request(url, headers={"User-Agent": user_agent})  # noqa: S310
    deadline = Deadline(seconds=timeout)
    try:
        opener = urllib.request.build_opener(
            _Http(deadline=deadline), _Https(deadline=deadline), _SameHost()
        )
        with opener.open(request, timeout=timeout) as response:
            chunks: list[bytes] = []
            size = 0
            while size < limit:
                deadline.left()
                chunk = response.read1(min(_CHUNK, limit - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            if deadline.over():  # a shut socket reads as the end of the body
                raise TimeoutError("the deadline passed")
            if size < limit and response.length:
                raise http.client.IncompleteRead(b"".join(chunks), response.length)
            return b"".join(chunks)
    except urllib.error.HTTPError:
        raise
    except (OSError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", None)
        if deadline.over() or isinstance(exc, TimeoutError) or isinstance(reason, TimeoutError):
            raise TimeoutError("the deadline passed") from None
        raise
    finally:
        deadline.close()


class HttpLookup:
    """arXiv ids through the arXiv API, DOIs through Crossref; base URLs are settings."""

    def __init__(self, *, arxiv_url: str, crossref_url: str, timeout: float) -> None:
        """Where to ask and how long a whole request may take."""
        self.arxiv_url = arxiv_url
        self.crossref_url = crossref_url.rstrip("/")
        self.timeout = timeout

    def _get(self, *, url: str, service: str) -> bytes | None:
        """The body of a GET; None for a 404; LookupFailed for anything else that goes wrong."""
        try:
            return get_within(url=url, user_agent=USER_AGENT, timeout=self.timeout, limit=2_000_000)
        except urllib.error.HTTPError as exc:
            exc.close()  # it holds the connection: unclosed, its socket waits for the GC
            if exc.code == 404:
                return None
            raise LookupFailed(f"{service} answered HTTP {exc.code}") from None
        except TimeoutError:
            raise LookupFailed(f"{service} did not answer within {self.timeout:g} s") from None
        except (OSError, http.client.HTTPException) as exc:
            raise LookupFailed(f"{service} could not be reached: {failure(exc=exc)}") from None

    def by_arxiv_id(self, *, arxiv_id: str) -> PaperDraft | None:
        """Title, authors and abstract of an arXiv paper, or None when arXiv has no such id."""
        query = urlencode({"id_list": arxiv_id, "max_results": "1"})
        body = self._get(url=f"{self.arxiv_url}?{query}", service="arXiv")
        if body is None:
            return None
        # arXiv's answer is no imported file: a paper with 1,000 authors is real, not a slip.
        text = body.decode("utf-8", "replace")
        drafts, _ = ingest.parse(path="arxiv-api", text=text, fmt="atom", capped=False)
        # The arXiv API answers an unknown id with a feed whose only entry is titled "Error".
        found = [d for d in drafts if d.arxiv_id == arxiv_id and d.title.lower() != "error"]
        return found[0] if found else None

    def by_doi(self, *, doi: str) -> PaperDraft | None:
        """Title, authors and abstract of a DOI from Crossref, or None when it has no record."""
        canonical = normalise_doi(text=doi)
        if canonical is None:  # no DOI at all: Crossref cannot know it, and it shapes no URL
            return None
        # One path segment: a "/", "?", "#", "%" or ".." in a DOI can change neither path nor query.
        url = f"{self.crossref_url}/works/{quote(canonical, safe='')}"
        body = self._get(url=url, service="Crossref")
        if body is None:
            return None
        try:
            message = json.loads(body)["message"]
        except (ValueError, KeyError, TypeError):
            raise LookupFailed("Crossref answered something that is not a work record") from None
        found = crossref_work(work={**message, "DOI": message.get("DOI") or canonical})
        return replace(found, doi=canonical) if found is not None else None
