"""The console as a platform plug-in: the embedded archive, the sample list, today's paper and a
prompt, on the same services and scheduler as every platform."""

from __future__ import annotations

import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from threading import Event

from rich.console import Console as RichConsole

from bot import ingest
from bot.config.settings import Settings
from bot.console.chat import CHANNEL, KEY, PLATFORM, USER, ConsoleChat
from bot.console.prompt import opened_reader
from bot.console.render import paper_panel, to_rich
from bot.console.repl import Console, handle_line, todays_post
from bot.messages import Message
from bot.services import importing, post_card, posting
from bot.services.club import Club
from bot.wording import console as words

NAME = PLATFORM
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "reading-list.txt"


def configured(*, settings: Settings) -> bool:
    """The console needs nothing; it runs when no other platform is configured."""
    return True


def missing(*, settings: Settings, mode: str) -> list[str]:
    """Nothing is ever missing."""
    return []


@dataclass
class ConsolePlatform:
    """The terminal: prints posts and replies, reads what the person types."""

    app: Console
    terminal: RichConsole

    @property
    def name(self) -> str:
        """Channel keys say "console"."""
        return NAME

    @property
    def chat(self) -> ConsoleChat:
        """Prints to the terminal."""
        return self.app.chat

    def render(self, *, message: Message) -> str:
        """The message as the terminal shows it, styles aside."""
        return to_rich(message=message).plain

    def serve(self, *, stop: Event) -> None:
        """Read lines until Ctrl-D, Ctrl-C or SIGTERM, then say goodbye. SIGTERM sets `stop`
        (the runner's handler), which both readers watch between keys: raised from the handler
        instead, a KeyboardInterrupt could land anywhere (a command half run, the goodbye), and
        the process ended "interrupted", status 130, instead of leaving cleanly."""
        signal.signal(signal.SIGINT, signal.default_int_handler)
        with opened_reader(terminal=self.terminal) as reader:
            try:
                while True:
                    handle_line(app=self.app, line=reader.read_line(prompt="you> ", stop=stop))
            except (EOFError, KeyboardInterrupt):
                print(file=sys.stderr)
        where = "today's thread" if todays_post(app=self.app) else "the archive"
        self.chat.say(message=words.goodbye(where=where))

    def close(self) -> None:
        """Nothing to let go of."""


def seed_if_empty(*, club: Club, chat: ConsoleChat) -> None:
    """A fresh archive gets the sample reading list, and the user is told."""
    with club.uow() as store:
        # Resolved first: the console takes over papers imported before its first start.
        store.workspace_id(workspace=KEY.workspace_key, claim=True)
        if store.max_position(workspace=KEY.workspace_key) > 0:
            return
    drafts, _ = ingest.parse(path=str(SAMPLE), text=SAMPLE.read_text(encoding="utf-8"))
    report = importing.import_drafts(
        uow=club.uow,
        drafts=drafts,
        now=club.clock.now(),
        added_by="sample",
        workspace=KEY.workspace_key,
    )
    chat.say(message=words.seeded(added=report.added, name=SAMPLE.name))


def build(*, settings: Settings, club: Club, mode: str) -> ConsolePlatform:
    """The console on this process's terminal."""
    # No emoji codes and no highlighting: a title ":fire: [1]" is shown exactly as typed.
    return open_console(club=club, terminal=RichConsole(highlight=False, emoji=False))


def open_console(*, club: Club, terminal: RichConsole) -> ConsolePlatform:
    """Follow #console, seed an empty archive, and post today's paper (or show it again)."""
    chat = ConsoleChat(console=terminal)
    # The person at the terminal runs the place; a vote's new counts print before the prompt.
    room = club.on(chat=chat, platform=NAME, admins=(USER,), inline_redraw=True)
    club.follow(channel=KEY, private=True)
    chat.say(message=words.banner(channel=CHANNEL))
    seed_if_empty(club=club, chat=chat)
    club.enrich_next(KEY)  # the first post shows the real title and abstract when found
    result = room.post_today(channel=KEY, force=True)
    if result.outcome is posting.Outcome.ALREADY and result.post is not None:
        found = post_card.card_of_post(
            uow=club.uow, post_id=result.post.id, semantic_extra=club.semantic_extra
        )
        if found is not None:
            terminal.print(words.ALREADY_POSTED)
            terminal.print(paper_panel(card=found[1], channel=CHANNEL))
    return ConsolePlatform(app=Console(room=room, chat=chat), terminal=terminal)
