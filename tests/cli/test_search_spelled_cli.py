"""`paperclub search` forgives a misspelling as the chat does, for people and in --json."""

from __future__ import annotations

import json

from tests.cli.conftest import Runner
from tests.conftest import SAMPLE


def test_the_cli_corrects_and_suggests(paperclub: Runner) -> None:
    paperclub("import", str(SAMPLE))
    corrected = json.loads(paperclub("search", "pipline", "paralelism", "--json").stdout)
    assert corrected["query"] == "pipline paralelism"
    assert corrected["corrected"] == "pipeline parallelism" and corrected["hits"]
    assert corrected["suggestion"] is None
    offered = json.loads(paperclub("search", "homology pipline", "--json").stdout)
    assert (offered["corrected"], offered["suggestion"]) == (None, "homology pipeline")
    plain = json.loads(paperclub("search", "homology", "--json").stdout)
    assert (plain["corrected"], plain["suggestion"]) == (None, None)
    said = paperclub("search", "pipline paralelism").stdout
    assert "No match for “pipline paralelism”; showing results for “pipeline parallelism”." in said
    said = paperclub("search", "homology pipline").stdout
    assert "Did you mean “homology pipeline”? paperclub search homology pipeline" in said
