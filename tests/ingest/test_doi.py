"""DOIs: prefixes, resolver URLs, encoding and surrounding punctuation all normalise away."""

from __future__ import annotations

import pytest

from bot.ingest.doi import doi_url, find_doi, normalise_doi

DOI = "10.1145/3458817.3476145"


@pytest.mark.parametrize(
    "text",
    [
        DOI,
        f"doi:{DOI}",
        f"DOI: {DOI}",
        f"https://doi.org/{DOI}",
        f"http://doi.org/{DOI}",
        f"http://dx.doi.org/{DOI}",
        f"https://www.doi.org/{DOI}",
        f"doi.org/{DOI}",
        "https://doi.org/10.1145%2F3458817.3476145",
        f"{DOI}.",
        f"{DOI},",
        f"({DOI})",
        f"<{DOI}>",
        f'"{DOI}";',
        f"https://doi.org/{DOI}?download=true",
        f"  {DOI}  ",
    ],
)
def test_every_written_form_gives_the_bare_doi(text: str) -> None:
    assert normalise_doi(text=text) == DOI


def test_dois_are_lower_cased() -> None:
    assert normalise_doi(text="10.1000/ABC.Def") == "10.1000/abc.def"


def test_balanced_brackets_inside_a_doi_stay() -> None:
    sici = "10.1002/(SICI)1097-4636(199706)35:4<>3.0.CO;2-N"
    assert normalise_doi(text=sici) == sici.lower()
    assert normalise_doi(text="10.1000/abc(1)).") == "10.1000/abc(1)"


@pytest.mark.parametrize(
    "text", ["", "doi:", "10.1/abc", "10.12/x", "11.1145/3458817", "10.1145/", "hello", "10.1145"]
)
def test_junk_is_not_a_doi(text: str) -> None:
    assert normalise_doi(text=text) is None


def test_the_resolver_url_escapes_what_a_url_cannot_carry() -> None:
    assert doi_url(doi=DOI) == f"https://doi.org/{DOI}"
    assert doi_url(doi="10.1000/a b#c") == "https://doi.org/10.1000/a%20b%23c"
    assert normalise_doi(text=doi_url(doi="10.1000/a b#c")) is None  # a space ends a DOI
    assert normalise_doi(text=doi_url(doi="10.1000/a<b>#c")) == "10.1000/a<b>#c"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"Published as doi:{DOI}.", DOI),
        (f"see https://doi.org/{DOI}, then", DOI),
        ("no identifier here", None),
    ],
)
def test_dois_are_found_in_running_text(text: str, expected: str | None) -> None:
    assert find_doi(text=text) == expected


def test_a_wholly_encoded_resolver_url_is_understood() -> None:
    assert normalise_doi(text="https%3A%2F%2Fdoi.org%2F10.1145%2F3458817.3476145") == DOI
