"""The settings checked as a whole: a platform set up by halves is named (and `paperclub run`
refuses it with a non-zero exit, never a quiet console), misspelt names get the closest known
one, and .env.example lists exactly the settings the bot reads."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config.settings import VARIABLES, Settings, load_settings

ROOT = Path(__file__).resolve().parents[1]


def _load(tmp_path: Path, **env: str) -> Settings:
    """Settings from exactly these variables (no .env)."""
    return load_settings(environ=env, env_file=tmp_path / ".env")


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"SLACK_BOT_TOKEN": "xoxb-1-2"}, ["SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"]),
        ({"SLACK_APP_TOKEN": "xapp-1-2"}, ["SLACK_BOT_TOKEN"]),
        ({"SLACK_SIGNING_SECRET": "s" * 32}, ["SLACK_BOT_TOKEN"]),
        ({"DISCORD_CHANNEL": "1100000000000000200"}, ["DISCORD_TOKEN"]),
        (
            {"SLACK_CLIENT_ID": "1.2", "SLACK_CLIENT_SECRET": "x" * 20, "PAPERCLUB_SECRET_KEY": ""},
            None,  # the key's own check speaks first (a ConfigError at load)
        ),
    ],
)
def test_a_platform_set_up_by_halves_names_what_is_missing(
    tmp_path: Path, env: dict[str, str], named: list[str] | None
) -> None:
    if named is None:
        with pytest.raises(ValueError, match="PAPERCLUB_SECRET_KEY"):
            _load(tmp_path, **env)
        return
    (problem,) = _load(tmp_path, **env).incomplete
    assert all(name in problem for name in named), problem


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"SLACK_BOT_TOKEN": "xoxb-1-2", "SLACK_APP_TOKEN": "xapp-1-2"},
        {"SLACK_BOT_TOKEN": "xoxb-1-2", "SLACK_SIGNING_SECRET": "s" * 32},
        {"DISCORD_TOKEN": "abc.def.ghi", "DISCORD_CHANNEL": "1100000000000000200"},
        {"SLACK_BOT_TOKEN": "", "DISCORD_CHANNEL": ""},  # empty is unset
    ],
)
def test_whole_or_absent_platforms_are_complete(tmp_path: Path, env: dict[str, str]) -> None:
    settings = _load(tmp_path, **env)
    assert settings.incomplete == ()
    assert settings.unknown == ()


def test_a_misspelt_name_is_warned_about_with_the_closest_known_one(tmp_path: Path) -> None:
    settings = _load(
        tmp_path,
        SLACK_BOT_TOKEN="xoxb-1-2",
        SLACK_APP_TOKN="xapp-1-2",
        PAPERCLUB_TIMEZON="Europe/Berlin",
        PAPERCLUB_WHATEVER_ELSE="1",
        HOME_TOWN="not ours",
    )
    assert settings.unknown == (
        "PAPERCLUB_TIMEZON is set but Paper Club reads no such setting; "
        "did you mean PAPERCLUB_TIMEZONE?",
        "PAPERCLUB_WHATEVER_ELSE is set but Paper Club reads no such setting",
        "SLACK_APP_TOKN is set but Paper Club reads no such setting; did you mean SLACK_APP_TOKEN?",
    )
    # The misspelling is why Slack is half set up, and the error says so.
    (problem,) = settings.incomplete
    assert "SLACK_APP_TOKN is set: a misspelling of SLACK_APP_TOKEN?" in problem
    assert settings.timezone == "UTC"  # the misspelt value is not used


def test_a_misspelt_name_in_dotenv_is_warned_about_too(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKN=abc\n")
    settings = load_settings(environ={}, env_file=tmp_path / ".env")
    assert settings.unknown == (
        "DISCORD_TOKN is set but Paper Club reads no such setting; did you mean DISCORD_TOKEN?",
    )


def test_env_example_lists_exactly_the_settings_read_each_with_a_comment() -> None:
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    names = [m.group(1) for line in lines if (m := re.match(r"^([A-Z_]+)=", line))]
    assert sorted(names) == sorted(VARIABLES)
    assert len(names) == len(set(names))
    for n, line in enumerate(lines):
        if re.match(r"^[A-Z_]+=", line):
            assert lines[n - 1].startswith("# ") and len(lines[n - 1]) > 10, line
    # Loaded as a .env, it is a valid configuration: every value empty, so every default.
    settings = load_settings(environ={}, env_file=ROOT / ".env.example")
    assert settings.unknown == () and settings.incomplete == ()


def _run(*, tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`python -m bot run` with only these settings, to its end."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    base = {k: v for k, v in base.items() if not k.startswith("DISCORD_")}
    return subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=base
        | {"PYTHONPATH": str(ROOT), "PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'c.db'}"}
        | env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_run_refuses_half_a_slack_set_up_instead_of_running_the_console(tmp_path: Path) -> None:
    done = _run(tmp_path=tmp_path, env={"SLACK_BOT_TOKEN": "xoxb-1-2", "SLACK_APP_TOKN": "x"})
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode) is missing" in (
        done.stderr
    )
    assert "did you mean SLACK_APP_TOKEN?" in done.stderr  # the warning came first
    assert "Paper Club" not in done.stdout  # no console banner
    assert not (tmp_path / "c.db").exists()  # refused before anything was opened
