"""`paperclub export -o PATH` writes only a regular file or a new name in an existing folder,
by a rename from a file beside it. Run as root, `-o /dev/full` once replaced the device with
the export; a folder or device is now refused in one line (exit status 2, a usage error, as
argparse's own), `-o -` is stdout, and a failed write leaves the old file whole."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import ROOT, Runner
from tests.conftest import SAMPLE, SAMPLE_ENTRIES


@pytest.mark.parametrize("device", ["/dev/full", "/dev/null"])
def test_a_device_is_refused_and_left_a_device(paperclub: Runner, device: str) -> None:
    paperclub("import", str(SAMPLE))
    done = paperclub("export", "--format", "csv", "-o", device, check=False)
    assert done.returncode == 2
    assert done.stderr == (
        f"paperclub: {device}: is not a regular file; name a file to write, or - for stdout\n"
    )
    assert done.stdout == ""
    assert stat.S_ISCHR(os.stat(device).st_mode)


def test_a_folder_is_refused_and_nothing_is_left_in_it(paperclub: Runner, tmp_path: Path) -> None:
    paperclub("import", str(SAMPLE))
    before = sorted(os.listdir(tmp_path))
    done = paperclub("export", "-o", str(tmp_path), check=False)
    assert done.returncode == 2
    assert done.stderr == (
        f"paperclub: {tmp_path}: is a folder; name a file to write, or - for stdout\n"
    )
    assert tmp_path.is_dir() and sorted(os.listdir(tmp_path)) == before


def test_dash_is_stdout(paperclub: Runner, tmp_path: Path) -> None:
    paperclub("import", str(SAMPLE))
    done = paperclub("export", "-o", "-")
    assert len(json.loads(done.stdout)) == SAMPLE_ENTRIES
    assert not (tmp_path / "-").exists()


def test_an_existing_file_and_a_symlink_to_one_are_replaced_whole(
    paperclub: Runner, tmp_path: Path
) -> None:
    paperclub("import", str(SAMPLE))
    target = tmp_path / "export.json"
    target.write_text("the old export\n")
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    paperclub("export", "-o", str(link))
    assert link.is_symlink() and len(json.loads(target.read_text())) == SAMPLE_ENTRIES
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


# The export in a process whose files may not grow past LIMIT bytes (as on a full disk): the
# write beside the target fails with EFBIG; SIGXFSZ, which would kill the process, is ignored.
LIMIT = 256 * 1024
FULL_DISK = (
    "import resource, signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
    f"resource.setrlimit(resource.RLIMIT_FSIZE, ({LIMIT}, {LIMIT})); "
    "from bot.__main__ import main; main()"
)


def test_a_failed_write_leaves_the_old_file_whole(paperclub: Runner, tmp_path: Path) -> None:
    listing = tmp_path / "long.json"
    abstract = " ".join(["word"] * 3000)  # 15,000 characters: 20 make an export past LIMIT
    papers = [{"title": f"Paper {n}", "abstract": f"{n} {abstract}"} for n in range(20)]
    listing.write_text(json.dumps(papers))
    paperclub("import", str(listing))
    target = tmp_path / "export.json"
    target.write_text("the old export\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    env |= {"PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, "export", "-o", str(target)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1] == f"paperclub: {target}: cannot write it (File too large)"
    assert "Traceback" not in done.stderr
    assert target.read_text() == "the old export\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
