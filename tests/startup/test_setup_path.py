"""The organiser's path as real processes (issue 30): import, try the console, then start Slack.
The imported list goes to the Slack workspace; a console trial's sample list does not, and the
empty channel says at WARNING where the papers are and the one command that moves them; each
channel gets one start-up line (schedule, next post, queue); "running" is said once; an
unreachable Slack prints our line alone."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, SAMPLE, SAMPLE_QUEUED
from tests.fakeslack import FakeSlack
from tests.processes import stop_and_reap

CONNECTED = "Socket Mode connected"


def _env(*, db: Path, fake: FakeSlack | None = None) -> dict[str, str]:
    """An operator's environment: Slack pointed at the fake, or no platform at all."""
    prefixes = ("SLACK_", "PAPERCLUB_", "DISCORD_")
    base = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    env = base | {
        "PYTHONPATH": str(ROOT),
        "PAPERCLUB_DATABASE_URL": f"sqlite:///{db}",
        "PAPERCLUB_HTTP_PORT": "0",
    }
    if fake is not None:
        env |= {
            "SLACK_BOT_TOKEN": fake.bot_token,
            "SLACK_APP_TOKEN": fake.app_token,
            "SLACK_API_URL": fake.base_url,
            "PAPERCLUB_CHANNEL": "C0001",
        }
    return env


def _paperclub(*args: str, db: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` to its end, with no platform configured."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=_env(db=db),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _slack_start(*, fake: FakeSlack, db: Path, cwd: Path) -> list[str]:
    """Start `paperclub run` on Slack, wait until it is connected, stop it: its log lines."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "run"],
        env=_env(db=db, fake=fake),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    lines: list[str] = []
    try:
        for line in process.stderr:
            lines.append(line.rstrip("\n"))
            if CONNECTED in line:
                break
        assert any(CONNECTED in line for line in lines), "\n".join(lines)
    finally:
        rest = stop_and_reap(process)
    assert process.returncode == 0, "\n".join(lines) + rest
    return lines + rest.splitlines()


def _console_trial(*, db: Path, cwd: Path) -> None:
    """`paperclub run` with no tokens: the console, which ends at once on an empty stdin."""
    done = _paperclub("run", db=db, cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_import_then_console_trial_then_slack_posts_the_imported_list(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    imported = _paperclub("import", str(SAMPLE), db=db, cwd=tmp_path)
    assert "Workspace: local. The first Slack or Discord workspace" in imported.stdout
    _console_trial(db=db, cwd=tmp_path)  # it shows (and posts) the imported list
    with FakeSlack() as fake:
        fake.add_channel("C0001", "general")
        lines = _slack_start(fake=fake, db=db, cwd=tmp_path)
    # (Enrichment may say arXiv is offline here; nothing about the channel or its queue.)
    problems = [line for line in lines if " ERROR " in line or "WARNING paperclub: channel" in line]
    assert problems == [], "\n".join(lines)
    # The channel's one start-up line: platform, schedule, next post in its zone, queue.
    (summary,) = [line for line in lines if "INFO paperclub: channel slack:T0001:C0001 on" in line]
    assert re.search(
        r"on slack: weekdays \(Mon–Fri\) at 09:00 UTC; next post \w{3} \d{4}-\d\d-\d\d 09:00 UTC; "
        rf"{SAMPLE_QUEUED} papers queued$",
        summary,
    ), summary
    assert sum("is running" in line for line in lines) == 1, "\n".join(lines)
    # Every paper went to Slack's workspace, the one the console tried queued again.
    listed = _paperclub("workspaces", "--json", db=db, cwd=tmp_path)
    assert json.loads(listed.stdout) == [{"workspace": "slack:T0001", "queued": SAMPLE_QUEUED}]


def test_a_console_trial_alone_keeps_its_sample_and_slack_says_how_to_move_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "club.db"
    _console_trial(db=db, cwd=tmp_path)  # an empty archive: the console seeds its sample
    with FakeSlack() as fake:
        fake.add_channel("C0001", "general")
        lines = _slack_start(fake=fake, db=db, cwd=tmp_path)
    (warning,) = [line for line in lines if "WARNING paperclub: channel" in line]
    assert "channel slack:T0001:C0001: the queue is empty, but" in warning
    command = "paperclub workspaces move --from console --to slack:T0001"
    assert f"`{command}`" in warning
    moved = _paperclub(*command.split()[1:], "--json", db=db, cwd=tmp_path)
    assert moved.returncode == 0, moved.stderr
    report = json.loads(moved.stdout)
    assert report["from"] == "console" and report["to"] == "slack:T0001"
    assert report["moved"] > SAMPLE_QUEUED - 2 and report["left"] == 0
    listed = json.loads(_paperclub("workspaces", "--json", db=db, cwd=tmp_path).stdout)
    assert [row["workspace"] for row in listed] == ["slack:T0001"]


def test_an_unreachable_slack_prints_our_line_alone(tmp_path: Path) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{held.getsockname()[1]}/api/"
        env = _env(db=tmp_path / "club.db") | {
            "SLACK_BOT_TOKEN": "xoxb-1-2-3",
            "SLACK_APP_TOKEN": "xapp-1-2",
            "SLACK_API_URL": url,
        }
        done = subprocess.run(
            [sys.executable, "-m", "bot", "run"],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    (line,) = done.stderr.splitlines()
    assert f"ERROR paperclub: Slack's API cannot be reached at SLACK_API_URL={url}" in line
