"""A look-up follows a redirect only on the host it asked: a Crossref or arXiv answer (or one
forged on the way) must not send the bot, with its User-Agent, on to another machine. Another
host here is 127.0.0.2, or "localhost" for 127.0.0.1: the same machine under another name."""

from __future__ import annotations

import json

import pytest

from bot.enrich.fetch import Fetcher, Unreachable
from bot.lookup import HttpLookup
from bot.ports import LookupFailed
from tests.hardening.servers import table_server

WORK = json.dumps({"message": {"title": ["Moved"], "DOI": "10.1000/moved"}}).encode()


def _lookup(*, base: str) -> HttpLookup:
    return HttpLookup(arxiv_url=base + "/api/query", crossref_url=base, timeout=2)


def test_a_redirect_to_another_address_is_refused_and_never_followed() -> None:
    with table_server(host="127.0.0.2") as elsewhere, table_server() as crossref:
        elsewhere.routes["/works/10.1000%2Fmoved"] = (200, {}, WORK)
        location = {"Location": elsewhere.url + "/works/10.1000%2Fmoved"}
        crossref.routes["/works/10.1000%2Fmoved"] = (302, location, b"")
        with pytest.raises(LookupFailed) as caught:
            _lookup(base=crossref.url).by_doi(doi="10.1000/moved")
        assert str(caught.value) == (
            "Crossref could not be reached: it redirected to another host (127.0.0.2), refused"
        )
        assert crossref.paths == ["/works/10.1000%2Fmoved"]
        assert elsewhere.paths == []


def test_a_redirect_to_another_name_of_the_same_machine_is_refused() -> None:
    with table_server() as crossref:
        port = crossref.url.rsplit(":", 1)[1]
        location = {"Location": f"http://localhost:{port}/works/other"}
        crossref.routes["/works/10.1000%2Fmoved"] = (301, location, b"")
        crossref.routes["/works/other"] = (200, {}, WORK)
        with pytest.raises(LookupFailed, match=r"another host \(localhost\), refused"):
            _lookup(base=crossref.url).by_doi(doi="10.1000/moved")
        assert crossref.paths == ["/works/10.1000%2Fmoved"]


def test_enrichment_refuses_a_redirect_to_another_host_too() -> None:
    with table_server(host="127.0.0.2") as elsewhere, table_server() as arxiv:
        arxiv.routes["/api/query"] = (307, {"Location": elsewhere.url + "/api/query?x=1"}, b"")
        fetcher = Fetcher(user_agent="PaperClub-test", timeout=2)
        with pytest.raises(Unreachable, match="redirected to another host"):
            fetcher.get(service="arxiv", url=arxiv.url + "/api/query?x=1", read=str)
        assert elsewhere.paths == []


def test_a_redirect_on_the_same_host_is_still_followed() -> None:
    with table_server() as crossref:
        crossref.routes["/works/10.1000%2Fmoved"] = (301, {"Location": "/v2/works/moved"}, b"")
        crossref.routes["/v2/works/moved"] = (200, {}, WORK)
        found = _lookup(base=crossref.url).by_doi(doi="10.1000/moved")
        assert found is not None and found.title == "Moved"
        assert crossref.paths == ["/works/10.1000%2Fmoved", "/v2/works/moved"]
