"""What a command answers: a neutral message, and what the caller must do next."""

from __future__ import annotations

from dataclasses import dataclass

from bot.messages import Message, as_plain


@dataclass(frozen=True, slots=True)
class Reply:
    """A message for the person who asked; `reschedule` when the scheduler must be rebuilt;
    `reconcile` when a read-back was asked for (the reconciler is woken); `summary`, a plain
    one-line version for notifications where the message is long."""

    message: Message
    reschedule: bool = False
    reconcile: bool = False
    summary: str | None = None

    @property
    def text(self) -> str:
        """The reply as plain text (notifications, logs, tests)."""
        return self.summary if self.summary is not None else as_plain(message=self.message)
