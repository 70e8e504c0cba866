"""ports.Chat on a terminal: the channel is #console and the person typing is its admin."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Sequence
from datetime import datetime

from rich.console import Console
from rich.text import Text

from bot.console.render import paper_panel, runs_text, to_rich
from bot.domain import ChannelKey, PaperCard, PostedMessage
from bot.messages import Buttons, Message, message
from bot.ports.platform import ChannelNames, PostAttempt, Posted
from bot.wording import console as console_words
from bot.wording import post as words

PLATFORM = "console"
CHANNEL = "console"
USER = "console"
KEY = ChannelKey(platform=PLATFORM, workspace="", channel=CHANNEL)


class ConsoleChat:
    """Prints what a chat would show; message ids are made up, increasing."""

    def __init__(self, *, console: Console) -> None:
        """Print to this rich console (one lock: the scheduler prints from its own thread)."""
        self.console = console
        self._lock = threading.Lock()
        self._seq = itertools.count(1)
        self._posted: dict[int, PostedMessage] = {}
        # The buttons of the last thing said (action -> value): the person presses one by
        # typing its word, so only the latest answer's buttons can be pressed.
        self.pressable: dict[str, str] = {}

    def new_id(self) -> str:
        """A fresh, increasing message id."""
        return f"{int(time.time())}.{next(self._seq):06d}"

    def try_post(self, *, channel: ChannelKey, card: PaperCard) -> PostAttempt:
        """Show the daily post (a terminal never fails to)."""
        with self._lock:
            self.console.print(paper_panel(card=card, channel=channel.channel))
        posted = PostedMessage(message_id=self.new_id(), permalink=None)
        self._posted[card.post_id] = posted
        return Posted(message=posted)

    def pause(self, *, seconds: float) -> None:
        """Wait between two attempts (never asked for: no attempt fails here)."""
        time.sleep(seconds)

    def find_post(
        self,
        *,
        channel: ChannelKey,
        post_id: int,
        since: datetime | None,
        card: PaperCard | None = None,
    ) -> PostedMessage | None:
        """A terminal keeps no history beyond this run."""
        return self._posted.get(post_id)

    def send_notice(self, *, channel: ChannelKey, message: Message) -> str | None:
        """Say something to the channel."""
        self.say(message=message)
        return self.new_id()

    def send_direct(self, *, channel: ChannelKey, user: str, message: Message) -> str | None:
        """Say something to the one person at the terminal, marked as meant for them alone."""
        with self._lock:  # the two together: another thread's output never comes between
            self.console.print(Text(console_words.DIRECT_FOR_YOU, style="bold"))
            self._show(message=message)
        return self.new_id()

    def find_notice(self, *, channel: ChannelKey, message: Message, since: datetime) -> str | None:
        """Nothing to find: a terminal's history is this process, whose notices never fail
        (nothing said here is left unnoted but by a crash, which takes the terminal with it)."""
        return None

    def say(self, *, message: Message) -> None:
        """Print a message."""
        with self._lock:
            self._show(message=message)

    def _show(self, *, message: Message) -> None:
        """Print a message and make its buttons the pressable ones (the caller holds the
        lock)."""
        self.console.print(to_rich(message=message))
        self.pressable = {
            button.action: button.value
            for block in message.blocks
            if isinstance(block, Buttons)
            for button in block.buttons
        }

    def is_admin(self, *, channel: ChannelKey, user: str) -> bool:
        """The person at the terminal runs the place."""
        return True

    def is_private(self, *, channel: ChannelKey) -> bool:
        """The terminal is one person's: what is said here is found only here."""
        return True

    def names_of(self, *, channel: ChannelKey, people: Sequence[str]) -> ChannelNames:
        """The terminal's one channel and one person go by their ids."""
        return ChannelNames(channel=channel.channel, people={p: p for p in people})

    def update_post(self, *, channel: ChannelKey, message_id: str, card: PaperCard) -> None:
        """Votes changed: show the new counts."""
        changed = words.votes_changed(
            up=card.votes.up, down=card.votes.down, title=card.paper.title
        )
        with self._lock:
            self.console.print(runs_text(runs=changed))

    def notice(self, *, text: str) -> None:
        """Say one plain line of the console's own."""
        self.say(message=message(text))
