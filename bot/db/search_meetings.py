"""Search's meeting filters: `presenter:` and `session:` keep the papers a meeting's poll chose
for a session (not cancelled) that member presented, or held on that local date.

A session's date is its start's in its own zone, which SQLite cannot compute: the sessions of
a date are found before the statements (`sessions_on`) and bound by id, as the scope's hidden
channels are. The rest is a condition of constants; what users type is bound.
"""

# S608: the SQL is assembled from this module's constants only; what users type is bound.
from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.db.convert import stored_utc, utc
from bot.db.schema_meetings import SessionRow
from bot.db.search_scope import Scope, Sql
from bot.meetings.meeting import zone_of
from bot.search_query import SearchQuery

# Every UTC instant a local date can start at, in any zone (UTC-12 to UTC+14).
_EAST, _WEST = timedelta(hours=14), timedelta(hours=12)
# A paper chosen by a session's poll; {more} joins and {conditions} narrow it.
_CHOSEN = (
    "EXISTS (SELECT 1 FROM nominations mn JOIN session_polls msp ON msp.winner = mn.id "
    "JOIN sessions ms ON ms.id = msp.session_id{more} "
    "WHERE mn.paper_id = {pid} AND NOT ms.cancelled{conditions})"
)
_PRESENTED = (
    " JOIN session_presenters mp ON mp.session_id = ms.id JOIN channels mc ON mc.id = ms.channel_id"
)
# The presenter's id as typed, or the name the platform gave them (the names table the
# running bot fills), in any case.
_BY = (
    " AND (mp.user_id = :f_presenter OR EXISTS (SELECT 1 FROM names mname "
    "WHERE mname.platform = mc.platform AND mname.workspace = mc.workspace "
    "AND mname.kind = 'person' AND mname.external_id = mp.user_id "
    "AND lower(mname.name) = :f_presenter_name))"
)
_ON = {
    "sqlite": " AND ms.id IN (SELECT value FROM json_each(:f_sessions))",
    "postgresql": " AND ms.id = ANY(:f_sessions)",
}
_SHOWN = {
    "sqlite": " AND ms.channel_id NOT IN (SELECT value FROM json_each(:hidden))",
    "postgresql": " AND ms.channel_id <> ALL(:hidden)",
}
# Bound lists: SQLite reads them as JSON arrays (search.Execute).
LISTS = ("f_sessions",)


def sessions_on(*, session: Session, day: date) -> tuple[int, ...]:
    """The ids of the sessions starting on `day` in their own zones, cancelled ones too (the
    condition leaves them out); (-1,) when none, so the filter finds nothing rather than
    failing on an empty list."""
    midnight = datetime.combine(day, time(0), tzinfo=UTC)
    try:
        since, until = midnight - _EAST, midnight + timedelta(days=1) + _WEST
    except OverflowError:  # 0001-01-01 or 9999-12-31: no session then
        return (-1,)
    rows = session.execute(
        select(SessionRow.id, SessionRow.start_at, SessionRow.zone).where(
            SessionRow.start_at >= stored_utc(value=since),
            SessionRow.start_at < stored_utc(value=until),
        )
    )
    found = tuple(
        int(sid)
        for sid, start, zone in rows
        if utc(value=start).astimezone(zone_of(name=zone)).date() == day
    )
    return found or (-1,)


def meeting_filter(*, scope: Scope, query: SearchQuery, pid: str) -> Sql | None:
    """The `presenter:`/`session:` condition on the paper id expression `pid` with its
    values, None without either filter."""
    if query.presenter is None and query.session is None:
        return None
    more, conditions = "", _SHOWN[scope.dialect] if scope.hidden else ""
    params: dict[str, Any] = {}
    if query.session is not None:
        conditions += _ON[scope.dialect]
        params["f_sessions"] = list(scope.sessions or (-1,))
    if query.presenter is not None:
        more, conditions = _PRESENTED, conditions + _BY
        params.update(f_presenter=query.presenter, f_presenter_name=query.presenter.lower())
    return Sql(text=_CHOSEN.format(pid=pid, more=more, conditions=conditions), params=params)
