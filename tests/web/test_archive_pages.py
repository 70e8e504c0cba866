"""The web archive through Flask's test client: pages, JSON twins, the feed, and privacy."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urljoin, urlsplit

import feedparser
import pytest
from flask.testing import FlaskClient

from bot.db.database import Database
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive import archive_app
from tests.web.archive_data import (
    LONG,
    OTHER_WORKSPACE,
    PRIVATE_COMMENT,
    PRIVATE_QUEUED,
    SCRIPT,
    TODAY,
    Seeded,
    seed,
)

NEVER = (
    PRIVATE_COMMENT.split()[0],
    PRIVATE_QUEUED.split()[0],
    OTHER_WORKSPACE.split()[0],
    "CPRIV",
    "COTHER",
)


@pytest.fixture
def archive(any_url: str) -> Iterator[tuple[FlaskClient, Seeded]]:
    """A test client on a seeded archive (SQLite, and PostgreSQL where present)."""
    ids = seed(url=any_url)
    database = Database(url=any_url)
    try:
        yield (
            archive_app(
                uow=database, today=lambda: TODAY, semantic_extra=NO_SEMANTIC, telemetry=Telemetry()
            ).test_client(),
            ids,
        )
    finally:
        database.dispose()


def _get(client: FlaskClient, path: str, status: int = 200) -> str:
    """The body of a GET, checking its status."""
    answer = client.get(path)
    assert answer.status_code == status, path
    return answer.get_data(as_text=True)


def test_several_workspaces_ask_which_one(archive: tuple[FlaskClient, Seeded]) -> None:
    """With two workspaces and none chosen, the page offers both; the API says so in JSON."""
    client, _ = archive
    page = _get(client, "/", 404)
    assert "slack:T1" in page and "slack:T2" in page
    assert client.get("/api/").get_json()["workspaces"] == ["slack:T1", "slack:T2"]


def test_json_twins(archive: tuple[FlaskClient, Seeded]) -> None:
    """Each page's twin carries the same view as data."""
    client, ids = archive
    latest = client.get("/api/?workspace=slack:T1").get_json()
    assert latest["workspace"] == "slack:T1" and len(latest["posts"]) == 20
    assert latest["total"] == ids.public_papers
    paper = client.get(f"/api/paper/{ids.long_paper}?workspace=slack:T1").get_json()
    assert paper["paper"]["abstract"] == LONG + "THE-END"
    (post,) = paper["posts"]
    assert post["permalink"].startswith("https://example.slack.com/archives/CPUB/")
    assert [c["user"] for c in post["comments"]] == ["U9", "U8"]
    assert len(paper["votes_over_time"]) == post["votes"]["up"] + post["votes"]["down"]
    found = client.get("/api/search?workspace=slack:T1&q=transformers&offset=10").get_json()
    assert found["offset"] == 10 and len(found["hits"]) == 10 and found["next_offset"] == 20
    script = client.get(f"/api/paper/{ids.script_paper}?workspace=slack:T1").get_json()
    assert script["paper"]["title"] == SCRIPT
    top = client.get("/api/top/year?workspace=slack:T1").get_json()
    nets = [p["votes"]["up"] - p["votes"]["down"] for p in top["posts"]]
    assert nets == sorted(nets, reverse=True)
    assert client.get("/api/top/decade?workspace=slack:T1").status_code == 404
    assert client.get("/api/channel/CPUB?workspace=slack:T1").get_json()["channel"] == "CPUB"


def test_pages_escape_markup_and_keep_whole_abstracts(archive: tuple[FlaskClient, Seeded]) -> None:
    """A hostile title and abstract come out as text; a 10,000-character abstract whole."""
    client, ids = archive
    page = _get(client, f"/paper/{ids.script_paper}?workspace=slack:T1")
    assert SCRIPT not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;!channel&gt;" in page and "😀" in page
    assert (LONG + "THE-END").strip() in _get(client, f"/paper/{ids.long_paper}?workspace=slack:T1")
    assert "(edited)" in _get(client, f"/paper/{ids.long_paper}?workspace=slack:T1")


def test_the_feed_is_atom(archive: tuple[FlaskClient, Seeded]) -> None:
    """The daily posts as Atom, parsed by feedparser, newest first, titles as text."""
    client, _ = archive
    parsed = feedparser.parse(_get(client, "/feed.atom?workspace=slack:T1"))
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10" and len(parsed.entries) == 20
    twin = client.get("/api/?workspace=slack:T1").get_json()["posts"]
    assert [entry.title for entry in parsed.entries] == [post["title"] for post in twin]
    assert all("📄" in entry.title for entry in parsed.entries[1:])
    dates = [entry.updated for entry in parsed.entries]
    assert dates == sorted(dates, reverse=True)


def test_private_content_is_on_no_page(archive: tuple[FlaskClient, Seeded]) -> None:
    """Walk every page the archive links to, every twin and the feed: nothing of the private
    channel or of the other workspace appears; asked for directly, it is not found."""
    client, ids = archive
    start = [
        "/",
        "/search?q=transformers",
        "/search?q=secretprivatecomment",
        "/search?q=privatequeued",
        "/search?q=otherworkspace",
        "/top/week",
        "/top/month",
        "/top/year",
        "/feed.atom",
        "/charts/weeks.svg",
        "/charts/calendar.svg",
    ]
    seen: set[str] = set()
    todo = [f"{path}{'&' if '?' in path else '?'}workspace=slack:T1" for path in start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        body = _get(client, path)
        assert not [word for word in NEVER if word in body], path
        for href in re.findall(r'(?:href|src)="([^"]+)"', body):
            target = urljoin(path, href.replace("&amp;", "&"))
            if not urlsplit(target).netloc and "offset=" not in target.split("workspace")[0]:
                todo.append(target)
            # Pages have a JSON twin; the .bib and .ris downloads they link to have none.
            file = urlsplit(target).path.endswith((".bib", ".ris"))
            if target.startswith(("/paper/", "/channel/", "/search", "/top/")) and not file:
                todo.append("/api" + target)
    assert len(seen) > 40
    for word in ("secretprivatecomment", "privatequeued", "otherworkspace"):
        answer = client.get(f"/api/search?workspace=slack:T1&q={word}").get_json()
        assert answer["total"] == 0, word
    for path in (
        f"/paper/{ids.private_queued}",
        f"/api/paper/{ids.private_queued}",
        "/channel/CPRIV",
        "/api/channel/CPRIV",
        "/channel/COTHER",
    ):
        assert client.get(path + "?workspace=slack:T1").status_code == 404, path
