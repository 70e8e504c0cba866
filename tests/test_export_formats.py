"""Export renderers: the JSON shape is a promise; CSV and BibTeX parse back."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, date, datetime

import bibtexparser

from bot.domain import (
    ChannelKey,
    CommentView,
    Paper,
    PaperRecord,
    PaperStatus,
    PostView,
    VoteCount,
)
from bot.export_formats import render

PAPER = Paper(
    id=7,
    title="Bubbles in {pipelines}",
    abstract="We study bubbles.",
    authors=("Ana Silva", "Bo Li"),
    url="https://arxiv.org/abs/2401.00001",
    arxiv_id="2401.00001",
    doi="10.1/x",
    source="t:1",
    added_by="cli",
    added_at=datetime(2026, 1, 1, tzinfo=UTC),
    position=1,
    status=PaperStatus.POSTED,
)
RECORD = PaperRecord(
    paper=PAPER,
    posts=(
        PostView(
            channel=ChannelKey(platform="slack", workspace="T1", channel="C1"),
            date=date(2026, 1, 5),
            message_id="1.0001",
            permalink="https://x/p1",
            votes=VoteCount(up=3, down=1),
            comments=(CommentView(user="U2", message_id="2.0001", text="nice", edited=True),),
        ),
    ),
)


def test_json_shape() -> None:
    [obj] = json.loads(render(records=[RECORD], fmt="json"))
    assert set(obj) == {
        "id",
        "title",
        "authors",
        "abstract",
        "url",
        "arxiv_id",
        "doi",
        "status",
        "list",
        "title_derived",
        "added_at",
        "posts",
    }
    assert obj["authors"] == ["Ana Silva", "Bo Li"]
    assert obj["status"] == "posted"
    assert obj["posts"] == [
        {
            "channel": "slack:T1:C1",
            "private": False,
            "date": "2026-01-05",
            "message_id": "1.0001",
            "permalink": "https://x/p1",
            "votes": {"up": 3, "down": 1},
            "comments": [{"user": "U2", "message_id": "2.0001", "text": "nice", "edited": True}],
        }
    ]


def test_csv_round_trips_fields() -> None:
    [row] = list(csv.DictReader(io.StringIO(render(records=[RECORD], fmt="csv"))))
    assert row["title"] == PAPER.title
    assert row["authors"] == "Ana Silva; Bo Li"
    assert (row["up"], row["down"], row["comments"]) == ("3", "1", "1")


def test_bibtex_parses_back() -> None:
    library = bibtexparser.parse_string(render(records=[RECORD], fmt="bibtex"))
    assert not library.failed_blocks
    [entry] = library.entries
    assert entry.fields_dict["eprint"].value == "2401.00001"
    assert "pipelines" in entry.fields_dict["title"].value
