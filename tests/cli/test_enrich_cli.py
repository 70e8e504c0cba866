"""`paperclub enrich` through the real CLI, against the fake arXiv and Crossref."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.cli.conftest import ROOT, Runner
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


SUMMARY_KEYS = ("found", "unchanged", "unclear", "none", "unreachable")


def test_dry_run_json_reasons_stand_alone_when_the_services_are_down(
    paperclub: Runner, scholar: FakeScholar
) -> None:
    paperclub("import", str(SAMPLE))
    scholar.fail_next("arxiv", status=500, times=50)
    scholar.fail_next("crossref", status=502, times=50)
    urls = {
        "PAPERCLUB_ARXIV_API_URL": scholar.arxiv_url,
        "PAPERCLUB_CROSSREF_API_URL": scholar.crossref_url,
    }
    shown = json.loads(paperclub("enrich", "--dry-run", "--json", **urls).stdout)
    assert tuple(shown["summary"]) == SUMMARY_KEYS  # as the README names them
    assert shown["unreachable"] == {
        "arxiv": "arXiv could not be reached: HTTP 500",
        "crossref": "Crossref could not be reached: HTTP 502",
    }
    papers = shown["papers"]
    assert len(papers) >= 3 and shown["summary"]["unreachable"] == len(papers)
    # Each service was asked once; every later paper still says what was down and why.
    assert scholar.count("arxiv") == 1 and scholar.count("crossref") <= 1
    allowed = {
        "arXiv could not be reached: HTTP 500",
        "Crossref could not be reached: HTTP 502",
        "arXiv and Crossref could not be reached: arXiv: HTTP 500; Crossref: HTTP 502",
    }
    for paper in papers:
        assert paper["result"] == "unreachable" and paper["reason"] in allowed, paper


def test_the_readme_names_the_json_summary_keys() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    keys = ", ".join(f"`{key}`" for key in SUMMARY_KEYS[:-1])
    assert f"{keys} and `{SUMMARY_KEYS[-1]}`" in readme
