"""One headless Debian chromium per module, driven by Playwright over its pipe (never a browser
download), against the archive served on loopback; a failing test leaves a screenshot in
tests/web/screenshots/ (gitignored)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.config.settings import Settings
from bot.config.web import WebSettings
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.runtime.clock import SystemClock
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive_serve import archive_wsgi
from bot.web.server import HttpService
from tests.web.archive_data import Seeded, seed

SCREENSHOTS = Path(__file__).resolve().parents[1] / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# As the machine notes advise: no background traffic to Google, which this network refuses.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keep each phase's report on the test, so its page fixture knows it failed."""
    outcome: Any = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Seeded]]:
    """The seeded archive alone on a loopback port (its 'today' fixed), and its ids."""
    url = f"sqlite:///{tmp_path_factory.mktemp('archive') / 'paperclub.db'}"
    upgrade_url(url=url)
    ids = seed(url=url)
    with serving(url=url) as base:
        yield base, ids


@contextmanager
def serving(*, url: str) -> Iterator[str]:
    """The archive on the migrated, seeded database at `url`, alone on a loopback port (its
    'today' fixed to the seed's): its base URL."""
    from tests.web.archive_data import TODAY

    database = Database(url=url)
    settings = Settings(database_url=url, web=WebSettings(workspace="slack:T1"))

    class Fixed(SystemClock):
        """The clock of the seeded data's last day."""

        def now(self) -> Any:
            """Noon on that day."""
            from datetime import UTC, datetime, time

            return datetime.combine(TODAY, time(12), tzinfo=UTC)

    app = archive_wsgi(
        uow=database,
        settings=settings,
        clock=Fixed(),
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    server = HttpService(routes={"/": app}, host="127.0.0.1", port=0)
    server.start()
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()
        database.dispose()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless; a clean skip where it is not installed."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium fonts-noto-color-emoji)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page (its own context); on failure its screenshot is kept."""
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    opened = context.new_page()
    try:
        yield opened
    finally:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            SCREENSHOTS.mkdir(exist_ok=True)
            # A whole-page shot of a bare SVG document never settles: those get the viewport.
            svg = opened.url.endswith(".svg")
            opened.screenshot(
                path=str(SCREENSHOTS / f"{request.node.name}.png"),
                full_page=not svg,
                timeout=10_000,
            )
        context.close()
