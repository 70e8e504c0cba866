"""Settings: defaults, .env, validation that names the variable, and the README listing them."""

from __future__ import annotations

import re
from datetime import time
from pathlib import Path

import pytest

from bot.config.settings import VARIABLES, ConfigError, load_settings

ROOT = Path(__file__).resolve().parents[1]


def _load(tmp_path: Path, **env: str):  # type: ignore[no-untyped-def]
    """Settings from exactly these variables, with no .env unless the test writes one."""
    return load_settings(environ=env, env_file=tmp_path / ".env")


def test_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    settings = _load(tmp_path)
    assert settings.slack_api_url == "https://slack.com/api/"
    assert settings.database_url == f"sqlite:///{tmp_path / 'paperclub.db'}"
    assert settings.post_time == time(9, 0)
    assert settings.timezone == "UTC"
    assert settings.days == frozenset({1, 2, 3, 4, 5})
    assert settings.admins == ()
    assert settings.http_port == 3000
    assert not settings.has_slack


def test_values_are_parsed(tmp_path: Path) -> None:
    settings = _load(
        tmp_path,
        SLACK_BOT_TOKEN="xoxb-1-2",
        SLACK_API_URL="http://127.0.0.1:9/api",
        PAPERCLUB_POST_TIME="7:30",
        PAPERCLUB_TIMEZONE="Europe/Berlin",
        PAPERCLUB_DAYS="mon,wed,fri",
        PAPERCLUB_ADMINS="U1AAA, U2BBB",
        PAPERCLUB_HTTP_PORT="8080",
        PAPERCLUB_CHANNEL="C0123ABCD",
        PAPERCLUB_DATABASE_URL="postgres://u:p@db/x",
    )
    assert settings.has_slack
    assert settings.slack_api_url == "http://127.0.0.1:9/api/"
    assert settings.post_time == time(7, 30)
    assert settings.days == frozenset({1, 3, 5})
    assert settings.admins == ("U1AAA", "U2BBB")
    assert settings.http_port == 8080
    assert settings.database_url == "postgresql+psycopg://u:p@db/x"


def test_dotenv_is_read_and_environment_wins(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("PAPERCLUB_TIMEZONE=Asia/Tokyo\nPAPERCLUB_HTTP_PORT=4000\n")
    settings = load_settings(environ={"PAPERCLUB_HTTP_PORT": "5000"}, env_file=tmp_path / ".env")
    assert settings.timezone == "Asia/Tokyo"
    assert settings.http_port == 5000


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("PAPERCLUB_POST_TIME", "25:00"),
        ("PAPERCLUB_POST_TIME", "nine"),
        ("PAPERCLUB_TIMEZONE", "Mars/Olympus"),
        ("PAPERCLUB_DAYS", "someday"),
        ("PAPERCLUB_ADMINS", "ana"),
        ("PAPERCLUB_HTTP_PORT", "99999"),
        ("PAPERCLUB_CHANNEL", "#general"),
        ("SLACK_BOT_TOKEN", "xapp-wrong-kind"),
        ("SLACK_APP_TOKEN", "xoxb-wrong-kind"),
        ("SLACK_API_URL", "slack.com"),
        ("PAPERCLUB_DATABASE_URL", "paperclub.db"),
        ("PAPERCLUB_LOG_LEVEL", "LOUD"),
        ("DISCORD_TOKEN", "Bot abc.def"),
        ("DISCORD_API_URL", "discord.com/api/v10"),
        ("DISCORD_GATEWAY_URL", "https://gateway.discord.gg"),
        ("DISCORD_CHANNEL", "#general"),
    ],
)
def test_errors_name_the_variable(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        _load(tmp_path, **{name: value})


def test_tokens_never_in_repr(tmp_path: Path) -> None:
    settings = _load(
        tmp_path,
        SLACK_BOT_TOKEN="xoxb-secret-1",
        SLACK_SIGNING_SECRET="s3cr3t",
        DISCORD_TOKEN="MTEw.discord-secret",
    )
    assert "xoxb-secret-1" not in repr(settings)
    assert "s3cr3t" not in repr(settings)
    assert "discord-secret" not in repr(settings)


def test_discord_settings(tmp_path: Path) -> None:
    defaults = _load(tmp_path)
    assert defaults.discord_token is None
    assert defaults.discord_api_url == "https://discord.com/api/v10"
    assert defaults.discord_gateway_url == "wss://gateway.discord.gg/"
    settings = _load(
        tmp_path,
        DISCORD_TOKEN="MTEw.x.y",
        DISCORD_API_URL="http://127.0.0.1:9/api/v10/",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9/gateway",
        DISCORD_CHANNEL="1100000000000000200",
    )
    assert settings.discord_token == "MTEw.x.y"
    assert settings.discord_api_url == "http://127.0.0.1:9/api/v10"
    assert settings.discord_gateway_url == "ws://127.0.0.1:9/gateway"
    assert settings.discord_channel == "1100000000000000200"


def test_settings_are_frozen(tmp_path: Path) -> None:
    settings = _load(tmp_path)
    with pytest.raises(AttributeError):
        settings.timezone = "Europe/Paris"  # type: ignore[misc]


def test_readme_lists_every_variable() -> None:
    readme = (ROOT / "README.md").read_text()
    listed = set(re.findall(r"^\|\s*`([A-Z_]+)`", readme, flags=re.MULTILINE))
    assert set(VARIABLES) <= listed, f"missing from README: {sorted(set(VARIABLES) - listed)}"
    assert listed <= set(VARIABLES), f"README lists unknown: {sorted(listed - set(VARIABLES))}"


def test_no_module_reads_a_variable_config_does_not_know() -> None:
    source = "\n".join(p.read_text() for p in (ROOT / "bot").rglob("*.py"))
    used = set(re.findall(r'"((?:SLACK|DISCORD|PAPERCLUB)_[A-Z_]+)"', source))
    assert used <= set(VARIABLES), sorted(used - set(VARIABLES))


@pytest.mark.parametrize("name", ["PAPERCLUB_ZOTERO_SYNC", "PAPERCLUB_SOURCES_POLL"])
@pytest.mark.parametrize("text", ["0", "x", "86401", "nan"])
def test_seconds_out_of_range_are_refused_naming_the_variable(
    name: str, text: str, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError, match=rf"^{name} must be seconds \(1-86400\), got '{text}'"):
        load_settings(environ={name: text}, env_file=tmp_path / "none", cwd=tmp_path)


def test_zotero_settings_are_read_once() -> None:
    settings = load_settings(
        environ={
            "PAPERCLUB_ZOTERO_API_URL": "http://127.0.0.1:9/zotero/",
            "PAPERCLUB_ZOTERO_SYNC": "90",
        },
        env_file=Path("/nonexistent/.env"),
    )
    assert (settings.zotero_api, settings.zotero_sync_seconds) == (
        "http://127.0.0.1:9/zotero",
        90.0,
    )
    with pytest.raises(ConfigError, match=r"^PAPERCLUB_ZOTERO_API_URL must be an http"):
        load_settings(
            environ={"PAPERCLUB_ZOTERO_API_URL": "ftp://x"}, env_file=Path("/nonexistent/.env")
        )
