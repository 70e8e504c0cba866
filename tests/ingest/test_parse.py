"""The package entry points: format detection, dispatch, and typed references."""

from __future__ import annotations

import json

import pytest

from bot.domain import Rejection
from bot.ingest import FORMATS, detect_format, draft_from_reference, parse


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("list.txt", "text"),
        ("README.md", "text"),
        ("papers.JSON", "json"),
        ("papers.csv", "csv"),
        ("refs.bib", "bibtex"),
        ("query.atom", "atom"),
        ("listing.xml", "atom"),
        ("feed.rss", "atom"),
        ("zotero.RIS", "ris"),
    ],
)
def test_the_extension_decides(path: str, expected: str) -> None:
    assert detect_format(path=path, text='[{"title": "json anyway"}]') == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[{"title": "A"}]', "json"),
        ('\ufeff  {"papers": []}', "json"),
        ("[\n]", "json"),
        ('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"/>', "atom"),
        ('<rss version="2.0"><channel/></rss>', "atom"),
        ("% refs\n@article{k, title={T}}", "bibtex"),
        ("Title,Authors,Abstract\nA,B,C\n", "csv"),
        ("arxiv_id;doi\n2401.01234;\n", "csv"),
        ("Related papers: X\n\nAn abstract, with commas, here.", "text"),
        ("[Deep Residual Learning](https://arxiv.org/abs/1512.03385)", "text"),
        ('{\\"o}ther text in braces', "text"),
        ("", "text"),
        ("TY  - JOUR\nTI  - A\nER  - \n", "ris"),
        ('\ufeff[{"id": "x", "type": "article-journal", "title": "A"}]', "csl-json"),
        ('[{"title": "A", "note": "type article"}]', "json"),
    ],
)
def test_content_is_sniffed_without_a_known_extension(text: str, expected: str) -> None:
    assert detect_format(path="upload", text=text) == expected


def test_a_json_file_of_csl_items_is_csl_json() -> None:
    text = '[\n  {\n    "type": "article",\n    "id": "paperclub-1",\n    "title": "A"\n  }\n]'
    assert detect_format(path="library.json", text=text) == "csl-json"
    # Our own export's JSON has neither: a comment quoting CSL stays inside an escaped string.
    comment = {"text": '"type": "book", "id": 1'}
    ours = json.dumps([{"id": 1, "title": "A", "posts": [{"comments": [comment]}]}])
    assert detect_format(path="export.json", text=ours) == "json"


def test_parse_dispatches_on_the_detected_or_given_format() -> None:
    drafts, _ = parse(path="upload", text='[{"title": "From JSON"}]')
    assert [d.title for d in drafts] == ["From JSON"]
    drafts, _ = parse(path="x.json", text="[1, 2]", fmt="text")
    assert drafts[0].title == "[1, 2]"
    assert set(FORMATS) == {"text", "json", "csv", "bibtex", "atom", "ris", "csl-json"}


def test_an_unknown_format_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        parse(path="x", text="y", fmt="yaml")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_treats_an_empty_file_alike(fmt: str) -> None:
    assert parse(path="f", text=" \n", fmt=fmt) == ([], [Rejection("f:1", "empty file")])


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_rejects_binary_junk(fmt: str) -> None:
    junk = bytes(range(256)).decode("latin-1") * 8
    assert parse(path="f", text=junk, fmt=fmt) == (
        [],
        [Rejection("f:1", "binary data, not a text file")],
    )


@pytest.mark.parametrize(
    ("text", "title", "arxiv_id", "doi", "url"),
    [
        ("2401.01234", "arXiv:2401.01234", "2401.01234", None, "https://arxiv.org/abs/2401.01234"),
        (
            " https://arxiv.org/pdf/hep-th/9901001v2.pdf ",
            "arXiv:hep-th/9901001",
            "hep-th/9901001",
            None,
            "https://arxiv.org/abs/hep-th/9901001",
        ),
        (
            "doi:10.1145/3458817.3476145",
            "doi:10.1145/3458817.3476145",
            None,
            "10.1145/3458817.3476145",
            "https://doi.org/10.1145/3458817.3476145",
        ),
        (
            "https://dx.doi.org/10.1145/3458817.3476145",
            "doi:10.1145/3458817.3476145",
            None,
            "10.1145/3458817.3476145",
            "https://doi.org/10.1145/3458817.3476145",
        ),
        (
            "<https://example.org/paper.pdf>",
            "https://example.org/paper.pdf",
            None,
            None,
            "https://example.org/paper.pdf",
        ),
        (
            "Attention Is All You Need - arXiv:1706.03762",
            "Attention Is All You Need",
            "1706.03762",
            None,
            "https://arxiv.org/abs/1706.03762",
        ),
        ("Attention Is All You Need", "Attention Is All You Need", None, None, None),
        ("The missing link", "The missing link", None, None, None),
        (
            "The missing link: https://example.org/x.pdf",
            "The missing link",
            None,
            None,
            "https://example.org/x.pdf",
        ),
        (
            "BERT (arXiv: 1810.04805v2)",
            "BERT",
            "1810.04805",
            None,
            "https://arxiv.org/abs/1810.04805",
        ),
        # A link first: the title's own last character is kept.
        (
            "https://example.org/x Why it works :fire:",
            "Why it works :fire:",
            None,
            None,
            "https://example.org/x",
        ),
    ],
)
def test_typed_references(
    text: str, title: str, arxiv_id: str | None, doi: str | None, url: str | None
) -> None:
    draft = draft_from_reference(text=text, origin="slack:U1")
    assert draft is not None
    assert (draft.title, draft.arxiv_id, draft.doi, draft.url) == (title, arxiv_id, doi, url)
    assert draft.origin == "slack:U1"
    assert draft.title_derived == title.startswith(("arXiv:", "doi:", "https:"))


def test_a_pasted_abstract_gets_a_derived_title() -> None:
    draft = draft_from_reference(
        text="We propose a method. It is a very good method that works.", origin="o"
    )
    assert draft is not None
    assert draft.title == "A method"
    assert draft.title_derived
    assert draft.abstract.startswith("We propose a method.")


@pytest.mark.parametrize("text", ["", "   ", "$$", "--", "arXiv:"])
def test_references_that_name_nothing(text: str) -> None:
    assert draft_from_reference(text=text, origin="o") is None
