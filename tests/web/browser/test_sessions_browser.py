"""The sessions page in headless chromium, signed in: reached from the channel's page, the
hostile place inert text that fits a phone's width, and the calendar link serving a feed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from bot.config.settings import Settings
from bot.config.web import WebSettings
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive_serve import archive_wsgi
from bot.web.server import HttpService
from bot.web.signin import signer as make_signer
from tests.web.archive_data import seed
from tests.web.meetings_data import PUBLIC_NAME, T1, Clock, add_meetings

KEY = b"a sign-in key of thirty-two bytes"


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The archive with meetings alone on a loopback port, sign-in on: its base URL and a
    sign-in path."""
    url = f"sqlite:///{tmp_path_factory.mktemp('sessions') / 'paperclub.db'}"
    upgrade_url(url=url)
    seed(url=url)
    database = Database(url=url)
    add_meetings(database=database)
    settings = Settings(database_url=url, web=WebSettings(signin_key=KEY))
    signer, clock = make_signer(settings=settings), Clock()
    assert signer is not None
    app = archive_wsgi(
        uow=database,
        settings=settings,
        clock=clock,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    server = HttpService(routes={"/": app}, host="127.0.0.1", port=0)
    server.start()
    try:
        link = urlsplit(signer.link(workspace=T1, now=clock.now()))
        path = link.path.removeprefix("/archive")  # the signer's base: HTTP mode's /archive
        yield f"http://127.0.0.1:{server.port}", f"{path}?{link.query}"
    finally:
        server.stop()
        database.dispose()


def test_the_sessions_page_from_the_channel_on_a_phone(page: Any, signed: tuple[str, str]) -> None:
    base, signin = signed
    page.set_viewport_size({"width": 375, "height": 700})
    alerts: list[str] = []
    page.on("dialog", lambda dialog: alerts.append(dialog.message))
    page.goto(base + signin)
    page.goto(f"{base}/channel/{PUBLIC_NAME}")
    page.click("a#sessions")
    page.wait_for_url(f"**/channel/{PUBLIC_NAME}/sessions")
    assert page.locator("h1").inner_text() == f"Sessions of #{PUBLIC_NAME}"
    places = page.locator("#ahead li .place").all_inner_texts()
    assert len(places) == 12 and places[0].startswith("📍 <!channel> @everyone <@U1> <script>")
    assert page.locator("main script").count() == 0 and not alerts
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, "the 10,000-character place widens the page"
    href = page.locator("a#calendar").get_attribute("href")
    feed = page.request.get(base + urlsplit(href).path.removeprefix("/archive"))
    assert feed.status == 200 and feed.headers["content-type"].startswith("text/calendar")
    assert feed.text().split("\r\n").count("BEGIN:VEVENT") == 12
