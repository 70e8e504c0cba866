"""`/paperclub top [week|month|year|all]`: the most voted and most discussed posts."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.domain import TopEntry
from bot.ports import UnitOfWork
from bot.services.admin import Reply

PERIODS = {"week": 7, "month": 30, "year": 365, "all": None}


def describe(*, entry: TopEntry) -> str:
    """'*Title* (Tue 3 Mar, <#C1>) 👍 4 · 👎 1 · 💬 6', the title linked to its thread."""
    title = f"<{entry.permalink}|{entry.title}>" if entry.permalink else f"*{entry.title}*"
    counts = f"👍 {entry.votes.up} · 👎 {entry.votes.down} · 💬 {entry.comments}"
    return f"{title} ({entry.date:%a %d %b}, <#{entry.channel}>) {counts}"


def top(*, uow: UnitOfWork, channel_id: str, period: str, now: datetime, tz: str) -> Reply:
    """Rank the channel's posts of the period by votes, and by discussion."""
    if period not in PERIODS:
        return Reply(text="Usage: `/paperclub top [week|month|year|all]` (default: month).")
    days = PERIODS[period]
    today = now.astimezone(ZoneInfo(tz)).date()
    since: date | None = today - timedelta(days=days) if days else None
    with uow(write=False) as store:
        entries = store.top_posts(channel=channel_id, since=since, limit=50)
    if not entries:
        return Reply(text=f"No posts here in the last {period} yet." if days else "No posts yet.")
    voted = entries[:5]
    talked = [e for e in sorted(entries, key=lambda e: (-e.comments, e.date)) if e.comments][:5]
    span = f"the last {period}" if days else "all time"
    lines = [f"*Most voted, {span}:*"]
    lines += [f"{n}. {describe(entry=e)}" for n, e in enumerate(voted, start=1)]
    if talked:
        lines.append(f"*Most discussed, {span}:*")
        lines += [f"{n}. {describe(entry=e)}" for n, e in enumerate(talked, start=1)]
    return Reply(text="\n".join(lines))
