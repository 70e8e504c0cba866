"""What reference managers take from the archive, through Flask's test client: a public
channel's and a period's papers as .bib and .ris files (the private channel's never), and the
COinS spans and Highwire meta tags of the pages, hostile titles kept inert in attributes."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from urllib.parse import parse_qs

import bibtexparser
import pytest
import rispy
from flask.testing import FlaskClient

from bot.db.database import Database
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.services.web_links import Signer
from bot.web.archive import archive_app
from tests.web.archive_data import (
    OTHER_WORKSPACE,
    PRIVATE_COMMENT,
    PRIVATE_POSTED,
    PRIVATE_QUEUED,
    TODAY,
    Seeded,
    seed,
)
from tests.web.citation_data import (
    ARXIV_ID,
    DOI,
    HOSTILE_AUTHORS,
    HOSTILE_TITLE,
    PRIVATE_ARXIV,
    PUBLIC_META,
    Citable,
    seed_citable,
)

NEVER = (PRIVATE_POSTED, PRIVATE_QUEUED, PRIVATE_ARXIV, OTHER_WORKSPACE, PRIVATE_COMMENT)
Archive = tuple[FlaskClient, Seeded, Citable]


@pytest.fixture
def archive(any_url: str) -> Iterator[Archive]:
    """A test client on the seeded archive and the citable papers (SQLite, and PostgreSQL)."""
    ids = seed(url=any_url)
    citable = seed_citable(url=any_url)
    database = Database(url=any_url)
    try:
        app = archive_app(
            uow=database, today=lambda: TODAY, semantic_extra=NO_SEMANTIC, telemetry=Telemetry()
        )
        yield app.test_client(), ids, citable
    finally:
        database.dispose()


class Tags(HTMLParser):
    """The meta tags (name, content) and COinS titles of a page, attributes unescaped."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: list[tuple[str, str]] = []
        self.coins: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Collect a meta tag or a Z3988 span; anything else (a <script> too) is ignored."""
        found = {k: v or "" for k, v in attrs}
        if tag == "meta" and "name" in found:
            self.meta.append((found["name"], found.get("content", "")))
        if tag == "span" and found.get("class") == "Z3988":
            self.coins.append(found.get("title", ""))


def _tags(client: FlaskClient, path: str) -> Tags:
    """The tags of the page at `path`."""
    answer = client.get(path + "?workspace=slack:T1")
    assert answer.status_code == 200, path
    tags = Tags()
    tags.feed(answer.get_data(as_text=True))
    return tags


def _get(client: FlaskClient, path: str) -> tuple[int, str, str, str]:
    """Status, Content-Type, Content-Disposition and body of a GET in workspace T1."""
    answer = client.get(path + "?workspace=slack:T1")
    disposition = answer.headers.get("Content-Disposition", "")
    return answer.status_code, answer.content_type, disposition, answer.get_data(as_text=True)


def test_a_public_channels_papers_as_bibtex_and_ris(archive: Archive) -> None:
    client, ids, _ = archive
    status, kind, disposition, body = _get(client, "/channel/CPUB/papers.bib")
    assert (status, kind) == (200, "application/x-bibtex; charset=utf-8")
    assert disposition == 'attachment; filename="paperclub-CPUB.bib"'
    library = bibtexparser.parse_string(body)
    assert not library.failed_blocks
    assert len(library.entries) == ids.public_papers + 1  # the seed's and the hostile one
    status, kind, disposition, body = _get(client, "/channel/CPUB/papers.ris")
    assert (status, kind) == (200, "application/x-research-info-systems; charset=utf-8")
    entries = rispy.loads(body)
    assert len(entries) == ids.public_papers + 1
    hostile = entries[0]  # newest first: it was posted today
    assert hostile["title"] == HOSTILE_TITLE
    assert hostile["doi"] == DOI and hostile["accession_number"] == f"arXiv:{ARXIV_ID}"
    assert not any(text in body for text in NEVER)


def test_a_periods_papers_hold_only_public_posts(archive: Archive) -> None:
    client, _, _ = archive
    status, _, disposition, body = _get(client, "/top/week/papers.ris")
    assert status == 200 and disposition == 'attachment; filename="paperclub-last-week.ris"'
    titles = [entry["title"] for entry in rispy.loads(body)]
    assert HOSTILE_TITLE in titles and len(titles) == len(set(titles)) > 1
    assert not any(text in body for text in NEVER)
    _, _, _, year = _get(client, "/top/year/papers.bib")
    assert len(bibtexparser.parse_string(year).entries) > len(titles)
    assert not any(text in year for text in NEVER)


@pytest.mark.parametrize(
    "path",
    [
        "/channel/CPRIV/papers.bib",  # private: no page, no file
        "/channel/CPRIV/papers.ris",
        "/channel/COTHER/papers.ris",  # another workspace's
        "/channel/CPUB/papers.txt",
        "/channel/CPUB/papers.json",
        "/top/decade/papers.bib",
    ],
)
def test_what_the_pages_hide_has_no_file(archive: Archive, path: str) -> None:
    client, _, _ = archive
    status, _, _, body = _get(client, path)
    assert status == 404
    assert not any(text in body for text in NEVER)


def test_the_channel_and_top_pages_link_their_files(archive: Archive) -> None:
    client, _, _ = archive
    for page, file in (
        ("/channel/CPUB", "/channel/CPUB/papers"),
        ("/top/month", "/top/month/papers"),
    ):
        body = _get(client, page)[3]
        for kind in ("bib", "ris"):
            assert f'href="{file}.{kind}?workspace=slack:T1"' in body
            assert _get(client, f"{file}.{kind}")[0] == 200


def test_the_paper_page_carries_highwire_tags_and_coins(archive: Archive) -> None:
    client, _, citable = archive
    tags = _tags(client, f"/paper/{citable.public}")
    meta = [(name, content) for name, content in tags.meta if name.startswith("citation_")]
    assert meta == list(PUBLIC_META)
    [coins] = tags.coins
    context = parse_qs(coins, strict_parsing=True)
    assert context["rft.atitle"] == [HOSTILE_TITLE]
    assert context["rft.au"] == list(HOSTILE_AUTHORS)
    assert context["rft_id"] == [
        f"info:doi/{DOI}",
        f"info:arxiv/{ARXIV_ID}",
        f"https://arxiv.org/abs/{ARXIV_ID}",
    ]
    assert context["ctx_ver"] == ["Z39.88-2004"] and context["rft.genre"] == ["preprint"]


def test_hostile_titles_stay_inside_their_attributes(archive: Archive) -> None:
    client, _, citable = archive
    body = _get(client, f"/paper/{citable.public}")[3]
    assert "<script>alert(2)" not in body and 'onload="alert' not in body
    assert (
        '<meta name="citation_title" content="He said &#34;hi&#34; &amp; left&#39; onload=' in body
    )


def test_list_pages_carry_one_coins_per_paper(archive: Archive) -> None:
    client, _, _ = archive
    home = _tags(client, "/")
    assert len(home.coins) == 20  # one per post of the page
    titles = [parse_qs(c)["rft.atitle"][0] for c in home.coins]
    assert titles[0] == HOSTILE_TITLE
    assert not home.meta or all(not name.startswith("citation_") for name, _ in home.meta)
    searched = _tags(client, "/search").coins
    assert searched == []
    found = client.get("/search?workspace=slack:T1&q=transformers").get_data(as_text=True)
    parser = Tags()
    parser.feed(found)
    assert len(parser.coins) == 10


def test_files_need_the_sign_in_the_pages_need(any_url: str) -> None:
    seed(url=any_url)
    database = Database(url=any_url)
    try:
        signer = Signer(key=b"a sign-in key of thirty-two bytes", base="http://127.0.0.1/")
        client = archive_app(
            uow=database,
            today=lambda: TODAY,
            signer=signer,
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
        ).test_client()
        for path in ("/channel/CPUB/papers.bib", "/top/year/papers.ris"):
            answer = client.get(path)
            assert answer.status_code == 401
            assert "BibTeX" not in answer.get_data(as_text=True)
            assert "TY  - " not in answer.get_data(as_text=True)
    finally:
        database.dispose()
