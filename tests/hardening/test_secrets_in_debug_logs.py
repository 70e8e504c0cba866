"""Secrets never in logs, at DEBUG, whoever logs them: a Slack OAuth install and a Discord slash
command run through the fakes with every library's debug logging on (slack_bolt, slack_sdk,
discord.py, urllib3, waitress) and the process's own log set-up, and the captured log holds none
of the planted secrets: the OAuth one-time code, the client secret, the bot tokens, the
interaction token."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import time as clock_time
from urllib.parse import parse_qs, urlsplit

import pytest

import bot.discord  # noqa: F401  (first: discord.py's audioop warning)
from bot.config.settings import Settings
from bot.db.database import Database
from bot.discord import endpoints
from bot.runtime.logs import configure_logging
from tests.discord.conftest import running
from tests.fakediscord import FakeDiscord
from tests.services.conftest import load_sample
from tests.slack.conftest import free_port
from tests.slack.distribution import CLIENT_SECRET, browser_get, deployed

LIBRARIES = ("slack_bolt", "slack_sdk", "discord", "urllib3", "waitress", "bot")


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """The root logger's handlers and the libraries' levels as they were, after the test."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    levels = {name: logging.getLogger(name).level for name in LIBRARIES}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, was in levels.items():
        logging.getLogger(name).setLevel(was)


def _configure(*, secrets: tuple[str, ...]) -> None:
    """configure_logging as `paperclub run` calls it, with the libraries at DEBUG."""
    configure_logging(level="DEBUG", secrets=secrets)
    for name in LIBRARIES:
        logging.getLogger(name).setLevel(logging.DEBUG)


def test_a_slack_oauth_install_at_debug_logs_no_code_token_or_secret(
    sqlite_url: str, restore_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    for d in deployed(url=sqlite_url):
        _configure(secrets=d.wiring.settings.secrets)
        d.fake.sign_in("T0100")
        status, headers, _ = browser_get(f"http://127.0.0.1:{d.port}/slack/install")
        cookie = headers["Set-Cookie"].split(";", 1)[0]
        status, consent, _ = browser_get(headers["Location"])
        redirect = consent["Location"]
        (code,) = parse_qs(urlsplit(redirect).query)["code"]
        status, _, page = browser_get(redirect, cookie=cookie)
        assert status == 200 and "Thank you!" in page
        (token,) = d.fake.tokens("T0100")
    log = capsys.readouterr().err
    assert "oauth.v2.access" in log or "oauth_redirect" in log  # the libraries did log
    assert "DEBUG" in log
    for secret in (code, token, CLIENT_SECRET):
        assert secret not in log, secret
    # Part of the code is not enough to leak it either: its random half is nowhere.
    assert code.split(".")[-1] not in log


def test_a_discord_interaction_at_debug_logs_no_interaction_or_bot_token(
    sqlite_url: str, restore_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    urls = endpoints.current()
    database = Database(url=sqlite_url)
    load_sample(database)
    try:
        with FakeDiscord() as fake:
            settings = Settings(
                discord_token=fake.token,
                discord_api_url=fake.api_url,
                discord_gateway_url=fake.gateway_url,
                discord_channel=fake.channel_id,
                database_url=sqlite_url,
                post_time=clock_time(9, 0),
                timezone="Europe/Berlin",
                days=frozenset(range(1, 6)),
                arxiv_api_url=f"http://127.0.0.1:{free_port()}/api/query",
                crossref_api_url=f"http://127.0.0.1:{free_port()}",
                lookup_timeout=1,
            )
            _configure(secrets=settings.secrets)
            for harness in running(fake=fake, settings=settings, database=database):
                record = fake.slash("paperclub", "queue", None)
                answer = harness.answer(record.id)
                assert answer["content"] or answer.get("embeds")
                interaction_token = record.token
    finally:
        database.dispose()
        endpoints.point_at(api_url=urls[0], gateway_url=urls[1])
    log = capsys.readouterr().err
    assert "discord" in log and "DEBUG" in log
    assert interaction_token not in log
    assert fake.token not in log
