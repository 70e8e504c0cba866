"""`paperclub watch` and `paperclub suggestions`: a channel's watches and suggestions from the
shell, as text and JSON; a channel named by its whole key need not follow the list."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.sources.candidates import Candidate
from tests.cli.conftest import Runner

KEY = ChannelKey(platform="slack", workspace="T1", channel="C1")


def test_watches_are_added_listed_and_removed(paperclub: Runner) -> None:
    added = paperclub(
        "watch", "add", "arxiv", "cs.LG", "keywords:", "diffusion", "--channel", str(KEY)
    )
    assert "#1 arXiv cs.LG · keywords: diffusion" in added.stdout
    paperclub("watch", "add", "feed", "https://example.org/toc.xml", "--channel", str(KEY))
    rows = json.loads(paperclub("watch", "list", "--channel", str(KEY), "--json").stdout)
    assert [(r["number"], r["kind"], r["target"], r["keywords"]) for r in rows] == [
        (1, "arxiv", "cs.LG", ["diffusion"]),
        (2, "feed", "https://example.org/toc.xml", []),
    ]
    assert rows[0]["typed"] == "arxiv cs.LG keywords: diffusion"
    paperclub("watch", "remove", "1", "--channel", str(KEY))
    rows = json.loads(paperclub("watch", "list", "--channel", str(KEY), "--json").stdout)
    assert [r["number"] for r in rows] == [2]


def test_bad_input_is_one_clear_line(paperclub: Runner) -> None:
    bad = paperclub("watch", "add", "crossref", "1234-5678", "--channel", str(KEY), check=False)
    assert bad.returncode == 1 and "is not an ISSN" in bad.stderr
    gone = paperclub("watch", "remove", "7", "--channel", str(KEY), check=False)
    assert gone.returncode == 1 and "has no watch #7" in gone.stderr
    nowhere = paperclub("watch", "list", "--channel", "nowhere", check=False)
    assert nowhere.returncode == 1 and "--channel" in nowhere.stderr


def test_suggestions_as_text_and_json(paperclub: Runner) -> None:
    assert "has no suggestions yet" in paperclub("suggestions", "--channel", str(KEY)).stdout
    paperclub("watch", "add", "arxiv", "cs.LG", "--channel", str(KEY))
    database = Database(url=os.environ["PAPERCLUB_DATABASE_URL"])
    try:
        with database() as store:
            store.add_suggestions(
                channel=KEY,
                watch_id=1,
                candidates=[
                    Candidate(
                        title="<!channel> A paper 🧪", source="watch:1", arxiv_id="2409.00001"
                    )
                ],
                now=datetime(2026, 1, 5, tzinfo=UTC),
            )
    finally:
        database.dispose()
    said = paperclub("suggestions", "--channel", str(KEY)).stdout
    assert "#1 [waiting] <!channel> A paper 🧪" in said
    (row,) = json.loads(paperclub("suggestions", "--channel", str(KEY), "--json").stdout)
    assert (row["number"], row["state"], row["arxiv_id"]) == (1, "waiting", "2409.00001")
