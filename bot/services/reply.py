"""What a command answers: a neutral message, and what the caller must do next."""

from __future__ import annotations

from dataclasses import dataclass

from bot.messages import Message, as_plain


@dataclass(frozen=True, slots=True)
class Reply:
    """A message for the person who asked; `reschedule` when the scheduler must be rebuilt;
    `reconcile` when a read-back was asked for (the reconciler is woken); `sync` when a Zotero
    link was connected, tested or resumed (the sync is woken: its first pass at once);
    `summary`, a plain one-line version for notifications where the message is long."""

    message: Message
    reschedule: bool = False
    reconcile: bool = False
    sync: bool = False
    summary: str | None = None

    @property
    def text(self) -> str:
        """The reply as plain text (notifications, logs, tests)."""
        return self.summary if self.summary is not None else as_plain(message=self.message)


@dataclass(frozen=True, slots=True)
class ClickAnswer:
    """What a button on a message the bot keeps up to date did (a tray's decision, an RSVP):
    the answer for the person who clicked, the message redrawn (None when it did not change: a
    stale or forged button), and the message's id as the channel got it (None until noted),
    for an edge that redraws it elsewhere than the click."""

    reply: Reply
    redrawn: Message | None = None
    posted: str | None = None
