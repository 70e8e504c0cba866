"""A deployment's two choices: the archive listens on loopback only, or asks for a sign-in link;
it never answers the network with neither."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.config.web import WebSettings
from bot.web.signin import exposure
from tests.conftest import ROOT

KEY = b"k" * 32


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_loopback_needs_no_sign_in(host: str) -> None:
    assert exposure(host=host, settings=Settings()) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "10.0.0.5", "archive.example.org"])
def test_beyond_loopback_needs_a_sign_in_key(host: str) -> None:
    why = exposure(host=host, settings=Settings())
    assert why is not None and host in why and "PAPERCLUB_WEB_SIGNIN_KEY" in why
    assert exposure(host=host, settings=Settings(web=WebSettings(signin_key=KEY))) is None


def test_paperclub_web_refuses_to_answer_the_network_without_sign_in(
    sqlite_url: str, tmp_path: Path
) -> None:
    """One clear line and status 1, before anything listens."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "web", "--port", "0", "--host", "0.0.0.0"],
        env=base | {"PYTHONPATH": str(ROOT), "PAPERCLUB_DATABASE_URL": sqlite_url},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    refusal = "paperclub: the web archive would listen on 0.0.0.0 with no sign-in"
    assert done.stderr.startswith(refusal)
    assert "PAPERCLUB_WEB_SIGNIN_KEY" in done.stderr and "Traceback" not in done.stderr
