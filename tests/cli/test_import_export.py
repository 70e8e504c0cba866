"""`paperclub import`, `queue` and `export` end to end, through the real CLI (in-process, or a real
process for `run`) and a real file."""

from __future__ import annotations

import json
from datetime import time
from pathlib import Path

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey, Schedule
from tests.cli.conftest import Runner
from tests.conftest import SAMPLE, SAMPLE_ENTRIES, SAMPLE_QUEUED


def test_sample_list_imports_once(paperclub: Runner) -> None:
    first = json.loads(paperclub("import", str(SAMPLE), "--json").stdout)
    assert first == {"workspace": "local", "added": SAMPLE_ENTRIES, "known": 0, "rejected": []}
    second = paperclub("import", str(SAMPLE))
    assert f"Added 0 papers; {SAMPLE_ENTRIES} already known; 0 rejected." in second.stdout
    assert "Nothing new" in second.stdout
    # The shipped list's papers are known only in part: the report says how to complete them.
    assert f"{SAMPLE_ENTRIES} papers are known only in part" in second.stdout
    assert "paperclub enrich" in second.stdout


def test_every_sample_entry_has_a_sensible_title(paperclub: Runner) -> None:
    paperclub("import", str(SAMPLE))
    papers = json.loads(paperclub("export", "--format", "json").stdout)
    assert len(papers) == SAMPLE_ENTRIES
    for paper in papers:
        assert 0 < len(paper["title"]) <= 90, paper["title"]
        assert "\\" not in paper["title"] and "$" not in paper["title"]
        assert paper["status"] == ("reference" if paper["id"] == 1 else "queued")
        assert paper["posts"] == []
    texts = " ".join(p["abstract"] for p in papers)
    assert "highly-constrained" in texts and "\\-" not in texts


def test_json_export_round_trips(paperclub: Runner, tmp_path: Path) -> None:
    paperclub("import", str(SAMPLE))
    out = tmp_path / "export.json"
    paperclub("export", "--format", "json", "-o", str(out))
    exported = json.loads(out.read_text())

    again = paperclub("import", str(out), "--json")
    assert json.loads(again.stdout)["added"] == 0  # same database: all known

    other = {"PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'other.db'}"}
    paperclub("import", str(out), **other)
    paperclub("export", "-o", str(tmp_path / "again.json"), **other)
    reimported = json.loads((tmp_path / "again.json").read_text())
    keep = ("title", "authors", "abstract", "url", "arxiv_id", "doi", "status", "posts")
    assert [{k: p[k] for k in keep} for p in reimported] == [
        {k: p[k] for k in keep} for p in exported
    ]


@pytest.mark.parametrize(
    ("fmt", "suffix"),
    [("csv", "csv"), ("bibtex", "bib"), ("ris", "ris"), ("csl-json", "json")],
)
def test_csv_bibtex_ris_and_csl_round_trips_keep_the_list(
    paperclub: Runner, tmp_path: Path, fmt: str, suffix: str
) -> None:
    paperclub("import", str(SAMPLE))
    exported = json.loads(paperclub("export", "--format", "json").stdout)
    out = tmp_path / f"export.{suffix}"
    paperclub("export", "--format", fmt, "-o", str(out))

    other = {"PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'other.db'}"}
    report = json.loads(paperclub("import", str(out), "--json", **other).stdout)
    assert (report["added"], report["rejected"]) == (SAMPLE_ENTRIES, [])
    again = json.loads(paperclub("export", "--format", "json", **other).stdout)
    keep = ("title", "authors", "abstract", "url", "arxiv_id", "doi", "status", "list")
    keep += ("title_derived",)
    assert [{k: p[k] for k in keep} for p in again] == [{k: p[k] for k in keep} for p in exported]
    assert [p["status"] for p in again].count("reference") == 1
    # The list's header paper is still a reference: the queue never offers it for posting.
    [view] = json.loads(paperclub("queue", "--json", "--limit", "100", **other).stdout)
    assert view["total"] == SAMPLE_QUEUED
    header = next(p["title"] for p in again if p["status"] == "reference")
    assert header not in [p["title"] for p in view["papers"]]


def test_queue_lists_in_order(paperclub: Runner) -> None:
    paperclub("import", str(SAMPLE))
    [view] = json.loads(paperclub("queue", "--json", "--limit", "3").stdout)
    assert view["channel"] is None and view["total"] == SAMPLE_QUEUED
    assert [p["position"] for p in view["papers"]] == [1, 2, 3]
    text = paperclub("queue", "--limit", "2").stdout
    assert f"the shared reading list: {SAMPLE_QUEUED} queued" in text
    assert f"… and {SAMPLE_QUEUED - 2} more" in text


