"""Server-rendered SVG charts: activity per week, a calendar of posting days, a paper's votes.

Geometry is computed here and drawn by autoescaped Jinja templates; each bar and day carries a
<title> (what a pointer shows, and what the browser tests read)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from flask import Flask, Response, g, render_template

from bot.ports import Store, UnitOfWork
from bot.services import archive_web as views

SVG = "image/svg+xml; charset=utf-8"
WIDTH, HEIGHT, LEFT, BOTTOM = 720, 200, 30, 20
SERIES = (("posts", "#4a6fa5"), ("votes", "#5aa469"), ("comments", "#d88c3a"))
CELL = 13  # a calendar day's square, with its gap
TOP = 14  # room above the calendar for the month labels
DAY_LABELS = ((0, "Mon"), (2, "Wed"), (4, "Fri"))


def _slot(*, weeks: list[Any]) -> float:
    """The width of one week on the weekly chart."""
    return (WIDTH - LEFT) / max(1, len(weeks))


def _peak(*, weeks: list[Any]) -> int:
    """The largest value on the weekly chart (its scale)."""
    return int(max([1, *(getattr(w, name) for w in weeks for name, _ in SERIES)]))


def weekly_bars(*, weeks: list[Any]) -> list[dict[str, Any]]:
    """Three bars a week (posts, votes, comments), scaled to the largest value."""
    peak, slot = _peak(weeks=weeks), _slot(weeks=weeks)
    bar = slot / (len(SERIES) + 1)
    plot = HEIGHT - BOTTOM - 10
    bars = []
    for index, week in enumerate(weeks):
        for n, (name, colour) in enumerate(SERIES):
            value = getattr(week, name)
            height = plot * value / peak
            bars.append(
                {
                    "x": round(LEFT + index * slot + n * bar, 1),
                    "y": round(HEIGHT - BOTTOM - height, 1),
                    "w": round(bar, 1),
                    "h": round(height, 1),
                    "colour": colour,
                    "title": f"{name} in the week of {week.monday.isoformat()}: {value}",
                    "series": name,
                    "value": value,
                }
            )
    return bars


def month_ticks(*, mondays: list[date], left: float, step: float) -> list[dict[str, Any]]:
    """A label where a month begins, so a chart says when its weeks are: the first week, and
    every week whose Monday falls in another month than the week before's."""
    ticks = []
    for index, monday in enumerate(mondays):
        if index == 0 or monday.month != mondays[index - 1].month:
            label = f"{monday:%b}" if index and monday.month != 1 else f"{monday:%b %Y}"
            ticks.append({"x": round(left + index * step, 1), "label": label})
    return ticks


def calendar_mondays(*, today: date) -> list[date]:
    """The Monday of each week the calendar shows, the oldest first."""
    first = today - timedelta(days=today.weekday(), weeks=views.CHART_WEEKS - 1)
    return [first + timedelta(weeks=n) for n in range(views.CHART_WEEKS)]


def calendar_cells(*, counts: dict[date, int], today: date) -> list[dict[str, Any]]:
    """One square per day of the last half year, by week (columns) and weekday (rows)."""
    first = calendar_mondays(today=today)[0]
    cells = []
    for offset in range((today - first).days + 1):
        day = first + timedelta(days=offset)
        count = counts.get(day, 0)
        shade = "#ebedf0" if not count else "#9be9a8" if count == 1 else "#40c463"
        cells.append(
            {
                "x": LEFT + (offset // 7) * CELL,
                "y": TOP + day.weekday() * CELL,
                "fill": shade,
                "title": f"{day.isoformat()}: {count} post{'s' if count != 1 else ''}",
                "count": count,
            }
        )
    return cells


def vote_line(*, moments: list[Any]) -> list[dict[str, Any]]:
    """The running 👍 and 👎 totals after each vote, spread over the chart's width."""
    if not moments:
        return []
    start, end = moments[0].at, moments[-1].at
    span = max(1.0, (end - start).total_seconds())
    up = down = 0
    points = []
    for moment in moments:
        up += moment.value > 0
        down += moment.value < 0
        x = LEFT + (WIDTH - LEFT - 10) * (moment.at - start).total_seconds() / span
        points.append({"x": round(x, 1), "up": up, "down": down, "at": moment.at.isoformat()})
    peak = max(1, up, down)
    plot = 160 - BOTTOM - 10
    for point in points:
        point["yu"] = round(160 - BOTTOM - plot * point["up"] / peak, 1)
        point["yd"] = round(160 - BOTTOM - plot * point["down"] / peak, 1)
    return points


def add_charts(*, app: Flask, uow: UnitOfWork[Store], today: Callable[[], date]) -> None:
    """The chart routes, on the archive's app."""

    @app.get("/charts/weeks.svg")
    def chart_weeks() -> Response:
        """Posts, votes and comments per week."""
        weeks = views.activity(uow=uow, workspace=g.workspace, today=today())
        ticks = month_ticks(mondays=[w.monday for w in weeks], left=LEFT, step=_slot(weeks=weeks))
        body = render_template(
            "weeks.svg",
            bars=weekly_bars(weeks=weeks),
            series=SERIES,
            width=WIDTH,
            height=HEIGHT,
            ticks=ticks,
            peak=_peak(weeks=weeks) if weeks else 0,
        )
        return Response(body, content_type=SVG)

    @app.get("/charts/calendar.svg")
    def chart_calendar() -> Response:
        """A calendar of posting days."""
        day = today()
        counts = views.posting_days(uow=uow, workspace=g.workspace, today=day)
        cells = calendar_cells(counts=counts, today=day)
        width = LEFT + (views.CHART_WEEKS + 1) * CELL
        ticks = month_ticks(mondays=calendar_mondays(today=day), left=LEFT, step=CELL)
        body = render_template(
            "calendar.svg",
            cells=cells,
            cell=CELL - 2,
            width=width,
            height=TOP + 7 * CELL,
            top=TOP,
            days=DAY_LABELS,
            ticks=ticks,
        )
        return Response(body, content_type=SVG)

    @app.get("/charts/paper/<int:paper_id>/votes.svg")
    def chart_votes(paper_id: int) -> Response:
        """How a paper's votes came in."""
        page = views.paper(uow=uow, workspace=g.workspace, paper_id=paper_id)
        points = vote_line(moments=list(page.votes) if page else [])
        body = render_template("votes.svg", points=points, width=WIDTH, height=160)
        return Response(body, content_type=SVG, status=200 if page else 404)
