"""End to end in HTTP mode against the fake Slack: `/paperclub web` answers with a signed link,
and following it (on loopback) opens that workspace's archive under /archive."""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace

import pytest

from bot.config.settings import Settings
from bot.config.web import WebSettings
from tests.fakeslack import FakeSlack
from tests.slack.conftest import Harness, _running, fake, settings  # noqa: F401

PUBLIC = "https://club.example/archive"


@pytest.fixture
def signed_harness(fake: FakeSlack, settings: Settings, sqlite_url: str) -> Iterator[Harness]:  # noqa: F811
    """The bot in HTTP mode with sign-in links on."""
    web = WebSettings(signin_key=b"thirty-two bytes of sign-in key!", url=PUBLIC)
    yield from _running(mode="http", fake=fake, settings=replace(settings, web=web), url=sqlite_url)


def test_paperclub_web_link_opens_the_workspace_archive(signed_harness: Harness) -> None:
    """The ephemeral reply carries the link; its token signs a browser in at /archive."""
    shown = signed_harness.command("web")
    (url,) = re.findall(r"<(https://club\.example/archive/signin\?token=[^|>]+)\|", shown)
    local = url.replace(PUBLIC, f"http://127.0.0.1:{signed_harness.settings.http_port}/archive")
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    base = f"http://127.0.0.1:{signed_harness.settings.http_port}/archive"
    with pytest.raises(urllib.error.HTTPError) as refused:
        opener.open(base + "/api/", timeout=5)
    assert refused.value.code == 401
    refused.value.close()
    with opener.open(local, timeout=5) as answer:  # 302 to /archive/, the cookie kept
        assert answer.status == 200 and answer.url == base + "/"
    with opener.open(base + "/api/", timeout=5) as answer:
        assert json.loads(answer.read())["workspace"] == f"slack:{signed_harness.bot.team_id}"
