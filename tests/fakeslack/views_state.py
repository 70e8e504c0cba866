"""What the fake remembers of surfaces: each person's published Home, opened modals, and the
trigger ids it handed out with interactions (each good for one views.open)."""

from __future__ import annotations

import copy
import itertools
import uuid
from dataclasses import dataclass, field

from .model import JsonDict


@dataclass
class Views:
    """Surfaces of one workspace; the Workspace's lock guards every use."""

    homes: dict[str, JsonDict] = field(default_factory=dict)
    published: list[tuple[str, JsonDict]] = field(default_factory=list)
    opened: list[tuple[str, JsonDict]] = field(default_factory=list)
    triggers: dict[str, str] = field(default_factory=dict)
    exchanged: set[str] = field(default_factory=set)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def new_id(self) -> str:
        """A view id like Slack's: V and ten upper-case alphanumerics."""
        return f"V{next(self._ids):010d}"

    def issue_trigger(self, user: str) -> str:
        """A trigger id for an interaction by `user`, as Slack puts in a payload."""
        trigger = f"{next(self._ids)}.1.{uuid.uuid4().hex[:24]}"
        self.triggers[trigger] = user
        return trigger

    def home_of(self, user: str) -> JsonDict | None:
        """A copy of the Home last published to a person."""
        view = self.homes.get(user)
        return copy.deepcopy(view) if view is not None else None
