"""CSV: columns by name, physical line numbers, ragged and broken rows."""

from __future__ import annotations

from bot.domain import Rejection
from bot.ingest.csvfmt import parse_csv


def test_columns_are_matched_by_name_in_any_case_and_order() -> None:
    text = (
        "DOI,Abstract,Title,Authors,URL,arXiv ID\n"
        '10.1145/X.1,"An abstract.",A Title,"Smith, John; Doe, Jane",,2401.01234v1\n'
        ",,Second,A. One and B. Two,https://example.org/p,\n"
    )
    drafts, rejections = parse_csv(path="p.csv", text=text)
    assert rejections == []
    first, second = drafts
    assert first.title == "A Title"
    assert first.abstract == "An abstract."
    assert first.authors == ("John Smith", "Jane Doe")
    assert (first.doi, first.arxiv_id) == ("10.1145/x.1", "2401.01234")
    assert first.url == "https://arxiv.org/abs/2401.01234"
    assert second.authors == ("A. One", "B. Two")
    assert second.url == "https://example.org/p"
    assert [d.origin for d in drafts] == ["p.csv:2", "p.csv:3"]


def test_multi_line_quoted_fields_keep_physical_line_numbers() -> None:
    text = 'title,abstract\nOne,"first\nsecond\nthird"\n\nTwo,plain\n'
    drafts, _ = parse_csv(path="p.csv", text=text)
    assert [(d.title, d.abstract, d.origin) for d in drafts] == [
        ("One", "first second third", "p.csv:2"),
        ("Two", "plain", "p.csv:6"),
    ]


def test_semicolon_and_tab_delimiters_are_recognised() -> None:
    for sep in (";", "\t"):
        drafts, _ = parse_csv(path="p.csv", text=f"title{sep}abstract\nA{sep}B, with a comma\n")
        assert [(d.title, d.abstract) for d in drafts] == [("A", "B, with a comma")]


def test_a_csv_of_ids_only_is_fine() -> None:
    drafts, _ = parse_csv(path="p.csv", text="arxiv\n2401.01234\nhep-th/9901001\n")
    assert [d.title for d in drafts] == ["arXiv:2401.01234", "arXiv:hep-th/9901001"]


def test_missing_columns_are_one_rejection() -> None:
    drafts, rejections = parse_csv(path="p.csv", text="\nname2,authors,year\nx,y,2020\n")
    assert drafts == []
    assert rejections == [
        Rejection(
            origin="p.csv:2",
            reason="CSV has no 'title' or 'abstract' column (columns: name2, authors, year)",
        )
    ]


def test_ragged_rows() -> None:
    text = "title,abstract\nShort row\nWide,row,with extra\nTrailing,empties,,\nOk,fine\n"
    drafts, rejections = parse_csv(path="p.csv", text=text)
    assert [d.title for d in drafts] == ["Short row", "Trailing", "Ok"]
    assert rejections == [
        Rejection(origin="p.csv:3", reason="row has 3 fields but the header has 2")
    ]


def test_broken_quoting_is_rejected_with_its_line() -> None:
    text = 'title,abstract\nGood,one\nBad,"unterminated\nstill inside\n'
    drafts, rejections = parse_csv(path="p.csv", text=text)
    assert [d.title for d in drafts] == ["Good"]
    assert rejections == [
        Rejection(origin="p.csv:3", reason="broken CSV row: unexpected end of data")
    ]


def test_a_stray_quote_is_rejected_and_later_rows_survive() -> None:
    text = 'title,abstract\nBad,"x"y\nMid "quote" ok,z\nGood,one\n'
    drafts, rejections = parse_csv(path="p.csv", text=text)
    assert [d.title for d in drafts] == ['Mid "quote" ok', "Good"]
    assert rejections == [
        Rejection(origin="p.csv:2", reason="broken CSV row: ',' expected after '\"'")
    ]


def test_rows_that_name_nothing_are_rejected_and_blank_rows_skipped() -> None:
    text = "title,authors\n,Nobody\n,\n   ,  \nReal,\n"
    drafts, rejections = parse_csv(path="p.csv", text=text)
    assert [d.title for d in drafts] == ["Real"]
    assert rejections == [Rejection(origin="p.csv:2", reason="no title or abstract")]


def test_header_only_and_empty() -> None:
    assert parse_csv(path="p.csv", text="title,abstract\n") == ([], [])
    assert parse_csv(path="p.csv", text="") == ([], [Rejection("p.csv:1", "empty file")])


def test_a_bom_before_the_header_is_ignored() -> None:
    drafts, _ = parse_csv(path="p.csv", text="\ufefftitle\nA\n")
    assert [d.title for d in drafts] == ["A"]
