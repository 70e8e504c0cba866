"""The README's sample week of meetings on the console (issue 33), played on the real wiring
with the console printing to a recorded terminal: every line of the README's block is printed,
in order, so the README stays true."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console as RichConsole

from bot.config.settings import Settings
from bot.console.repl import handle_line
from bot.db.database import Database
from bot.db.migrate import upgrade
from tests.conftest import ROOT
from tests.console.on_wiring import console_on_wiring
from tests.slack.conftest import FakeClock, closed_lookups

README = ROOT / "README.md"
# Monday 1 March 2027, 09:00 in Berlin; the week's moments, UTC.
MONDAY = datetime(2027, 3, 1, 8, 0, tzinfo=UTC)
MOMENTS = {
    "mon": MONDAY,
    "mon 19:00": datetime(2027, 3, 1, 18, 0, tzinfo=UTC),  # the poll opens (3 days ahead)
    "wed 19:00": datetime(2027, 3, 3, 18, 0, tzinfo=UTC),  # it closes; the day-ahead reminder
    "thu 18:30": datetime(2027, 3, 4, 17, 30, tzinfo=UTC),  # half an hour ahead
}


def _readme_week() -> list[str]:
    """The lines of the README's sample week (its ```console-week block)."""
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```text\n(# meetings: a sample week\n.*?)```", text, re.S)
    assert block is not None, "the README's Meetings section lost its sample week"
    return [line for line in block.group(1).splitlines() if line.strip()]


def play(*, url: str) -> str:
    """The week: what the terminal printed."""
    database = Database(url=url)
    upgrade(engine=database.engine)
    raw = io.StringIO()
    terminal = RichConsole(file=raw, width=5000, highlight=False, emoji=False)
    clock = FakeClock(MOMENTS["mon"])
    settings = Settings(database_url=url, timezone="Europe/Berlin", **closed_lookups())
    with console_on_wiring(
        database=database, terminal=terminal, clock=clock, settings=settings
    ) as (wiring, platform):
        raw.truncate(0)
        raw.seek(0)
        for line in _readme_week():
            if line.startswith("# "):
                when = line.removeprefix("# ").split(":", 1)[0] if " — " not in line else ""
                moment = line.removeprefix("# ").split(" — ")[0]
                terminal.print(line)
                if moment in MOMENTS:
                    clock.at = MOMENTS[moment]
                    wiring.sweep()
                del when
            elif line.startswith("you> "):
                terminal.print(line)
                handle_line(app=platform.app, line=line.removeprefix("you> "))
    return raw.getvalue()


def test_the_readme_sample_week_is_what_the_console_prints(tmp_path: Path) -> None:
    printed = play(url=f"sqlite:///{tmp_path / 'club.db'}")
    lines = [line.rstrip() for line in printed.splitlines() if line.strip()]
    wanted = [line.rstrip() for line in _readme_week()]
    at = 0
    for line in wanted:
        assert line in lines[at:], f"not printed (in order): {line!r}\n---\n{printed}"
        at = lines.index(line, at) + 1
