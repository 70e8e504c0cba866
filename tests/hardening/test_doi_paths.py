"""A DOI becomes one path segment of the Crossref URL, whatever it was typed as: its "/", "?",
"#", "%" and ".." are quoted, so a DOI can change neither the path asked nor the query."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

import pytest

from bot.ingest.doi import normalise_doi
from bot.lookup import HttpLookup
from tests.hardening.servers import table_server

CASES = {
    "https://doi.org/10.1000/ABC": "10.1000/abc",
    "doi:10.1000/abc": "10.1000/abc",
    "  DOI: 10.1000/ABC  ": "10.1000/abc",
    "https://dx.doi.org/10.1000%2FABC?utm_source=x#top": "10.1000/abc",
    "10.1000/a?b=1#c": "10.1000/a?b=1#c",
    "10.1000/../../admin": "10.1000/../../admin",
    "10.1000/100%25": "10.1000/100%",
    "10.1000/x/../../../members?rows=1000": "10.1000/x/../../../members?rows=1000",
}


@pytest.mark.parametrize(("typed", "canonical"), CASES.items())
def test_every_form_normalises_to_the_lower_case_doi(typed: str, canonical: str) -> None:
    assert normalise_doi(text=typed) == canonical


@pytest.mark.parametrize(
    "typed", ["10.1000/a b", "10.1000/abc%00", "10.1000/abc\x00", "10.1000/\t"]
)
def test_spaces_and_control_characters_inside_are_no_doi(typed: str) -> None:
    assert normalise_doi(text=typed) is None


@pytest.mark.parametrize(("typed", "canonical"), CASES.items())
def test_crossref_is_asked_for_exactly_that_doi_in_one_segment(typed: str, canonical: str) -> None:
    with table_server() as crossref:
        lookup = HttpLookup(arxiv_url=crossref.url + "/q", crossref_url=crossref.url, timeout=2)
        assert lookup.by_doi(doi=typed) is None  # the table answers 404
        [path] = crossref.paths
        parts = urlsplit(path)
        assert parts.query == "" and parts.fragment == ""
        segment = parts.path.removeprefix("/works/")
        assert "/" not in segment and unquote(segment) == canonical


def test_what_is_no_doi_is_never_asked() -> None:
    with table_server() as crossref:
        lookup = HttpLookup(arxiv_url=crossref.url + "/q", crossref_url=crossref.url, timeout=2)
        assert lookup.by_doi(doi="10.1000/a b") is None
        assert lookup.by_doi(doi="../../members") is None
        assert crossref.paths == []