def _follow(*, folder: Path, channel: str) -> None:
    """The state after `/paperclub schedule` in a Slack channel (the CLI migrated the file)."""
    database = Database(url=f"sqlite:///{folder / 'club.db'}")
    try:
        with database() as store:
            key = ChannelKey(platform="slack", workspace="T1", channel=channel)
            schedule = Schedule(post_time=time(9, 0), timezone="UTC", weekdays=frozenset({1}))
            store.save_channel(key=key, schedule=schedule, private=False)
    finally:
        database.dispose()


def test_queue_per_channel(paperclub: Runner, tmp_path: Path) -> None:
    listing = tmp_path / "mine.json"
    listing.write_text(json.dumps([{"title": "Only for C0TEAM", "abstract": "x"}]))
    unknown = paperclub("import", str(listing), "--channel", "C0TEAM", check=False)
    assert unknown.returncode == 1
    assert "no followed channel is called 'C0TEAM' (followed: none yet)" in unknown.stderr
    _follow(folder=tmp_path, channel="C0TEAM")
    paperclub("import", str(listing), "--channel", "slack:C0TEAM")
    paperclub("import", str(SAMPLE))
    [view] = json.loads(paperclub("queue", "--json", "--channel", "C0TEAM").stdout)
    assert view["total"] == SAMPLE_QUEUED + 1
    assert view["papers"][0]["title"] == "Only for C0TEAM"


def test_export_csv_and_bibtex(paperclub: Runner) -> None:
    paperclub("import", str(SAMPLE))
    csv_text = paperclub("export", "--format", "csv").stdout
    assert csv_text.splitlines()[0].startswith("id,title,authors")
    assert len(csv_text.strip().splitlines()) >= SAMPLE_ENTRIES + 1
    bib = paperclub("export", "--format", "bibtex").stdout
    assert bib.count("@misc{") == SAMPLE_ENTRIES


def test_rejections_name_file_and_line(paperclub: Runner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[\n  {"title": "Fine", "abstract": "ok"},\n  {"abstract": ""}\n]\n')
    report = json.loads(paperclub("import", str(bad), "--json").stdout)
    assert report["added"] == 1
    [rejection] = report["rejected"]
    assert rejection["origin"].startswith(f"{bad}:")
    assert rejection["reason"]


def test_bad_input_gets_a_message_not_a_traceback(paperclub: Runner, tmp_path: Path) -> None:
    missing = paperclub("import", str(tmp_path / "nope.txt"), check=False)
    assert missing.returncode == 1 and "no such file" in missing.stderr
    folder = paperclub("import", str(tmp_path), check=False)
    assert folder.returncode == 1 and "is a folder" in folder.stderr
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 4)
    # Read as Latin-1 text, nothing crashes; every entry rejected is a failed import (issue 30).
    assert paperclub("import", str(junk), check=False).returncode == 1
    broken = tmp_path / "broken.json"
    broken.write_text('[{"title": "x",')
    out = paperclub("import", str(broken), check=False)
    assert out.returncode == 1
    assert "rejected" in out.stdout and "broken.json:1" in out.stdout
    nowhere = paperclub("export", "-o", str(tmp_path / "no" / "dir.json"), check=False)
    assert nowhere.returncode == 2 and "does not exist" in nowhere.stderr  # a usage error


def test_bad_settings_name_the_variable(paperclub: Runner) -> None:
    done = paperclub("queue", check=False, PAPERCLUB_TIMEZONE="Mars/Olympus")
    assert done.returncode == 2
    assert "PAPERCLUB_TIMEZONE" in done.stderr


def test_run_without_tokens_says_what_is_missing(paperclub_process: Runner) -> None:
    # A real process: `run` is what an operator starts, and its exit status is the point.
    done = paperclub_process("run", "--mode", "socket", check=False)
    assert done.returncode != 0
    assert "SLACK_BOT_TOKEN" in done.stderr


def test_search_from_the_cli(paperclub: Runner) -> None:
    paperclub("import", str(SAMPLE))
    found = json.loads(paperclub("search", "persistent", "homology", "--json").stdout)
    assert found["total"] == 1 and "homology" in found["hits"][0]["snippet"].lower()
    # One sample paper (the DLRM one) mentions both words.
    both = paperclub("search", "recommendation embedding").stdout
    assert "1 match for “recommendation embedding”" in both and "recommendation models" in both
    assert "No papers or comments match" in paperclub("search", "zzzqqq").stdout
    # An unbalanced quote and parenthesis are read as plain words: no error, and no sample
    # paper says "unbalanced".
    odd = json.loads(paperclub("search", '"unbalanced (', "--json").stdout)
    assert (odd["total"], odd["hits"]) == (0, [])
