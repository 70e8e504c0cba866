"""Run on the terminal: the embedded database, the sample list, today's paper, a prompt."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from types import FrameType

from rich.console import Console as RichConsole

from bot import ingest
from bot.config import Settings
from bot.console.chat import CHANNEL, ConsoleChat
from bot.console.render import paper_panel
from bot.console.repl import HINT, PLATFORM, Console, handle_line, todays_post
from bot.db.store import Database
from bot.ports import Clock
from bot.runner import default_schedule, make_lookup, make_poster, start_scheduler
from bot.services import importing, posting

SAMPLE = Path(__file__).resolve().parent / "data" / "reading-list.txt"


def _stop(_signum: int, _frame: FrameType | None) -> None:
    """SIGTERM leaves like Ctrl-C does."""
    raise KeyboardInterrupt


def seed_if_empty(*, database: Database, clock: Clock, say: ConsoleChat) -> None:
    """A fresh archive gets the sample reading list, and the user is told."""
    with database(write=False) as store:
        if store.max_position() > 0:
            return
    drafts, _ = ingest.parse(path=str(SAMPLE), text=SAMPLE.read_text(encoding="utf-8"))
    report = importing.import_drafts(
        uow=database, drafts=drafts, now=clock.now(), added_by="sample"
    )
    say.say(text=f"The archive was empty, so I imported the sample reading list: "
                 f"{report.added} papers from `{SAMPLE.name}`.")  # fmt: skip


def run_console(*, settings: Settings, database: Database, clock: Clock) -> int:
    """Post today's paper to the terminal, then read what the user types until Ctrl-D."""
    terminal = RichConsole(highlight=False)
    chat = ConsoleChat(console=terminal)
    poster = make_poster(database=database, chat=chat, platform=PLATFORM)
    defaults = default_schedule(settings=settings)
    with database() as store:
        store.add_channel_if_missing(
            platform=PLATFORM, team_id="", channel_id=CHANNEL, schedule=defaults
        )
    terminal.print(f"[bold]Paper Club[/bold] on the console (#{CHANNEL}). {HINT}")
    seed_if_empty(database=database, clock=clock, say=chat)
    result = posting.post_today(poster=poster, channel_id=CHANNEL, now=clock.now(), force=True)
    if result.outcome is posting.Outcome.ALREADY and result.post is not None:
        found = posting.card_of_post(uow=database, platform=PLATFORM, post_id=result.post.id)
        if found is not None:
            terminal.print("Today's paper (already posted):")
            terminal.print(paper_panel(card=found[1], channel=CHANNEL))
    scheduler = start_scheduler(poster=poster, database=database, clock=clock)

    def reschedule() -> None:
        """A schedule changed: rebuild the jobs."""
        with database(write=False) as store:
            scheduler.rebuild(channels=store.channels())

    app = Console(uow=database, chat=chat, poster=poster, clock=clock, defaults=defaults,
                  on_reschedule=reschedule, lookup=make_lookup(settings=settings))  # fmt: skip
    signal.signal(signal.SIGTERM, _stop)
    try:
        while True:
            handle_line(app=app, line=input("you> "))
    except (EOFError, KeyboardInterrupt):
        print(file=sys.stderr)
    finally:
        scheduler.shutdown()
    post = todays_post(app=app)
    where = "today's thread" if post else "the archive"
    terminal.print(f"Bye. Everything is saved in {where}; `paperclub export` shows it.")
    return 0
