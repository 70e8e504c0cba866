"""Votes on a post, counted: shared by the domain's modules."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class VoteCount:
    """Thumbs up and down on a post."""

    up: int = 0
    down: int = 0
