"""Per-post tallies as subqueries to join on post_id: its 👍 and 👎 (`up`, `down`) and its live
comments (`n`). What /paperclub top, the web archive's best-voted pages and the suggestions'
group history all count by; a post with none has no row (join outer, coalesce to 0)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import case, func, select

from bot.db.schema import CommentRow, VoteRow


def votes_per_post() -> Any:
    """post_id, up, down: each post's votes."""
    return (
        select(
            VoteRow.post_id.label("post_id"),
            func.sum(case((VoteRow.value > 0, 1), else_=0)).label("up"),
            func.sum(case((VoteRow.value < 0, 1), else_=0)).label("down"),
        )
        .group_by(VoteRow.post_id)
        .subquery()
    )


def comments_per_post() -> Any:
    """post_id, n: each post's live comments (deleted ones left out)."""
    return (
        select(CommentRow.post_id.label("post_id"), func.count().label("n"))
        .where(CommentRow.deleted.is_(False))
        .group_by(CommentRow.post_id)
        .subquery()
    )
