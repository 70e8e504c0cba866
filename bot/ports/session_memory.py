"""The Store's part for what stays of a session after it (issue 33): members' ratings (was it
worth it, was the discussion good) and the links added to it (notes, slides).

A member has one rating a session, with one answer to each question (None: not answered),
changeable. Links are kept in the order added, each once a session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from bot.domain import ChannelKey
from bot.domain.ratings import RatingCount

# The two questions: whether the session was worth it, whether the discussion was good.
Question = Literal["worth", "discussion"]


@dataclass(frozen=True, slots=True)
class Rating:
    """A member's answers to a session's two questions (None: not answered)."""

    worth: bool | None = None
    discussion: bool | None = None


@dataclass(frozen=True, slots=True)
class SessionLink:
    """A link added to a session (its notes, its slides): who added it and when (UTC)."""

    url: str
    added_by: str
    added_at: datetime


class SessionMemoryStore(Protocol):
    """Sessions' ratings and links."""

    def rate_session(
        self, *, session_id: int, user: str, question: Question, answer: bool, now: datetime
    ) -> bool:
        """A member's answer to one question of a session (the other answer kept); whether
        it changed."""
        ...

    def ratings(self, *, session_id: int) -> Mapping[str, Rating]:
        """Every member's rating of a session, by user id."""
        ...

    def rated_papers(self, *, channel: ChannelKey) -> Mapping[int, RatingCount]:
        """The papers the channel's sessions' polls chose, with those sessions' ratings
        counted (papers of sessions nobody rated are left out)."""
        ...

    def add_session_link(self, *, session_id: int, url: str, user: str, now: datetime) -> bool:
        """Add a link to a session; False when the session has it already."""
        ...

    def session_links(self, *, session_id: int) -> list[SessionLink]:
        """A session's links, oldest first."""
        ...
