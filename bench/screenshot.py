"""The README's screenshot of the web archive, from real-looking data:

    python -m bench.screenshot [--out docs/archive.png] [--keep DIR]

Loads the shipped reading list (bot/data/reading-list.txt) into a temporary archive, simulates
a month of a reading group on Slack (a daily post in #reading-group on weekdays and a few in
#ml-systems, votes and comments by people with plausible names, a mention or two), records
the names as the running bot would learn them, serves the archive on loopback and takes the
screenshot with Playwright driving Debian's chromium (/usr/bin/chromium; no browser download).
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from bot import ingest
from bot.config.settings import Settings
from bot.config.web import WebSettings
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.db.schema import ChannelRow, CommentRow, PaperRow, PostRow, VoteRow
from bot.domain import WorkspaceKey
from bot.ports.names import CHANNEL, PERSON
from bot.services import importing
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive_serve import archive_wsgi
from bot.web.server import HttpService

LIST = Path(__file__).resolve().parents[1] / "bot" / "data" / "reading-list.txt"
OUT = Path(__file__).resolve().parents[1] / "docs" / "archive.png"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
WORKSPACE = WorkspaceKey(platform="slack", id="T0READING")
TODAY = date(2026, 11, 30)
CHANNELS = {"C0READING": "reading-group", "C0SYSTEMS": "ml-systems"}
PEOPLE = {
    "U01MAYA": "Maya Chen",
    "U02JONAS": "Jonas Weber",
    "U03PRIYA": "Priya Raman",
    "U04TOMAS": "Tomás Ortega",
    "U05AMARA": "Amara Okafor",
    "U06LEO": "Leo Martin",
    "U07SOFIA": "Sofia Rossi",
    "U08KENJI": "Kenji Sato",
}
REMARKS = (
    "The ablation in section 4 is the part I'd present on Thursday.",
    "Does anyone know if the code is public? The speed-ups look too good.",
    "Nice pairing with last week's paper on pipeline schedules.",
    "<@U03PRIYA> this is the one you asked about in standup.",
    "I'm not convinced by the baseline: they tuned theirs and not the others.",
    "Skimmed it on the train. Figure 3 alone is worth the read.",
    "Could we do this one as a deep dive? I can lead it.",
    "Their memory numbers match what we saw on the A100s.",
    "+1, also see the follow-up from the same group, posted in <#C0SYSTEMS|ml-systems>.",
)


def build(*, url: str, seed: int = 30) -> None:
    """Import the reading list and simulate a month of posts, votes and comments."""
    upgrade_url(url=url)
    database = Database(url=url)
    try:
        drafts, _ = ingest.parse(path=str(LIST), text=LIST.read_text(encoding="utf-8"))
        start = datetime.combine(TODAY - timedelta(days=31), time(8), tzinfo=UTC)
        importing.import_drafts(uow=database, drafts=drafts, now=start, workspace=WORKSPACE)
        with database() as store:
            store.record_names(workspace=WORKSPACE, kind=CHANNEL, names=CHANNELS, now=start)
            store.record_names(workspace=WORKSPACE, kind=PERSON, names=PEOPLE, now=start)
    finally:
        database.dispose()
    _simulate(url=url, rng=random.Random(seed))


def _simulate(*, url: str, rng: random.Random) -> None:
    """A post per weekday in #reading-group, some in #ml-systems, with the group's activity."""
    engine = create_engine(url)
    try:
        with Session(engine) as s, s.begin():
            channels = {}
            for external_id in CHANNELS:
                row = ChannelRow(
                    platform=WORKSPACE.platform,
                    workspace=WORKSPACE.id,
                    external_id=external_id,
                    private=False,
                    post_time="09:30",
                    timezone="Europe/Berlin",
                    weekdays="mon,tue,wed,thu,fri",
                )
                s.add(row)
                channels[external_id] = row
            s.flush()
            papers = list(
                s.scalars(
                    select(PaperRow).where(PaperRow.status == "queued").order_by(PaperRow.position)
                )
            )
            days = [TODAY - timedelta(days=n) for n in range(30, -1, -1)]
            weekdays = [d for d in days if d.weekday() < 5]
            plan = [(d, channels["C0READING"]) for d in weekdays]
            plan += [(d, channels["C0SYSTEMS"]) for d in weekdays[1::3]]
            plan.sort(key=lambda item: item[0])
            plan = plan[-len(papers) :]  # the list is short: its papers fill the latest days
            for n, ((day, channel), paper) in enumerate(zip(plan, papers, strict=False)):
                _post(s=s, rng=rng, day=day, channel=channel, paper=paper, n=n)
    finally:
        engine.dispose()


def _post(*, s: Session, rng: random.Random, day: date, channel: Any, paper: Any, n: int) -> None:
    """One delivered post with its votes and comments."""
    paper.status = "posted"
    at = datetime.combine(day, time(8, 30), tzinfo=UTC)
    post = PostRow(
        paper_id=paper.id,
        channel_id=channel.id,
        local_date=day,
        state="posted",
        message_id=f"{int(at.timestamp())}.{n:06d}",
        permalink=f"https://readinggroup.slack.com/archives/{channel.external_id}/p{n}",
        created_at=at,
    )
    s.add(post)
    s.flush()
    people = list(PEOPLE)
    for user in rng.sample(people, rng.randint(1, 6)):
        value = 1 if rng.random() < 0.8 else -1
        when = at + timedelta(minutes=rng.randint(5, 600))
        s.add(VoteRow(post_id=post.id, user_id=user, value=value, updated_at=when))
    for k in range(rng.choice((0, 1, 1, 2, 3))):
        s.add(
            CommentRow(
                post_id=post.id,
                channel_id=channel.id,
                user_id=rng.choice(people),
                message_id=f"{int(at.timestamp()) + 60 * (k + 1)}.{n:06d}",
                text=rng.choice(REMARKS),
                created_at=at + timedelta(hours=k + 1),
            )
        )


def shoot(*, url: str, out: Path, width: int = 900, height: int = 1000) -> None:
    """Serve the archive on loopback and screenshot its home page."""
    from playwright.sync_api import sync_playwright

    from bot.runtime.clock import SystemClock

    class Fixed(SystemClock):
        """Noon on the simulated month's last day."""

        def now(self) -> datetime:
            """That noon."""
            return datetime.combine(TODAY, time(12), tzinfo=UTC)

    database = Database(url=url)
    settings = Settings(database_url=url, web=WebSettings(workspace=str(WORKSPACE)))
    server = HttpService(
        routes={
            "/": archive_wsgi(
                semantic_extra=NO_SEMANTIC,
                telemetry=Telemetry(),
                uow=database,
                settings=settings,
                clock=Fixed(),
            )
        },
        host="127.0.0.1",
        port=0,
    )
    server.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            try:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"http://127.0.0.1:{server.port}/")
                page.wait_for_load_state("load")
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out))
            finally:
                browser.close()
    finally:
        server.stop()
        database.dispose()


def main(argv: list[str] | None = None) -> None:
    """Build the month in a temporary archive (or --keep DIR) and write the screenshot."""
    parser = argparse.ArgumentParser(prog="python -m bench.screenshot", description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNG goes")
    parser.add_argument("--keep", type=Path, help="build the archive in this folder and keep it")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{folder / 'paperclub.db'}"
        print(f"building a month of the reading list in {folder} ...", flush=True)
        build(url=url)
        print(f"serving it and taking the screenshot with {CHROMIUM} ...", flush=True)
        shoot(url=url, out=args.out)
        print(f"wrote {args.out}", flush=True)


if __name__ == "__main__":
    main()
