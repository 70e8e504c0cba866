"""`paperclub search` answered by a running bot (issue 34: a fast CLI): real processes, a real
`paperclub run --mode console` and real `paperclub search` commands, in a socket folder of the
test's own. The warm answer is byte for byte the one a search in the command's own process
prints; the command imports no SQLAlchemy then; anything the bot should not answer (another
database, a folder others may enter, a bot killed with -9) is searched in the command's own
process, as before."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.conftest import ROOT
from tests.conftest import SAMPLE
from tests.processes import stop_and_reap

HOSTILE = "<!channel> *bold* `x` ' OR 1=1 -- \"unclosed 🙂"


@dataclass
class Place:
    """A test's folder: its database, its socket folder and the environment of its commands."""

    folder: Path
    sockets: Path
    env: dict[str, str]


def _env(*, folder: Path, sockets: Path) -> dict[str, str]:
    """A command's environment: no platform tokens, the test's database and socket folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    return env | {
        "PAPERCLUB_DATABASE_URL": f"sqlite:///{folder / 'club.db'}",
        "PYTHONPATH": str(ROOT),
        "XDG_RUNTIME_DIR": str(sockets),
    }


def _placed(*, folder: Path, sockets: Path) -> Place:
    """A folder with an imported reading list, and an empty private socket folder."""
    found = Place(folder=folder, sockets=sockets, env=_env(folder=folder, sockets=sockets))
    _command(place=found, args=["import", str(SAMPLE)])
    return found


@contextlib.contextmanager
def _short_folder() -> Iterator[Path]:
    """A private folder with a short path: a socket's address holds 107 bytes, and pytest's
    own folders (pytest-of-root/pytest-N/popen-gwN/test_a_long_name0/) come near it."""
    folder = Path(tempfile.mkdtemp(prefix="pc-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def place(tmp_path: Path) -> Iterator[Place]:
    """A test's own folder, database and socket folder."""
    with _short_folder() as sockets:
        yield _placed(folder=tmp_path, sockets=sockets)


def _command(
    *, place: Place, args: list[str], importtime: bool = False, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """One `paperclub` command as a real process in the test's folder."""
    flags = ["-X", "importtime"] if importtime else []
    done = subprocess.run(
        [sys.executable, *flags, "-m", "bot", *args],
        env=place.env,
        cwd=place.folder,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if check:
        assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _socket_files(*, place: Place) -> set[Path]:
    """The socket files in the test's socket folder."""
    folder = place.sockets / "paperclub"
    return set(folder.glob("*.sock")) if folder.is_dir() else set()


def _started(*, place: Place, besides: frozenset[Path] = frozenset()) -> subprocess.Popen[str]:
    """A console bot on the test's database, returned once its socket is in the folder."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "run", "--mode", "console"],
        env=place.env,
        cwd=place.folder,
        stdin=subprocess.PIPE,  # held open: the console runs until its input ends
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not _socket_files(place=place) - besides:
        if process.poll() is not None or time.monotonic() > deadline:
            rest = stop_and_reap(process) if process.poll() is None else process.communicate()[1]
            pytest.fail(f"the bot made no socket within 60 s:\n{rest}")
        time.sleep(0.02)  # polling the folder: a socket file has no other signal
    return process


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Place]:
    """A folder whose console bot runs for the module's tests that only read (a bot takes
    seconds to start), stopped as a supervisor does."""
    with _short_folder() as sockets:
        shared = _placed(folder=tmp_path_factory.mktemp("running"), sockets=sockets)
        process = _started(place=shared)
        try:
            yield shared
        finally:
            rest = stop_and_reap(process)
            assert process.returncode == 0, rest


def _imported(*, stderr: str) -> set[str]:
    """The modules a process's -X importtime log names."""
    return {line.rpartition("|")[2].strip() for line in stderr.splitlines() if "|" in line}


@pytest.mark.parametrize(
    "args",
    [
        ["recommendation"],
        ["recommendation", "--json", "--explain"],
        ["recomendation"],  # corrected: "showing results for"
        [HOSTILE],
        ["--limit", "0", "x"],  # the command's own error, status 1
        ["--workspace", "slack:TNOPE", "x"],
    ],
)
def test_a_running_bot_answers_exactly_what_the_command_would(
    running: Place, args: list[str]
) -> None:
    place = running
    here = _command(place=place, args=["search", "--here", *args], check=False)
    warm = _command(place=place, args=["search", *args], check=False, importtime=True)
    assert (warm.returncode, warm.stdout) == (here.returncode, here.stdout)
    # The log is the import log, and the command imported none of the archive's machinery.
    loaded = _imported(stderr=warm.stderr)
    assert "bot.cli.warm_client" in loaded
    assert not {name for name in loaded if name.startswith(("sqlalchemy", "bot.services"))}
    errors = [line for line in warm.stderr.splitlines() if "|" not in line]
    assert errors == here.stderr.splitlines()
    if "--json" in args:
        assert json.loads(warm.stdout)["hits"]


def test_a_bot_on_another_database_leaves_the_search_to_the_command(
    running: Place, tmp_path: Path
) -> None:
    place, other = running, tmp_path
    elsewhere = Place(
        folder=other, sockets=place.sockets, env=_env(folder=other, sockets=place.sockets)
    )
    done = _command(place=elsewhere, args=["search", "recommendation"], importtime=True)
    assert "No papers or comments match" in done.stdout  # its own empty archive, not the bot's
    assert "sqlalchemy" in _imported(stderr=done.stderr)


def test_a_relative_database_path_is_the_same_database(running: Place) -> None:
    """The default URL names a file in the command's folder: the same file, so the bot answers."""
    relative = running.env | {"PAPERCLUB_DATABASE_URL": "sqlite:///club.db"}
    place = Place(folder=running.folder, sockets=running.sockets, env=relative)
    done = _command(place=place, args=["search", "recommendation"], importtime=True)
    assert "for “recommendation”:" in done.stdout
    assert "sqlalchemy" not in _imported(stderr=done.stderr)


def test_a_socket_folder_others_may_enter_is_not_used(place: Place) -> None:
    process = _started(place=place)
    (place.sockets / "paperclub").chmod(0o755)
    done = _command(place=place, args=["search", "recommendation"], importtime=True)
    assert "for “recommendation”:" in done.stdout
    assert "sqlalchemy" in _imported(stderr=done.stderr)  # searched in its own process
    rest = stop_and_reap(process)
    assert process.returncode == 0, rest


def test_a_killed_bot_leaves_a_socket_the_command_passes_by(place: Place) -> None:
    process = _started(place=place)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    (dead,) = _socket_files(place=place)
    done = _command(place=place, args=["search", "recommendation"], importtime=True)
    assert "for “recommendation”:" in done.stdout
    assert "sqlalchemy" in _imported(stderr=done.stderr)  # searched in its own process
    assert dead.exists()  # the command only reads the folder


def test_the_next_bot_removes_a_dead_bots_socket_and_its_own_at_a_clean_stop(
    place: Place,
) -> None:
    folder = place.sockets / "paperclub"
    folder.mkdir(mode=0o700)
    dead = folder / "1-dead.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(str(dead))  # bound, never listening, then closed: as a killed bot leaves it
    process = _started(place=place, besides=frozenset({dead}))
    try:
        assert not dead.exists()
    finally:
        rest = stop_and_reap(process)
    assert process.returncode == 0, rest
    assert not _socket_files(place=place)
