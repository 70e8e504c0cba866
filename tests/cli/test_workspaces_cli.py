"""`--workspace` on import, queue, search and export: the only workspace by default, a clear
message when there are several, and nothing of one workspace shown for another."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.conftest import Runner

SAMPLE = Path(__file__).resolve().parents[2] / "bot" / "data" / "reading-list.txt"


def _two_workspaces(paperclub: Runner, tmp_path: Path) -> None:
    """The sample list in the unclaimed archive, and one paper of its own in discord:G9."""
    paperclub("import", str(SAMPLE))
    own = tmp_path / "guild.json"
    paper = {"title": "Wombat routing for sparse meshes", "abstract": "We route wombats."}
    own.write_text(json.dumps([paper]))
    paperclub("import", str(own), "--workspace", "discord:G9")


def test_one_workspace_is_the_default_and_another_is_kept_apart(
    paperclub: Runner, tmp_path: Path
) -> None:
    paperclub("import", str(SAMPLE))
    first = json.loads(paperclub("search", "parallelism", "--json").stdout)
    assert first["total"] > 0
    _two_workspaces(paperclub, tmp_path)
    guild = json.loads(paperclub("search", "wombat", "--json", "--workspace", "discord:G9").stdout)
    assert [hit["title"] for hit in guild["hits"]] == ["Wombat routing for sparse meshes"]
    # The guild's archive holds none of the sample list, and the sample's none of the guild's.
    nothing = paperclub("search", "parallelism", "--json", "--workspace", "discord:G9").stdout
    assert json.loads(nothing)["total"] == 0
    local = paperclub("search", "wombat", "--json", "--workspace", "local").stdout
    assert json.loads(local)["total"] == 0
    exported = json.loads(paperclub("export", "--workspace", "discord:G9").stdout)
    assert [paper["title"] for paper in exported] == ["Wombat routing for sparse meshes"]
    queue = json.loads(paperclub("queue", "--json", "--workspace", "discord:G9").stdout)
    assert [view["total"] for view in queue] == [1]


def test_several_workspaces_need_a_choice_said_plainly(paperclub: Runner, tmp_path: Path) -> None:
    _two_workspaces(paperclub, tmp_path)
    for command in (["search", "gpu"], ["export"], ["queue"], ["import", str(SAMPLE)]):
        done = paperclub(*command, check=False)
        assert done.returncode == 1, command
        assert "holds 2 workspaces; say which with --workspace" in done.stderr
        assert "local, discord:G9" in done.stderr  # the choices, as --workspace takes them


def test_a_workspace_that_is_not_there_is_named_in_the_message(
    paperclub: Runner, tmp_path: Path
) -> None:
    _two_workspaces(paperclub, tmp_path)
    done = paperclub("search", "gpu", "--workspace", "slack:T404", check=False)
    assert done.returncode == 1
    assert "There is no workspace slack:T404." in done.stderr
    bad = paperclub("search", "gpu", "--workspace", "not a workspace", check=False)
    assert bad.returncode == 1 and "write it as slack:T0123 or local" in bad.stderr
