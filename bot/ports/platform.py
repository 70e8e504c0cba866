"""The ports to the outside world: a chat platform, paper metadata, and the clock."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.domain import (
    PaperCard,
    PaperDraft,
    PostedMessage,
)


class Clock(Protocol):
    """Where "now" comes from, so tests and the scheduler decide what time it is."""

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        ...


class ChatError(Exception):
    """A platform refused or failed a call; `posted_nothing` is True only when it surely did not
    post (so retrying cannot double a message)."""

    def __init__(self, *, code: str, hint: str, posted_nothing: bool) -> None:
        """Keep the platform's error code and a hint for the operator."""
        super().__init__(f"{code}: {hint}")
        self.code = code
        self.hint = hint
        self.posted_nothing = posted_nothing


class Chat(Protocol):
    """What the core asks of a chat platform."""

    def post_paper(self, *, channel: str, card: PaperCard) -> PostedMessage:
        """Post a daily paper, carrying its post id and date as message metadata."""
        ...

    def find_post(self, *, channel: str, post_id: int, since: datetime) -> PostedMessage | None:
        """Look in the channel's history for a daily post with this id (after a crash)."""
        ...

    def send_notice(self, *, channel: str, text: str) -> str | None:
        """Say something to the whole channel; the message ts when the platform has one."""
        ...

    def is_admin(self, *, user: str) -> bool:
        """Whether the platform says this user administers the workspace."""
        ...

    def update_post(self, *, channel: str, ts: str, card: PaperCard) -> None:
        """Redraw a daily post (its vote counts changed)."""
        ...

    def display_name(self, *, user: str) -> str:
        """How to call a person in a message (their display name, else the id)."""
        ...


class LookupFailed(Exception):
    """A metadata service could not be asked (no network, timeout, an error answer)."""


class PaperLookup(Protocol):
    """Where a paper's metadata comes from when only its id is known."""

    def by_arxiv_id(self, *, arxiv_id: str) -> PaperDraft | None:
        """The paper with this canonical arXiv id, or None when there is none."""
        ...

    def by_doi(self, *, doi: str) -> PaperDraft | None:
        """The paper with this DOI, or None when there is none."""
        ...
