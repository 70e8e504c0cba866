"""What every archive answer carries (security headers, a Secure cookie over TLS), paging that
never fails on a hostile ?offset=, abstracts on lists and in the feed, and Most voted by score."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from datetime import UTC, datetime

import feedparser
import pytest
from flask.testing import FlaskClient

from bot.db.database import Database
from bot.domain import WorkspaceKey
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.services.web_links import Signer
from bot.web.archive import archive_app
from tests.web.archive_data import LONG, TODAY, seed

PATHS = ("/", "/api/", "/paper/1", "/search?q=x", "/feed.atom", "/charts/weeks.svg", "/nope")


@pytest.fixture
def client(sqlite_url: str) -> Iterator[FlaskClient]:
    """An open archive on the seeded data, showing workspace T1."""
    seed(url=sqlite_url)
    database = Database(url=sqlite_url)
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


def test_every_answer_carries_the_security_headers(client: FlaskClient) -> None:
    """CSP without script and with framing refused, nosniff, DENY, a referrer policy and a
    cache policy, on pages, JSON, the feed, charts and a 404 alike."""
    for path in PATHS:
        headers = client.get(path).headers
        csp = headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp, path
        assert "script-src" not in csp and "unsafe-inline" not in csp, path
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["X-Frame-Options"] == "DENY", path
        assert headers["Referrer-Policy"] == "no-referrer", path
        assert headers["Cache-Control"] == "no-cache", path


def test_the_inline_style_is_the_one_the_policy_allows(client: FlaskClient) -> None:
    """The page's only inline content is its style sheet, whose hash is in the CSP."""
    answer = client.get("/")
    page = answer.get_data(as_text=True)
    assert "<script" not in page and " style=" not in page and " on" not in page.lower()
    styles = re.findall(r"<style>(.*?)</style>", page, flags=re.S)
    assert len(styles) == 1
    digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in answer.headers["Content-Security-Policy"]
    assert "prefers-color-scheme:dark" in styles[0] and "system-ui" in styles[0]


@pytest.mark.parametrize("offset", [str(2**63), str(2**64), "9" * 5000, "-1", "abc", "1e9", "٣"])
def test_a_hostile_offset_never_fails(client: FlaskClient, offset: str) -> None:
    """Huge, negative and non-numeric offsets clamp: an empty or first page, never a 500."""
    for path in ("/", "/api/", "/search?q=transformers", "/api/search?q=transformers"):
        glue = "&" if "?" in path else "?"
        answer = client.get(f"{path}{glue}offset={offset}")
        assert answer.status_code == 200, (path, offset)


def test_most_voted_ranks_by_score_then_up_then_comments(sqlite_url: str) -> None:
    """👍 minus 👎 first: a post with 👍0 👎1 ranks below the ones nobody voted on."""
    seed(url=sqlite_url)
    database = Database(url=sqlite_url)
    try:
        with database(write=False) as store:
            page = store.public_posts(
                workspace=WorkspaceKey(platform="slack", id="T1"),
                channel_id=None,
                since=None,
                by_votes=True,
                limit=100,
                offset=0,
            )
    finally:
        database.dispose()
    keys = [(p.votes.up - p.votes.down, p.votes.up, p.comments) for p in page.posts]
    assert keys == sorted(keys, reverse=True)
    assert keys[0][0] > 0 and keys[-1] == (-1, 0, 2) and (0, 0, 2) in keys


def test_lists_show_clipped_abstracts_and_the_feed_carries_them(client: FlaskClient) -> None:
    """A list shows each abstract's opening; the feed's entries carry it, escaped."""
    home = client.get("/?offset=0").get_data(as_text=True)
    assert 'class="abstract"' in home and "Abstract of paper 0 about transformers." in home
    twin = client.get("/api/?offset=20").get_json()["posts"]
    assert [p["abstract"] for p in twin if p["title"] == "Long abstract transformers"] == [
        LONG + "THE-END"
    ]  # the JSON twin has it whole
    older = client.get("/?offset=20").get_data(as_text=True)
    assert "Long abstract transformers" in older and "THE-END" not in older
    assert "word word …" in older  # clipped, on a word
    feed = feedparser.parse(client.get("/feed.atom").get_data())
    summaries = [e.summary for e in feed.entries]
    assert any("Abstract of paper" in s for s in summaries)
    script = client.get("/feed.atom").get_data(as_text=True)
    assert "<script>" not in script


def test_the_cookie_is_secure_behind_a_trusted_tls_proxy(sqlite_url: str) -> None:
    """X-Forwarded-Proto: https makes the cookie Secure only when the proxy is trusted."""
    seed(url=sqlite_url)
    database = Database(url=sqlite_url)
    signer = Signer(key=b"a sign-in key of thirty-two bytes", base="https://x/archive", minutes=60)
    at = datetime(2026, 11, 30, 12, tzinfo=UTC)
    path = signer.link(workspace=WorkspaceKey(platform="slack", id="T1"), now=at)
    path = path.removeprefix(signer.base)
    try:
        for trusted, expected in ((True, True), (False, False)):
            app = archive_app(
                semantic_extra=NO_SEMANTIC,
                telemetry=Telemetry(),
                uow=database,
                today=lambda: TODAY,
                signer=signer,
                now=lambda: at,
                trust_proxy=trusted,
            )
            answer = app.test_client().get(path, headers={"X-Forwarded-Proto": "https"})
            assert answer.status_code == 302
            assert ("Secure" in answer.headers["Set-Cookie"]) is expected
            assert answer.headers["Cache-Control"] == "no-store"
        direct = app.test_client().get(path, base_url="https://localhost")
        assert "Secure" in direct.headers["Set-Cookie"]
    finally:
        database.dispose()


@pytest.mark.parametrize(("text", "trusted"), [(None, False), ("1", True), ("off", False)])
def test_trust_proxy_is_read_as_a_yes_or_no(text: str | None, trusted: bool) -> None:
    """PAPERCLUB_TRUST_PROXY: 1/true/yes/on or 0/false/no/off; anything else names itself."""
    from bot.config.web import web_settings

    values = {} if text is None else {"PAPERCLUB_TRUST_PROXY": text}
    assert web_settings(get=values.get, error=ValueError).trust_proxy is trusted
    with pytest.raises(ValueError, match="PAPERCLUB_TRUST_PROXY"):
        web_settings(get={"PAPERCLUB_TRUST_PROXY": "maybe"}.get, error=ValueError)
