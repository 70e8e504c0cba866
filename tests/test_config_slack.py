"""Distribution settings: all three together, a real Fernet key, never a secret in a message."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config.settings import ConfigError, load_settings
from bot.sealing import new_key

KEY, OLD = new_key(), new_key()
BASE = {
    "SLACK_CLIENT_ID": "1111.2222",
    "SLACK_CLIENT_SECRET": "shh-secret",
    "SLACK_SIGNING_SECRET": "sign",
    "PAPERCLUB_SECRET_KEY": f"{KEY}, {OLD}",
}


NO_ENV_FILE = Path("/nonexistent/paperclub/.env")  # only the variables each test gives


def test_distribution_is_read_with_its_keys_newest_first() -> None:
    environ = {**BASE, "SLACK_API_URL": "http://127.0.0.1:9/api/"}
    settings = load_settings(environ=environ, env_file=NO_ENV_FILE)
    oauth = settings.slack_distribution
    assert oauth is not None and oauth.client_id == "1111.2222"
    assert oauth.secret_keys == (KEY, OLD)
    assert oauth.authorize_url == "http://127.0.0.1:9/oauth/v2/authorize"
    assert settings.slack_configured and not settings.has_slack
    assert {"shh-secret", KEY, OLD} <= set(settings.secrets)  # the log filter redacts them
    assert "shh-secret" not in repr(settings) and KEY not in repr(settings)


def test_without_a_client_id_nothing_changes() -> None:
    environ = {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"}
    settings = load_settings(environ=environ, env_file=NO_ENV_FILE)
    assert settings.slack_distribution is None and settings.slack_configured


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"SLACK_CLIENT_SECRET": ""}, "SLACK_CLIENT_SECRET"),
        ({"SLACK_CLIENT_ID": ""}, "SLACK_CLIENT_ID"),
        ({"SLACK_CLIENT_ID": "abc"}, "SLACK_CLIENT_ID"),
        ({"PAPERCLUB_SECRET_KEY": ""}, "PAPERCLUB_SECRET_KEY"),
        ({"PAPERCLUB_SECRET_KEY": "not-a-key-but-long-enough-to-be-a-secret-xx"}, "key 1"),
        ({"PAPERCLUB_SECRET_KEY": f"{KEY},{KEY[:-2]}"}, "key 2"),
        ({"SLACK_BOT_TOKEN": "xoxb-1"}, "SLACK_BOT_TOKEN"),
    ],
)
def test_a_bad_combination_names_the_variable(changes: dict[str, str], named: str) -> None:
    values = {k: v for k, v in {**BASE, **changes}.items() if v}
    with pytest.raises(ConfigError, match=named) as caught:
        load_settings(environ=values, env_file=NO_ENV_FILE)
    for secret in ("shh-secret", KEY, OLD, changes.get("PAPERCLUB_SECRET_KEY") or "@@"):
        for part in secret.split(","):
            assert part not in str(caught.value)
