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
    when = post[4] if post else None
    # Without a highlighted snippet (filters only): the abstract's first words, or the title.
    lead = " ".join(paper.abstract.split()[:SNIPPET_TOKENS]) or paper.title
    return SearchHit(
        paper=paper,
        snippet=comment[1] if comment else snippet or lead,
        from_comment=comment is not None,
        score=hit.text_score + hit.comment_score,
        comment_user=comment[2] if comment else None,
        channel=ChannelKey(platform=post[1], workspace=post[2], channel=post[3]) if post else None,
        post_date=date.fromisoformat(when) if isinstance(when, str) else when,
        permalink=post[5] if post else None,
        votes=VoteCount(up=post[6], down=post[7]) if post else VoteCount(),
        comments=post[8] if post else 0,
    )


def paper_of(*, row: Any) -> Paper:
    """A paper from a raw row (SQLite hands back JSON and timestamps as text)."""
    authors, added_at = row[3], row[9]
    authors = json.loads(authors) if isinstance(authors, str) else authors
    added_at = datetime.fromisoformat(added_at) if isinstance(added_at, str) else added_at
    return Paper(
        id=row[0],
        title=row[1],
        abstract=row[2],
        authors=tuple(authors or ()),
        url=row[4],
        arxiv_id=row[5],
        doi=row[6],
        source=row[7],
        added_by=row[8],
        added_at=utc(value=added_at),
        position=row[10],
        status=PaperStatus(row[11]),
        queue_channel_id=row[12],
        title_derived=bool(row[13]),
        list_id=row[14],
    )
