"""The store's part for names: what the platform calls each channel and person, kept so the
web archive can show #general and display names where the archive holds only ids."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.domain import ChannelKey, WorkspaceKey

CHANNEL = "channel"
PERSON = "person"


@dataclass(frozen=True, slots=True)
class NameWanted:
    """A channel's or a person's name the archive lacks (or holds for over a day), with the
    channel to ask about it in (a person is asked about through a channel they spoke in)."""

    channel: ChannelKey
    kind: str  # CHANNEL or PERSON
    external_id: str


class NamesStore(Protocol):
    """Names by workspace, kind (CHANNEL, PERSON) and the platform's id."""

    def record_names(
        self, *, workspace: WorkspaceKey, kind: str, names: Mapping[str, str], now: datetime
    ) -> None:
        """Keep these names (id to name; "" where the platform could not say), asked `now`."""
        ...

    def names_in(self, *, workspace: WorkspaceKey, kind: str) -> dict[str, str]:
        """Every known name of this kind in the workspace, by id (unknown ones left out)."""
        ...

    def names_wanted(self, *, platform: str, before: datetime, limit: int) -> list[NameWanted]:
        """Channels followed on the platform, and people who voted, commented or presented a
        session there, whose name was never asked or last asked before `before`; channels
        first, at most `limit`."""
        ...
