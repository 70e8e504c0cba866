"""Candidates' cleaning and dedupe keys, which meet the archive's own keys."""

from __future__ import annotations

from bot.domain import PaperDraft
from bot.ingest.keys import dedupe_keys
from bot.sources.candidates import candidate_keys, make_candidate, title_key


def test_keys_carry_the_versionless_id_the_datacite_doi_and_the_title() -> None:
    paper = make_candidate(
        source="s",
        title="Café: A Study",
        abstract="Short.",
        arxiv_id="arXiv:2401.01234v2",
        doi="https://doi.org/10.1000/ABC",
    )
    assert paper is not None and paper.arxiv_id == "2401.01234"
    assert candidate_keys(candidate=paper)[:3] == (
        "arxiv:2401.01234",
        "doi:10.1000/abc",
        "doi:10.48550/arxiv.2401.01234",
    )
    assert candidate_keys(candidate=paper)[-1] == "title:cafe a study"


def test_an_arxiv_datacite_doi_gives_the_arxiv_id() -> None:
    paper = make_candidate(source="s", title="T", doi="10.48550/arXiv.2401.01234")
    assert paper is not None and paper.arxiv_id == "2401.01234"
    assert candidate_keys(candidate=paper).count("doi:10.48550/arxiv.2401.01234") == 1


def test_fingerprint_key_is_the_archives_own() -> None:
    abstract = "We study a problem at length with enough words to identify the paper alone here."
    paper = make_candidate(source="s", title="A Title", abstract=abstract)
    draft = PaperDraft(title="A title, differently cased", abstract=abstract)
    assert paper is not None
    fp = [k for k in candidate_keys(candidate=paper) if k.startswith("fp:")]
    assert fp == [k for k in dedupe_keys(draft=draft) if k.startswith("fp:")]


def test_title_key_ignores_case_accents_and_punctuation() -> None:
    assert title_key(title="Déjà Vu — Attention!") == title_key(title="deja vu: attention")


def test_no_title_is_no_candidate_and_unknown_kinds_are_none() -> None:
    assert make_candidate(source="s", title=" \u200b …") is None
    paper = make_candidate(source="s", title="T", announce="REPLACE", version=0, url="javascript:x")
    assert paper is not None
    assert (paper.announce, paper.version, paper.url) == ("replace", None, None)
    assert make_candidate(source="s", title="T", announce="withdrawn").announce is None  # type: ignore[union-attr]
