"""The web archive speaks names: channels and people as the platform calls them (learnt by the
minute sweep into the archive), mention markup as plain inert names, /channel/<name>."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from flask.testing import FlaskClient

from bot.db.database import Database
from bot.domain import ChannelKey, WorkspaceKey
from bot.ports.names import CHANNEL, PERSON
from bot.services import names
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive import archive_app
from tests.services.memory_chat import MemoryChat
from tests.web.archive_data import SCRIPT, TODAY, seed

T1 = WorkspaceKey(platform="slack", id="T1")
NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
PEOPLE = {"U9": "Ada Lovelace", "U8": "Grace <i>Hopper</i> 🧮", "U2": "Alan"}


@pytest.fixture
def named(any_url: str) -> Iterator[FlaskClient]:
    """The seeded archive with names recorded for workspace T1 (the private channel's too)."""
    seed(url=any_url)
    database = Database(url=any_url)
    with database() as store:
        store.record_names(
            workspace=T1,
            kind=CHANNEL,
            names={"CPUB": "general", "CPRIV": "secret-plans"},
            now=NOW,
        )
        store.record_names(workspace=T1, kind=PERSON, names=PEOPLE, now=NOW)
    try:
        yield archive_app(
            semantic_extra=NO_SEMANTIC,
            telemetry=Telemetry(),
            uow=database,
            today=lambda: TODAY,
            workspace="slack:T1",
        ).test_client()
    finally:
        database.dispose()


def _page(client: FlaskClient, path: str) -> str:
    """The body of a GET that must answer 200."""
    answer = client.get(path)
    assert answer.status_code == 200, path
    return answer.get_data(as_text=True)


def test_pages_show_names_not_ids(named: FlaskClient) -> None:
    """Home, a channel by its name (and still by its id), a paper's comments and search."""
    home = _page(named, "/")
    assert "#general" in home and "#CPUB" not in home
    assert 'href="/channel/general"' in home
    assert _page(named, "/channel/general").count("<li>") >= 20
    assert "<h1>#general</h1>" in _page(named, "/channel/CPUB")
    assert named.get("/channel/secret-plans").status_code == 404
    paper = _page(named, "/paper/1")
    assert "Ada Lovelace" in paper and ">U9<" not in paper
    assert "Grace &lt;i&gt;Hopper&lt;/i&gt; 🧮" in paper  # a name is text, escaped
    hits = _page(named, "/search?q=comment")
    assert "Ada Lovelace:" in hits and "#general" in hits
    for body in (home, paper, hits, _page(named, "/feed.atom")):
        assert "secret-plans" not in body


def test_mention_markup_becomes_plain_escaped_names(named: FlaskClient) -> None:
    """`<@U2>` in a comment reads @Alan; the comment's script stays text."""
    paper = _page(named, "/paper/1")
    assert "@Alan" in paper and "&lt;@U2&gt;" not in paper
    assert SCRIPT not in paper and "&lt;script&gt;" in paper
    shown = named.get("/api/paper/1").get_json()["posts"][0]["comments"]
    assert {c["name"] for c in shown} == {"Ada Lovelace", PEOPLE["U8"]}
    assert any(c["shown"].startswith("Comment") and "@Alan" in c["shown"] for c in shown)


def test_twins_keep_ids_and_add_names(named: FlaskClient) -> None:
    """JSON keeps `channel` as the id and adds `channel_name`; /api/channel/<name> works."""
    posts = named.get("/api/").get_json()["posts"]
    assert {(p["channel"], p["channel_name"]) for p in posts} == {("CPUB", "general")}
    found = named.get("/api/channel/general").get_json()
    assert found["channel"] == "CPUB" and found["name"] == "general"


def test_the_sweep_learns_names_once_a_day(sqlite_url: str) -> None:
    """names.learn asks the Chat for channels and for people who voted or commented, records
    them, and asks nothing more until a day has passed."""
    seed(url=sqlite_url)
    database = Database(url=sqlite_url)
    chat = MemoryChat()
    asked: list[tuple[ChannelKey, tuple[str, ...]]] = []
    answer = chat.names_of

    def names_of(*, channel: ChannelKey, people: list[str]) -> object:
        asked.append((channel, tuple(people)))
        return answer(channel=channel, people=people)

    chat.names_of = names_of  # type: ignore[method-assign]
    try:
        total = 0
        while count := names.learn(uow=database, chat=chat, platform="slack", now=NOW):
            total += count
        assert total >= 3 + 4  # three channels; U0, U1, U2, U8, U9 in each workspace
        assert names.learn(uow=database, chat=chat, platform="slack", now=NOW) == 0
        with database(write=False) as store:
            assert store.names_in(workspace=T1, kind=CHANNEL)["CPUB"] == "name-CPUB"
            assert store.names_in(workspace=T1, kind=PERSON)["U9"] == "Name of U9"
        asked.clear()
        later = NOW + timedelta(days=1, minutes=1)
        assert names.learn(uow=database, chat=chat, platform="slack", now=later) > 0
        assert asked
    finally:
        database.dispose()
