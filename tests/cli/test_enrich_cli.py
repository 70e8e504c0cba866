"""`paperclub enrich` through the real CLI, against the fake arXiv and Crossref."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.cli.conftest import Runner
from tests.conftest import SAMPLE
from tests.fakelookup import FakeScholar
from tests.fakelookup.reading_list import CATALOGUE


@pytest.fixture
def scholar() -> Iterator[FakeScholar]:
    """The fake arXiv and Crossref, knowing the shipped list's papers."""
    with FakeScholar(records=list(CATALOGUE)) as fake:
        yield fake


def test_dry_run_json_shows_each_change_and_changes_nothing(
    paperclub: Runner, scholar: FakeScholar
) -> None:
    paperclub("import", str(SAMPLE))
    urls = {
        "PAPERCLUB_ARXIV_API_URL": scholar.arxiv_url,
        "PAPERCLUB_CROSSREF_API_URL": scholar.crossref_url,
    }
    before = json.loads(paperclub("export").stdout)
    shown = json.loads(paperclub("enrich", "2", "3", "--dry-run", "--json", **urls).stdout)
    assert shown["dry_run"] is True and shown["summary"]["found"] == 2
    first, second = shown["papers"]
    assert (first["result"], second["result"]) == ("found", "found")
    changed = {c["field"]: c for c in first["changes"]}
    assert {"title", "abstract", "arxiv_id", "authors"} <= set(changed)
    assert changed["abstract"]["before"].endswith("…")
    assert changed["abstract"]["after"].startswith(changed["abstract"]["before"][:80])
    assert json.loads(paperclub("export").stdout) == before
    applied = paperclub("enrich", "2", **urls).stdout
    assert "Enrichment of 1 papers: 1 found" in applied
    after = {p["id"]: p for p in json.loads(paperclub("export").stdout)}
    assert after[2]["title"] == changed["title"]["after"] and not after[2]["title_derived"]
