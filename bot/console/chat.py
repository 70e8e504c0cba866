"""ports.Chat on a terminal: the channel is #console and the person typing is its admin."""

from __future__ import annotations

import itertools
import threading
import time
from datetime import datetime

from rich.console import Console

from bot.console.render import mrkdwn_to_rich, paper_panel, votes_line
from bot.domain import PaperCard, PostedMessage

CHANNEL = "console"
USER = "console"


class ConsoleChat:
    """Prints what Slack would show; message timestamps are made up, increasing."""

    def __init__(self, *, console: Console) -> None:
        """Print to this rich console (one lock: the scheduler prints from its own thread)."""
        self.console = console
        self._lock = threading.Lock()
        self._seq = itertools.count(1)
        self._posted: dict[int, PostedMessage] = {}

    def new_ts(self) -> str:
        """A fresh, increasing message ts, Slack-shaped."""
        return f"{int(time.time())}.{next(self._seq):06d}"

    def post_paper(self, *, channel: str, card: PaperCard) -> PostedMessage:
        """Show the daily post."""
        with self._lock:
            self.console.print(paper_panel(card=card, channel=channel))
        message = PostedMessage(ts=self.new_ts(), permalink=None)
        self._posted[card.post_id] = message
        return message

    def find_post(self, *, channel: str, post_id: int, since: datetime) -> PostedMessage | None:
        """A terminal keeps no history beyond this run."""
        return self._posted.get(post_id)

    def send_notice(self, *, channel: str, text: str) -> str | None:
        """Say something to the channel."""
        self.say(text=text)
        return self.new_ts()

    def say(self, *, text: str) -> None:
        """Print a reply (Slack mrkdwn turned into terminal styles)."""
        with self._lock:
            self.console.print(mrkdwn_to_rich(text=text))

    def is_admin(self, *, user: str) -> bool:
        """The person at the terminal runs the place."""
        return True

    def update_post(self, *, channel: str, ts: str, card: PaperCard) -> None:
        """Votes changed: show the new counts."""
        self.say(text=f"{votes_line(votes=card.votes)} on “{card.paper.title}”")

    def display_name(self, *, user: str) -> str:
        """There is one person here."""
        return "you" if user == USER else user
