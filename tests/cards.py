"""A typical paper and daily-post card, shared by every platform's rendering tests."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from typing import Any

from bot.domain import Paper, PaperCard, PaperStatus, Recap, VoteCount


def make_paper(**changes: Any) -> Paper:
    """A typical queued paper; keyword changes override fields."""
    paper = Paper(
        id=1,
        title="Attention Is All You Need",
        abstract="The dominant sequence transduction models are based on recurrent networks.",
        authors=("Ashish Vaswani", "Noam Shazeer", "Niki Parmar"),
        url="https://papers.example.org/attention",
        arxiv_id="1706.03762",
        doi="10.48550/arXiv.1706.03762",
        source="test",
        added_by="U123",
        added_at=datetime(2024, 5, 1, 9, 0),
        position=1,
        status=PaperStatus.QUEUED,
    )
    return replace(paper, **changes)


def make_card(*, recap_permalink: str, **changes: Any) -> PaperCard:
    """A card for post 42 with 3 up, 1 down, a recap of yesterday (its post at the platform's
    `recap_permalink`) and 5 more papers queued; keyword changes override fields."""
    card = PaperCard(
        paper=make_paper(),
        post_id=42,
        local_date=date(2024, 5, 2),
        votes=VoteCount(up=3, down=1),
        remaining=5,
        added_by_name="Ana",
        recap=Recap(
            title="BERT", permalink=recap_permalink, votes=VoteCount(up=3, down=1), comments=4
        ),
    )
    return replace(card, **changes)
