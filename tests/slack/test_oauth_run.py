"""`paperclub run` in distribution mode as a real process: a workspace installs it through the
browser flow, its command is answered with its own token, SIGTERM is clean, no secret logged."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from bot.sealing import new_key
from tests.conftest import ROOT
from tests.fakeslack import FakeSlack, command_body, signed_request, slash_command_payload
from tests.processes import stop_and_reap
from tests.slack.conftest import SECRET
from tests.slack.distribution import CLIENT_ID, CLIENT_SECRET, TEAMS, add_teams, install


def test_run_serves_an_installed_workspace(tmp_path: Path) -> None:
    key = new_key()
    with FakeSlack() as fake:
        add_teams(fake)
        base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
        env = base | {
            "PYTHONPATH": str(ROOT),
            "SLACK_API_URL": fake.base_url,
            "SLACK_CLIENT_ID": CLIENT_ID,
            "SLACK_CLIENT_SECRET": CLIENT_SECRET,
            "SLACK_SIGNING_SECRET": SECRET,
            "PAPERCLUB_SECRET_KEY": key,
            "PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'paperclub.db'}",
            "PAPERCLUB_HTTP_PORT": "0",
            "PAPERCLUB_LOG_LEVEL": "DEBUG",
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        lines: list[str] = []
        serving = threading.Event()
        port: list[int] = []

        def read() -> None:
            """Keep stderr (drained to the end: DEBUG fills a pipe), and say where it listens."""
            assert process.stderr is not None
            for line in process.stderr:
                lines.append(line)
                found = re.search(r"serving HTTP on [^:]+:(\d+)", line)
                if found and not port:
                    port.append(int(found.group(1)))
                    serving.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            assert serving.wait(30), "".join(lines)
            redirect = f"http://127.0.0.1:{port[0]}/slack/oauth_redirect"
            fake.register_app(CLIENT_ID, CLIENT_SECRET, redirect)
            assert "Thank you!" in install(fake, port[0], "T0100")
            url = fake.new_response_url()
            payload = slash_command_payload(
                text="help",
                user_id=TEAMS["T0100"][2],
                response_url=url,
                team_id="T0100",
                channel_id=TEAMS["T0100"][0],
            )
            events = f"http://127.0.0.1:{port[0]}/slack/events"
            assert signed_request(events, command_body(payload), SECRET) == (200, b"")
            answer = fake.wait_response(url, timeout=20)
            assert answer.get("response_type") == "ephemeral", answer
        finally:
            stop_and_reap(process)
            reader.join(timeout=10)
            assert process.stderr is not None
            process.stderr.close()
        stderr = "".join(lines)
        # Bolt's own file stores stay off, and nothing went wrong on the way.
        assert "file-based" not in stderr and " ERROR " not in stderr, stderr
        assert process.returncode == 0, stderr
        assert "serving Slack workspace T0100" in stderr
        for secret in (*fake.tokens("T0100"), CLIENT_SECRET, key, SECRET):
            assert secret not in stderr
