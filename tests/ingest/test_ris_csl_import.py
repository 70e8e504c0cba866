"""RIS and CSL-JSON as other tools write them (Zotero, Mendeley, databases): what a person
imports from their reference manager."""

from __future__ import annotations

import json

from bot.ingest import parse

# As Zotero's RIS export writes a preprint and a journal article (CRLF, a blank line between),
# after a line of junk, with a wrapped abstract and a record whose ER was lost.
ZOTERO_RIS = (
    "Exported by hand\r\n"
    "TY  - UNPB\r\n"
    "TI  - Attention Is All You Need\r\n"
    "AU  - Vaswani, Ashish\r\n"
    "AU  - Shazeer, Noam\r\n"
    "AB  - The dominant sequence transduction models\r\n"
    "  are based on recurrent networks.\r\n"
    "DO  - 10.48550/arXiv.1706.03762\r\n"
    "UR  - http://arxiv.org/abs/1706.03762\r\n"
    "ER  - \r\n"
    "\r\n"
    "TY  - JOUR\r\n"
    "T1  - Deep learning\r\n"
    "A1  - LeCun, Yann\r\n"
    "N2  - An abstract in N2.\r\n"
    "DO  - 10.1038/nature14539\r\n"
    "TY  - JOUR\r\n"
    "KW  - nothing that names a paper\r\n"
    "ER  -\r\n"
    "TY  - GEN\r\n"
    "AB  - Only an abstract: the title is made from it.\r\n"
)


def test_a_zotero_ris_file() -> None:
    drafts, rejections = parse(path="zotero.ris", text=ZOTERO_RIS)
    attention, deep, derived = drafts
    assert attention.title == "Attention Is All You Need"
    assert attention.authors == ("Ashish Vaswani", "Noam Shazeer")
    assert attention.abstract == (
        "The dominant sequence transduction models are based on recurrent networks."
    )
    assert (attention.arxiv_id, attention.doi) == ("1706.03762", "10.48550/arxiv.1706.03762")
    assert (deep.title, deep.authors, deep.doi) == (
        "Deep learning",
        ("Yann LeCun",),
        "10.1038/nature14539",
    )
    assert deep.abstract == "An abstract in N2."
    assert derived.title_derived and derived.abstract.startswith("Only an abstract")
    assert [r.origin for r in rejections] == ["zotero.ris:17"]
    assert all(not d.reference and d.list_name == "" for d in drafts)


def test_ris_without_records_says_so() -> None:
    drafts, [rejection] = parse(path="notes.ris", text="just some text\nER  - \n")
    assert drafts == [] and "no RIS records" in rejection.reason
    assert rejection.origin == "notes.ris:1"


def test_a_ris_file_is_known_by_its_first_tag() -> None:
    drafts, _ = parse(path="upload", text="\ufeffTY  - JOUR\nTI  - Sniffed\nER  - \n")
    assert [d.title for d in drafts] == ["Sniffed"]


def test_custom_tags_of_others_are_not_ours() -> None:
    text = "TY  - JOUR\nTI  - T\nC1  - Department of Physics\n"
    text += "C2  - paperclub-status: reference\nER  - \n"
    [draft], _ = parse(path="x.ris", text=text)
    assert draft.reference and draft.list_name == ""


def test_a_zotero_csl_json_file() -> None:
    items = [
        {
            "id": "http://zotero.org/users/1/items/ABCD",
            "type": "article-journal",
            "title": "Deep learning",
            "container-title": "Nature",
            "author": [
                {"family": "LeCun", "given": "Yann"},
                {"family": "Beethoven", "given": "Ludwig", "non-dropping-particle": "van"},
                {"literal": "The Deep Learning Group"},
            ],
            "issued": {"date-parts": [[2015, 5, 28]]},
            "DOI": "10.1038/nature14539",
            "URL": "https://www.nature.com/articles/nature14539",
            "custom": "not an object",
        },
        {"id": "b", "type": "article", "title": "A preprint", "number": "arXiv:1706.03762v5"},
        "not an item",
        {"id": "c", "type": "book"},
    ]
    text = json.dumps(items, indent=1)
    drafts, rejections = parse(path="My Library.json", text=text)
    deep, preprint = drafts
    assert deep.authors == ("Yann LeCun", "Ludwig van Beethoven", "The Deep Learning Group")
    assert (deep.doi, deep.url) == ("10.1038/nature14539", items[0]["URL"])
    assert not deep.reference
    assert (preprint.arxiv_id, preprint.url) == ("1706.03762", "https://arxiv.org/abs/1706.03762")
    assert [r.reason for r in rejections] == [
        "entry is a string, not an object",
        "no title or abstract",
    ]
    lines = text.splitlines()
    item = lines.index(' "not an item",')
    where = [item + 1, item + 2]  # the string, then the book's opening brace
    assert [r.origin for r in rejections] == [f"My Library.json:{n}" for n in where]
