"""`paperclub import` of the files that went wrong: reading lists saved as UTF-16 (Excel's and
Windows' "Unicode text", with a byte-order mark) and an entry with a 25,000-character abstract
or 6,000 authors, which is rejected with a line of its own while the rest of the file imports."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from bot.lookup import HttpLookup
from tests.cli.conftest import Runner
from tests.hardening.servers import table_server

CSV = "title,authors,abstract\nPipelines of bubbles,Ana Silva; Bo Li,We study bubbles.\n"
TEXT = "Pipelines of bubbles\nAna Silva, Bo Li\nWe study bubbles — and “quotes”, ü.\n"
ENCODINGS = {
    "utf-16-le": codecs.BOM_UTF16_LE,
    "utf-16-be": codecs.BOM_UTF16_BE,
    "utf-8": codecs.BOM_UTF8,
    "utf-32-le": codecs.BOM_UTF32_LE,
}


def _titles(*, paperclub: Runner) -> list[str]:
    return [paper["title"] for paper in json.loads(paperclub("export").stdout)]


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_a_csv_with_a_byte_order_mark_imports(
    paperclub: Runner, tmp_path: Path, encoding: str
) -> None:
    listing = tmp_path / "papers.csv"
    listing.write_bytes(ENCODINGS[encoding] + CSV.encode(encoding))
    report = json.loads(paperclub("import", str(listing), "--json").stdout)
    assert report == {"workspace": "local", "added": 1, "known": 0, "rejected": []}
    [paper] = json.loads(paperclub("export").stdout)
    assert (paper["title"], paper["authors"]) == ("Pipelines of bubbles", ["Ana Silva", "Bo Li"])


def test_a_utf16_reading_list_imports_with_its_accents(paperclub: Runner, tmp_path: Path) -> None:
    listing = tmp_path / "reading-list.txt"
    listing.write_bytes(codecs.BOM_UTF16_LE + TEXT.replace("\n", "\r\n").encode("utf-16-le"))
    assert "Added 1 paper; 0 already known; 0 rejected." in paperclub("import", str(listing)).stdout
    [paper] = json.loads(paperclub("export").stdout)
    assert paper["title"] == "Pipelines of bubbles"
    assert "“quotes”, ü" in paper["abstract"]


def test_an_oversized_entry_is_rejected_and_the_rest_imports(
    paperclub: Runner, tmp_path: Path
) -> None:
    abstract = " ".join(["y" * 99] * 250) + "z"  # 25,000 characters
    authors = "; ".join(f"Author Number{n}" for n in range(6000))
    listing = tmp_path / "big.csv"
    listing.write_text(
        "title,authors,abstract\n"
        "First fine paper,Ana Silva,Short.\n"
        f"Pasted whole paper,Bo Li,{abstract}\n"
        f'Collaboration roster,"{authors}",Short too.\n'
        "Last fine paper,Cy Young,Also short.\n",
        encoding="utf-8",
    )
    done = paperclub("import", str(listing))
    assert "Added 2 papers; 0 already known; 2 rejected." in done.stdout
    assert (
        f"  rejected {listing}:3: abstract is 25,000 characters, over the limit of 20,000"
        in done.stdout.splitlines()
    )
    roster = f"  rejected {listing}:4: 6,000 authors, over the limit of 5,000"
    assert roster in done.stdout.splitlines()
    assert _titles(paperclub=paperclub) == ["First fine paper", "Last fine paper"]


def test_a_long_author_list_is_rejected_by_its_length(paperclub: Runner, tmp_path: Path) -> None:
    # 1,700 names of about 105 characters: under the count cap, over the length cap.
    names = [f"Professor Emerita {'Bartholomew-' * 7}Name{n}" for n in range(1700)]
    listing = tmp_path / "long.json"
    listing.write_text(
        json.dumps(
            [
                {"title": "Many long names", "authors": names, "abstract": "A paper."},
                {"title": "Two names", "authors": ["Ana Silva", "Bo Li"], "abstract": "B."},
            ]
        )
    )
    report = json.loads(paperclub("import", str(listing), "--json").stdout)
    assert report["added"] == 1
    [rejection] = report["rejected"]
    assert rejection["reason"].startswith("author list is 1")
    assert rejection["reason"].endswith("characters, over the limit of 150,000")
    assert _titles(paperclub=paperclub) == ["Two names"]


def test_the_caps_are_for_files_not_for_arxiv_answers() -> None:
    # A real collaboration paper lists hundreds of authors: /paperclub add keeps them all.
    names = "".join(f"<author><name>Author Number{n}</name></author>" for n in range(150))
    feed = (
        '<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
        "<entry><id>http://arxiv.org/abs/2312.11805v1</id><title>A big model</title>"
        f"<summary>Many hands.</summary>{names}</entry></feed>"
    ).encode()
    with table_server() as arxiv:
        arxiv.routes["/api/query"] = (200, {"Content-Type": "application/atom+xml"}, feed)
        lookup = HttpLookup(arxiv_url=arxiv.url + "/api/query", crossref_url=arxiv.url, timeout=2)
        paper = lookup.by_arxiv_id(arxiv_id="2312.11805")
    assert paper is not None and len(paper.authors) == 150
