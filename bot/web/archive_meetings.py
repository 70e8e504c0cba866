"""The archive's meetings: a public channel's sessions page, and a channel's calendar feed
(iCalendar) at /calendar/<token>.ics, which answers without the sign-in cookie."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from flask import Flask, Response, abort, g, render_template, request

from bot.domain import WorkspaceKey
from bot.ports import Store, UnitOfWork
from bot.services import archive_meetings as views
from bot.services.web_links import Signer
from bot.wording.meetings import when

CALENDAR = "calendar"  # the feed's endpoint
CALENDAR_PATH = "/calendar/"  # where the sign-in check lets everything through
ICS = "text/calendar; charset=utf-8"


def not_found() -> Response:
    """A plain 404, what a calendar app gets for a wrong address."""
    return Response("not found\n", status=404, content_type="text/plain; charset=utf-8")


def unsigned() -> Response | None:
    """The answer to a request under CALENDAR_PATH before any sign-in check: None (serve it)
    for the feed's route, a 404 for any other path there (one no route takes, a newline in
    it say), so a wrong feed address is a 404 with a cookie or without."""
    return None if request.endpoint == CALENDAR else not_found()


def add_meetings(
    *,
    app: Flask,
    uow: UnitOfWork[Store],
    signer: Signer | None,
    now: Callable[[], datetime],
) -> None:
    """The sessions page and the calendar feed, on the archive `app`."""
    app.jinja_env.globals["when"] = when

    @app.get("/calendar/<path:name>", endpoint=CALENDAR)
    def calendar(name: str) -> Response:
        """A channel's feed at /calendar/<token>.ics, built at each request (a change shows at
        the next read). The token is the credential, as calendar apps carry no cookie; a
        private channel's feed is served to its token alone (a capability URL:
        services.archive_meetings.calendar). Anything else under /calendar/ is a 404, cookie
        or not. Never stored by a cache: the archive says no-store for every answer once
        sign-in is on, and without it no token is genuine."""
        token = name.removesuffix(".ics")
        body = None
        if token != name:
            body = views.calendar(uow=uow, signer=signer, token=token, now=now())
        if body is None:
            return not_found()
        return Response(body, content_type=ICS)

    @app.get("/channel/<name>/sessions")
    def sessions(name: str) -> str:
        """A public channel's meeting sessions: coming, and of the last 90 days."""
        workspace: WorkspaceKey = g.workspace
        page = views.sessions_page(uow=uow, workspace=workspace, name=name, now=now())
        if page is None:
            abort(404)
        key = page.channel.key
        return render_template(
            "sessions.html",
            page=page,
            name=name,
            heading=g.names.channel(key),
            calendar=signer.calendar_link(channel=key) if signer is not None else None,
            past_days=views.PAST.days,
        )
