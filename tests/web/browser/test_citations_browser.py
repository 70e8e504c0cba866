"""What a browser connector reads, read by a real browser: a paper page's Highwire meta tags and
COinS span (a hostile title stays an attribute's text: no script runs, no element appears),
a list page's COinS per paper, and a channel's RIS file downloaded from its link."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rispy

from bot.db.migrate import upgrade_url
from tests.web.archive_data import PRIVATE_POSTED, seed
from tests.web.browser.conftest import serving
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

META = """() => [...document.querySelectorAll('meta[name^="citation_"]')]
    .map(m => [m.getAttribute('name'), m.getAttribute('content')])"""
COINS = """() => [...document.querySelectorAll('span.Z3988')].map(s => {
    const context = new URLSearchParams(s.getAttribute('title'));
    return {title: context.get('rft.atitle'), authors: context.getAll('rft.au'),
            ids: context.getAll('rft_id'), version: context.get('ctx_ver')};
})"""


@pytest.fixture(scope="module")
def citable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Citable]]:
    """The seeded archive with the citable papers, served on loopback."""
    url = f"sqlite:///{tmp_path_factory.mktemp('citable') / 'paperclub.db'}"
    upgrade_url(url=url)
    seed(url=url)
    ids = seed_citable(url=url)
    with serving(url=url) as base:
        yield base, ids


def _watch(page: Any) -> list[str]:
    """Every dialog the page opens (an alert() that ran), dismissed and noted."""
    opened: list[str] = []

    def dismiss(dialog: Any) -> None:
        """Note it and close it."""
        opened.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    return opened


def test_the_paper_pages_meta_tags_and_coins(page: Any, citable: tuple[str, Citable]) -> None:
    base, ids = citable
    dialogs = _watch(page)
    page.goto(f"{base}/paper/{ids.public}")
    assert page.locator("h1#title").inner_text() == HOSTILE_TITLE
    assert [tuple(pair) for pair in page.evaluate(META)] == list(PUBLIC_META)
    assert page.evaluate(COINS) == [
        {
            "title": HOSTILE_TITLE,
            "authors": list(HOSTILE_AUTHORS),
            "ids": [
                f"info:doi/{DOI}",
                f"info:arxiv/{ARXIV_ID}",
                f"https://arxiv.org/abs/{ARXIV_ID}",
            ],
            "version": "Z39.88-2004",
        }
    ]
    # The title's markup made nothing: no script element, no bold, no handler, no alert.
    assert page.locator("script").count() == 0 and page.locator("main b").count() == 0
    assert page.evaluate("() => document.querySelectorAll('[onload]').length") == 0
    assert dialogs == []


def test_a_list_page_offers_every_paper_and_a_channels_file(
    page: Any, citable: tuple[str, Citable]
) -> None:
    base, _ = citable
    dialogs = _watch(page)
    page.goto(f"{base}/channel/CPUB")
    found = page.evaluate(COINS)
    titles = page.locator("ol.posts li a.paper").all_inner_texts()
    assert [c["title"] for c in found] == titles and len(titles) == 20
    assert found[0]["title"] == HOSTILE_TITLE
    assert all(c["version"] == "Z39.88-2004" for c in found)
    with page.expect_download() as downloading:
        page.click("#download-ris")
    download = downloading.value
    assert download.suggested_filename == "paperclub-CPUB.ris"
    text = Path(download.path()).read_text("utf-8")
    entries = rispy.loads(text)
    assert entries[0]["title"] == HOSTILE_TITLE and len(entries) > len(titles)
    assert PRIVATE_ARXIV not in text and PRIVATE_POSTED not in text
    assert dialogs == []
