"""Search's rows as domain values: a ranked candidate, a paper read raw, one hit."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from bot.db.convert import utc
from bot.db.search_sql import SNIPPET_TOKENS
from bot.domain import ChannelKey, Paper, PaperStatus, SearchHit, VoteCount
from bot.domain.semantic import Ranked

# A candidate: its text score, its best comment's score and that comment (the core fuses them).
Scored = Ranked


def hit_of(*, hit: Scored, paper: Paper, post: Any, comment: Any, snippet: str | None) -> SearchHit:
    """One SearchHit from the rows read for it."""
    when = post["local_date"] if post else None
    # Without a highlighted snippet (filters only): the abstract's first words, or the title.
    lead = " ".join(paper.abstract.split()[:SNIPPET_TOKENS]) or paper.title
    return SearchHit(
        paper=paper,
        snippet=comment["snippet"] if comment else snippet or lead,
        from_comment=comment is not None,
        score=hit.text_score + hit.comment_score,
        comment_user=comment["user_id"] if comment else None,
        channel=ChannelKey(
            platform=post["platform"], workspace=post["workspace"], channel=post["channel"]
        )
        if post
        else None,
        post_date=date.fromisoformat(when) if isinstance(when, str) else when,
        permalink=post["permalink"] if post else None,
        votes=VoteCount(up=post["up"], down=post["down"]) if post else VoteCount(),
        comments=post["comments"] if post else 0,
    )


def paper_of(*, row: Any) -> Paper:
    """A paper from a raw row (SQLite hands back JSON and timestamps as text)."""
    authors, added_at = row["authors"], row["added_at"]
    authors = json.loads(authors) if isinstance(authors, str) else authors
    added_at = datetime.fromisoformat(added_at) if isinstance(added_at, str) else added_at
    return Paper(
        id=row["id"],
        title=row["title"],
        abstract=row["abstract"],
        authors=tuple(authors or ()),
        url=row["url"],
        arxiv_id=row["arxiv_id"],
        doi=row["doi"],
        source=row["source"],
        added_by=row["added_by"],
        added_at=utc(value=added_at),
        position=row["position"],
        status=PaperStatus(row["status"]),
        queue_channel_id=row["queue_channel_id"],
        title_derived=bool(row["title_derived"]),
        list_id=row["list_id"],
    )
