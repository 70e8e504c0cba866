"""The archive of a simulated month (bench.screenshot's data: the shipped reading list, names
as the bot learns them) in headless chromium: names, not ids; the headers; a 375 px phone."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench import screenshot
from bot.config.settings import Settings
from bot.config.web import WebSettings
from bot.db.database import Database
from bot.runtime.clock import SystemClock
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive_serve import archive_wsgi
from bot.web.server import HttpService


@pytest.fixture(scope="module")
def month(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The simulated month served on loopback: its base URL and its database URL."""
    url = f"sqlite:///{tmp_path_factory.mktemp('month') / 'paperclub.db'}"
    screenshot.build(url=url)
    database = Database(url=url)
    settings = Settings(database_url=url, web=WebSettings(workspace=str(screenshot.WORKSPACE)))

    class Fixed(SystemClock):
        """Noon on the month's last day."""

        def now(self) -> Any:
            """That noon."""
            from datetime import UTC, datetime, time

            return datetime.combine(screenshot.TODAY, time(12), tzinfo=UTC)

    app = archive_wsgi(
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        uow=database,
        settings=settings,
        clock=Fixed(),
    )
    server = HttpService(routes={"/": app}, host="127.0.0.1", port=0)
    server.start()
    try:
        yield f"http://127.0.0.1:{server.port}", url
    finally:
        server.stop()
        database.dispose()


IDS = re.compile(r"\b(?:U0\d[A-Z]+|C0(?:READING|SYSTEMS))\b")


def test_pages_show_names_not_ids(page: Any, month: tuple[str, str]) -> None:
    """Channels as #reading-group, comment authors by name, mentions as plain @names, on the
    home page, a channel reached by its name, the papers with comments, and search."""
    base, _ = month
    page.goto(base + "/")
    home = page.locator("main").inner_text()
    assert "#reading-group" in home and "#ml-systems" in home and not IDS.search(home)
    page.click("text=#ml-systems >> nth=0")
    page.wait_for_url("**/channel/ml-systems")
    assert page.locator("h1").inner_text() == "#ml-systems"
    twin = page.request.get(base + "/api/?offset=0").json()["posts"]
    talked = [p["paper_id"] for p in twin if p["comments"]]
    authors: set[str] = set()
    for paper_id in talked[:6]:
        page.goto(f"{base}/paper/{paper_id}")
        text = page.locator("main").inner_text()
        assert not IDS.search(text) and "<@" not in text and "<#" not in text, paper_id
        authors |= set(page.locator(".comment .author").all_inner_texts())
    assert authors and authors <= set(screenshot.PEOPLE.values())
    page.goto(base + "/search?q=standup")
    hits = page.locator("ol.posts").inner_text()
    assert "@Priya Raman this is the one" in hits
    assert not IDS.search(hits)


def test_every_answer_carries_the_security_headers(page: Any, month: tuple[str, str]) -> None:
    """Pages, JSON, the feed and charts: a CSP that refuses framing and scripts, nosniff,
    DENY, a referrer policy and a cache policy; the page's style applies under that CSP."""
    base, _ = month
    for path in ("/", "/api/", "/feed.atom", "/charts/weeks.svg", "/top/month", "/nope"):
        answer = page.goto(base + path)
        headers = answer.all_headers()
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["x-frame-options"] == "DENY", path
        assert headers["referrer-policy"] == "no-referrer", path
        assert headers["cache-control"], path
    page.goto(base + "/")
    font = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert font.startswith("system-ui")  # the inline style was allowed by its hash


def test_a_phone_width_fits_and_the_placeholder_shows(page: Any, month: tuple[str, str]) -> None:
    """At 375 px nothing scrolls sideways, and the search box is wide enough for its whole
    placeholder."""
    base, _ = month
    page.set_viewport_size({"width": 375, "height": 740})
    first = page.request.get(base + "/api/").json()["posts"][0]["paper_id"]
    for path in ("/", f"/paper/{first}", "/search?q=memory", "/top/month", "/channel/ml-systems"):
        page.goto(base + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, (path, width)
    box = page.locator("input[name=q]")
    needed = box.evaluate(
        """input => {
            const c = document.createElement('canvas').getContext('2d');
            const s = getComputedStyle(input);
            c.font = `${s.fontSize} ${s.fontFamily}`;
            return c.measureText(input.placeholder).width
                + parseFloat(s.paddingLeft) + parseFloat(s.paddingRight);
        }"""
    )
    assert box.evaluate("input => input.clientWidth") >= needed


def test_the_screenshot_script_writes_a_png(tmp_path: Path) -> None:
    """`python -m bench.screenshot` builds its month and writes the PNG (here to a temporary
    file; run bare, it rewrites docs/archive.png)."""
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(screenshot.CHROMIUM).is_file():
        pytest.skip(f"no chromium at {screenshot.CHROMIUM}")
    out = tmp_path / "archive.png"
    done = subprocess.run(
        [sys.executable, "-m", "bench.screenshot", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000
