"""What a person's App Home shows of their own activity: their votes and comments."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from bot.domain import ChannelKey


@dataclass(frozen=True, slots=True)
class OwnVote:
    """One of a person's votes, with the paper's title and where and when it was posted."""

    channel: ChannelKey
    title: str
    local_date: date
    value: int
    at: datetime


@dataclass(frozen=True, slots=True)
class OwnComment:
    """One of a person's live comments, with the paper's title and where it was posted."""

    channel: ChannelKey
    title: str
    local_date: date
    text: str
    at: datetime
    edited: bool
