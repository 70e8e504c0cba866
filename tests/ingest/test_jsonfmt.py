"""JSON: lists of paper objects, the {"papers": [...]} wrapper, the export, broken files."""

from __future__ import annotations

import json

import pytest

from bot.domain import Rejection
from bot.ingest.jsonfmt import parse_json


def test_a_list_of_objects_with_every_field_form() -> None:
    text = json.dumps(
        [
            {
                "title": "Deep {L}earning",
                "authors": ["Ada Lovelace", "Alan Turing"],
                "abstract": "It  works.",
                "url": "https://example.org/p",
                "arxiv_id": "arXiv:2401.01234v2",
                "doi": "doi:10.1145/ABC.1",
            },
            {"title": "Two", "authors": "A. One and B. Two", "arxiv": "hep-th/9901001"},
            {"title": "Three", "authors": "C. Three, D. Four"},
            {"abstract": "No title here, but an abstract says enough."},
            {"title": "From a URL", "url": "https://arxiv.org/pdf/2401.05678v1.pdf"},
            {"title": "From a DOI URL", "url": "http://dx.doi.org/10.1000/XYZ1"},
            {"title": 1984, "authors": [{"name": "G. Orwell"}, {"given": "A", "family": "B"}]},
        ],
        indent=2,
    )
    drafts, rejections = parse_json(path="p.json", text=text)
    assert rejections == []
    first = drafts[0]
    assert first.title == "Deep Learning"
    assert first.authors == ("Ada Lovelace", "Alan Turing")
    assert first.abstract == "It works."
    assert first.url == "https://example.org/p"
    assert (first.arxiv_id, first.doi) == ("2401.01234", "10.1145/abc.1")
    assert drafts[1].authors == ("A. One", "B. Two")
    assert drafts[1].arxiv_id == "hep-th/9901001"
    assert drafts[2].authors == ("C. Three", "D. Four")
    assert drafts[3].title_derived
    assert drafts[3].title == "No title here, but an abstract says enough"
    assert drafts[4].arxiv_id == "2401.05678"
    assert drafts[5].doi == "10.1000/xyz1"
    assert drafts[6].title == "1984"
    assert drafts[6].authors == ("G. Orwell", "A B")


def test_origins_are_the_lines_objects_start_on() -> None:
    text = '[\n  {"title": "A"},\n\n  {"title": "B",\n   "abstract": "x"}, {"title": "C"}\n]'
    drafts, _ = parse_json(path="p.json", text=text)
    assert [d.origin for d in drafts] == ["p.json:2", "p.json:4", "p.json:5"]


def test_the_papers_wrapper_and_its_lines() -> None:
    text = '{\n "version": 1,\n "meta": {"papers": 3},\n "papers": [\n  {"title": "A"}\n ]\n}'
    drafts, rejections = parse_json(path="p.json", text=text)
    assert rejections == []
    assert [(d.title, d.origin) for d in drafts] == [("A", "p.json:5")]


def test_the_projects_export_round_trips() -> None:
    export = [
        {
            "id": 7,
            "title": "Derived from the abstract",
            "authors": ["Ada Lovelace"],
            "abstract": "A long abstract about tensors.",
            "url": "https://arxiv.org/abs/2401.01234",
            "arxiv_id": "2401.01234",
            "doi": None,
            "status": "posted",
            "added_at": "2024-01-02T03:04:05+00:00",
            "position": 3,
            "posts": [{"channel": "C1", "date": "2024-01-03", "votes": {"up": 2, "down": 0}}],
        },
        {"paper": {"title": "Nested record", "authors": []}, "posts": []},
    ]
    drafts, rejections = parse_json(path="export.json", text=json.dumps(export))
    assert rejections == []
    assert drafts[0].title == "Derived from the abstract"
    assert drafts[0].arxiv_id == "2401.01234"
    assert drafts[0].url == "https://arxiv.org/abs/2401.01234"
    assert drafts[0].doi is None
    assert drafts[1].title == "Nested record"


def test_entries_that_are_not_objects_or_name_nothing_are_rejected() -> None:
    text = '[{"title": "ok"}, 42, "a string", null, [], {"authors": ["Nobody"]}, true]'
    drafts, rejections = parse_json(path="p.json", text=text)
    assert [d.title for d in drafts] == ["ok"]
    assert [r.reason for r in rejections] == [
        "entry is a number, not an object",
        "entry is a string, not an object",
        "entry is null, not an object",
        "entry is a list, not an object",
        "no title or abstract",
        "entry is true, not an object",
    ]
    assert all(r.origin == "p.json:1" for r in rejections)


@pytest.mark.parametrize(
    ("text", "origin", "reason"),
    [
        ('[\n {"title": "A"},\n {"title": "B"', "p.json:3", "not valid JSON: Expecting ',' delim"),
        (
            '[\n {"title": "A"}\n {"title": "B"}\n]',
            "p.json:3",
            "not valid JSON: Expecting ',' delim",
        ),
        ("[{'title': 'single quotes'}]", "p.json:1", "not valid JSON: Expecting property name"),
        ("[" * 100_000, "p.json:1", "not valid JSON"),
        ('[{"title": ' + "9" * 5000 + "}]", "p.json:1", "not valid JSON: Exceeds the limit"),
    ],
)
def test_invalid_json_is_one_rejection_with_its_line(text: str, origin: str, reason: str) -> None:
    drafts, rejections = parse_json(path="p.json", text=text)
    assert drafts == []
    assert len(rejections) == 1
    assert rejections[0].origin == origin
    assert rejections[0].reason.startswith(reason)


@pytest.mark.parametrize("text", ['{"title": "one paper"}', "42", '"papers"', '{"papers": 3}'])
def test_json_that_is_not_a_list_of_papers_is_rejected(text: str) -> None:
    assert parse_json(path="p.json", text=text) == (
        [],
        [
            Rejection(
                origin="p.json:1",
                reason='JSON must be a list of papers or an object with a "papers" list',
            )
        ],
    )


def test_an_empty_list_is_no_papers_and_no_complaint() -> None:
    assert parse_json(path="p.json", text="[]") == ([], [])


def test_a_byte_order_mark_is_accepted() -> None:
    drafts, _ = parse_json(path="p.json", text='\ufeff[\n{"title": "A"}]')
    assert [(d.title, d.origin) for d in drafts] == [("A", "p.json:2")]


def test_empty_and_binary_files() -> None:
    assert parse_json(path="p.json", text="")[1] == [Rejection("p.json:1", "empty file")]
    junk = "\x00\x01\x02garbage\x03" * 50
    assert parse_json(path="p.json", text=junk)[1][0].reason == "binary data, not a text file"
