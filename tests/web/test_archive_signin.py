"""Sign-in mode: `/paperclub web` hands out an expiring signed link; the archive lets in only
its bearer, shows the workspace it names, and answers a tampered or expired link with a 401."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient

from bot.db.database import Database
from bot.domain import ChannelKey, WorkspaceKey
from bot.messages import Link
from bot.services import web_links
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.services.web_links import Signer
from bot.web.archive import archive_app
from tests.web.archive_data import TODAY, seed

KEY = b"a sign-in key of thirty-two bytes"
START = datetime(2026, 11, 30, 12, tzinfo=UTC)
T1 = WorkspaceKey(platform="slack", id="T1")
T2 = WorkspaceKey(platform="slack", id="T2")


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        """Start at START."""
        self.at = START

    def now(self) -> datetime:
        """The time now."""
        return self.at


@pytest.fixture
def signed(sqlite_url: str) -> Iterator[tuple[FlaskClient, Signer, Clock]]:
    """An archive requiring sign-in, its signer and its clock."""
    seed(url=sqlite_url)
    database = Database(url=sqlite_url)
    signer, clock = Signer(key=KEY, base="http://127.0.0.1/archive", minutes=60), Clock()
    app = archive_app(
        uow=database,
        today=lambda: TODAY,
        signer=signer,
        now=clock.now,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    try:
        yield app.test_client(), signer, clock
    finally:
        database.dispose()


def _path(*, signer: Signer, workspace: WorkspaceKey, now: datetime) -> str:
    """The signed link's path and query, for the test client."""
    return signer.link(workspace=workspace, now=now).removeprefix(signer.base)


def test_without_a_link_every_page_is_401(signed: tuple[FlaskClient, Signer, Clock]) -> None:
    """Pages, twins and the feed refuse a visitor with no link, saying how to get one."""
    client, _, _ = signed
    for path in ("/", "/paper/1", "/search?q=x", "/feed.atom", "/charts/weeks.svg"):
        answer = client.get(path + "?workspace=slack:T1")
        assert answer.status_code == 401, path
        assert "/paperclub web" in answer.get_data(as_text=True)
    assert client.get("/api/").get_json()["error"].endswith("in your workspace.")


def test_a_link_signs_in_to_its_own_workspace(signed: tuple[FlaskClient, Signer, Clock]) -> None:
    """The link sets a cookie and goes home; the visitor sees the link's workspace only,
    whatever ?workspace= says."""
    client, signer, _ = signed
    answer = client.get(_path(signer=signer, workspace=T2, now=START))
    assert answer.status_code == 302 and answer.headers["Location"] == "/"
    assert "HttpOnly" in answer.headers["Set-Cookie"]
    latest = client.get("/api/?workspace=slack:T1").get_json()
    assert latest["workspace"] == "slack:T2"
    assert [post["title"] for post in latest["posts"]] == ["Otherworkspace paper of another team"]


def test_tampered_and_expired_links_are_401(signed: tuple[FlaskClient, Signer, Clock]) -> None:
    """A changed workspace or signature does not work; a link past its hour has expired."""
    client, signer, clock = signed
    good = signer.token(workspace=T2, now=START)
    for bad in (good.replace("T2", "T1"), good[:-1] + ("0" if good[-1] != "0" else "1"), "x"):
        page = client.get(f"/signin?token={bad}")
        assert page.status_code == 401 and "does not work" in page.get_data(as_text=True)
    assert client.get(f"/signin?token={good}").status_code == 302
    assert client.get("/").status_code == 200
    clock.at = START + timedelta(minutes=61)
    page = client.get("/")
    assert page.status_code == 401 and "expired" in page.get_data(as_text=True)
    assert client.get(f"/signin?token={good}").status_code == 401


def test_paperclub_web_replies_with_a_link_to_the_askers_workspace() -> None:
    """`/paperclub web` gives a link that opens the asker's workspace, or says there is none."""
    here = ChannelKey(platform="slack", workspace="T1", channel="C1")
    assert "no sign-in links" in web_links.reply(channel=here, now=START, signer=None).text
    signer = Signer(key=KEY, base="https://club.example/archive")
    reply = web_links.reply(channel=here, now=START, signer=signer)
    (link,) = [
        run
        for block in reply.message.blocks
        for run in getattr(block, "runs", ())
        if isinstance(run, Link)
    ]
    assert link.url.startswith("https://club.example/archive/signin?token=")
    token = unquote(link.url.split("token=")[1])
    assert signer.check(token=token, now=START) == T1
