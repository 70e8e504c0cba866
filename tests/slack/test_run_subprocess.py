"""`paperclub run` as a real process against the fake Slack: the post arrives, SIGTERM is clean,
and a restart the same day posts nothing more."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from tests.conftest import ROOT, SAMPLE
from tests.fakeslack import FakeSlack
from tests.slack.conftest import CHANNEL


def _env(fake: FakeSlack, db: Path, mode: str) -> dict[str, str]:
    """The environment an operator would set, pointed at the fake."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    return base | {
        "PYTHONPATH": str(ROOT),
        "SLACK_BOT_TOKEN": fake.bot_token,
        "SLACK_APP_TOKEN": fake.app_token,
        "SLACK_API_URL": fake.base_url,
        "PAPERCLUB_DATABASE_URL": f"sqlite:///{db}",
        "PAPERCLUB_CHANNEL": CHANNEL,
        # Midnight, every day: the post is due as soon as the bot starts (the catch-up path).
        "PAPERCLUB_POST_TIME": "00:00",
        "PAPERCLUB_DAYS": "daily",
        "PAPERCLUB_LOG_LEVEL": "INFO",
        "PAPERCLUB_HTTP_PORT": "0",  # /healthz on a free port: tests run side by side
    }


def _posts(fake: FakeSlack) -> list[dict[str, object]]:
    """Daily posts the fake received."""
    return [m for m in fake.messages(CHANNEL) if m.get("metadata")]


def _run_until_posted(fake: FakeSlack, env: dict[str, str], cwd: Path, *, expect: int) -> str:
    """Start `paperclub run`, wait until its catch-up sweep is done (the log says so), SIGTERM
    it; its stderr."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "run"],
        env=env,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    caught_up = threading.Event()

    def read() -> None:
        """Keep stderr, and signal the catch-up sweep's end."""
        assert process.stderr is not None
        for line in process.stderr:
            lines.append(line)
            if "caught up:" in line:
                caught_up.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert caught_up.wait(30), "".join(lines)
        fake.wait_connected(timeout=20)
        assert len(_posts(fake)) == expect, "".join(lines)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()  # reaped, not left to fail a later test as a ResourceWarning
            process.wait()
            raise
        reader.join(timeout=10)
        assert process.stderr is not None
        process.stderr.close()
    stderr = "".join(lines)
    assert process.returncode == 0, stderr
    return stderr


def test_run_posts_then_stops_cleanly_and_restarts_without_doubling(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    with FakeSlack() as fake:
        fake.add_channel(CHANNEL, "general")
        env = _env(fake, db, "socket")
        subprocess.run(
            [sys.executable, "-m", "bot", "import", str(SAMPLE)],
            env=env,
            cwd=tmp_path,
            check=True,
            capture_output=True,
        )
        first = _run_until_posted(fake, env, tmp_path, expect=1)
        assert len(_posts(fake)) == 1
        assert "stopped cleanly" in first
        assert fake.bot_token not in first and fake.app_token not in first
        _run_until_posted(fake, env, tmp_path, expect=1)
        assert len(_posts(fake)) == 1
