"""The club scenario's console: one person types, the two others' commands go through the
console's Room as themselves; a terminal keeps no ids, so a poll, a result or a direct message
is its place among the printed ones."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.console.chat import KEY as CONSOLE_KEY
from bot.console.chat import USER as CONSOLE_USER
from bot.console.repl import handle_line
from bot.wording import console as console_words
from bot.wording.polls import RESULTS
from tests.sessions.club_support import HandedOn
from tests.sessions.rooms import ConsoleMeeting

# The lines a poll and its result start with (bot/wording/polls), and a swap's ask.
POLL_MARK = "🗳️ Choose the paper"
RESULT_MARKS = ("🏆 The group chose", "🗳️ Nobody voted")


def _console_parts(*, text: str, marks: tuple[str, ...]) -> list[tuple[int, str]]:
    """The terminal's text from each line starting with one of `marks` up to the next line
    that starts a message of the scenario's (a part is one message and what followed it)."""
    every = (POLL_MARK, *RESULT_MARKS, "🔁 ", console_words.DIRECT_FOR_YOU)
    parts: list[tuple[int, list[str]]] = []
    at = 0
    for line in text.splitlines(keepends=True):
        if line.startswith(every):
            parts.append((at, []))
        if parts:
            parts[-1][1].append(line)
        at += len(line)
    return [(start, "".join(lines)) for start, lines in parts if lines[0].startswith(marks)]


@dataclass
class ConsoleClub(HandedOn):
    """The console: its one person is the admin; the two others' commands go through the
    console's Room as themselves (a terminal has one typist, the club three members)."""

    room: ConsoleMeeting
    others: tuple[str, str] = ("ada", "cy")
    # Where the terminal printed the answers to commands: a poll shown by /paperclub poll is
    # not one the sweep posted.
    answers: list[tuple[int, int]] = field(default_factory=list)

    @property
    def people(self) -> tuple[str, str, str]:
        return (CONSOLE_USER, *self.others)

    def say(self, text: str, *, user: str) -> str:
        """`/paperclub TEXT` typed (the console's person), else run as that person."""
        start = len(self._text())
        if user == CONSOLE_USER:
            self.room.command(text)
        else:
            app = self.room.base.platform.app
            reply = app.room.command(channel=CONSOLE_KEY, user=user, text=text)
            app.chat.say(message=reply.message)
        self.answers.append((start, len(self._text())))
        return self._text()[start:]

    def _text(self) -> str:
        return self.room.base.raw.getvalue()

    def _sent(self, *, marks: tuple[str, ...]) -> list[str]:
        """The printed messages starting with `marks` that no command's answer holds."""
        return [
            part
            for at, part in _console_parts(text=self._text(), marks=marks)
            if not any(start <= at < end for start, end in self.answers)
        ]

    def polls(self) -> list[str]:
        """A terminal keeps no ids: each poll is its place among the printed ones."""
        return [str(n) for n in range(len(self._sent(marks=(POLL_MARK,))))]

    def results(self) -> list[str]:
        return [str(n) for n in range(len(self._sent(marks=RESULT_MARKS)))]

    def shown(self, *, message_id: str, result: bool = False) -> str:
        return self._sent(marks=RESULT_MARKS if result else (POLL_MARK,))[int(message_id)]

    def vote(self, *, message_id: str, numbers: tuple[int, ...], user: str) -> str:
        """The buttons stand for `/paperclub poll 1 2`, typed (as the poll says)."""
        assert "/paperclub poll " in self.shown(message_id=message_id)
        return self.say("poll " + " ".join(map(str, numbers)), user=user)

    def see_votes(self, *, message_id: str, user: str) -> str:
        """The result's "See the votes" is typed /paperclub poll."""
        assert console_words.TYPED_ANSWERS[RESULTS] in self.shown(
            message_id=message_id, result=True
        )
        return self.say("poll", user=user)

    def accept_swap(self, *, user: str) -> str:
        """Type the command the last swap's ask printed."""
        assert user == CONSOLE_USER
        [typed] = re.findall(r"/paperclub swap accept \d+", self._text())[-1:]
        start = len(self._text())
        handle_line(app=self.room.base.platform.app, line=typed)
        self.answers.append((start, len(self._text())))
        return self._text()[start:]

    def directs(self, *, user: str) -> list[str] | None:
        """A terminal's direct messages are all its one person's: not told apart."""
        return None

    def all_directs(self) -> list[str]:
        return [
            p for _, p in _console_parts(text=self._text(), marks=(console_words.DIRECT_FOR_YOU,))
        ]

    def harmful(self, *, message_id: str, typed: str, result: bool = False) -> list[str]:
        """`typed` when no printed line of the message holds it whole (nothing pings here)."""
        lines = self.shown(message_id=message_id, result=result).splitlines()
        return [] if any(typed in line for line in lines) else [typed]
