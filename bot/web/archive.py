"""The read-only web archive: Flask pages, their JSON twins under /api, and an Atom feed.

Server-side rendered with Jinja2 (autoescaping on for .html, .xml and .svg), no JavaScript.
Every view comes from services.archive_web, which shows one workspace's public channels.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from flask import Flask, Response, abort, g, jsonify, redirect, render_template, request, url_for
from markupsafe import Markup, escape
from werkzeug.wrappers import Response as BaseResponse

from bot.domain import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, WorkspaceKey
from bot.ports import Store, UnitOfWork
from bot.services import archive_meetings
from bot.services import archive_web as views
from bot.services.embedding import SemanticExtra
from bot.services.telemetry import Telemetry
from bot.services.web_links import Signer
from bot.services.workspaces import WorkspaceUnknown
from bot.web import archive_json as twin
from bot.web.archive_charts import add_charts
from bot.web.archive_files import add_files
from bot.web.archive_headers import add_headers, over_tls
from bot.web.archive_meetings import CALENDAR_PATH, add_meetings, unsigned
from bot.web.archive_signin import signed_in
from bot.web.citation import coins, highwire
from bot.web.mentions import plain_names
from bot.wording import web as wording

Today = Callable[[], date]
# The deepest ?offset= served: past it every page is empty anyway, and the database's integers
# end at 2^63 (a larger one would fail the query).
MAX_OFFSET = 1_000_000
CLIP = 400  # characters of an abstract on a list page (the paper page has it whole)


def _utc_now() -> datetime:
    """The time a sign-in token is checked against."""
    return datetime.now(UTC)


def _highlight(snippet: str) -> Markup:
    """A search snippet, escaped, with its matched words in <mark>."""
    safe = str(escape(snippet))
    return Markup(safe.replace(HIGHLIGHT_OPEN, "<mark>").replace(HIGHLIGHT_CLOSE, "</mark>"))  # noqa: S704


def _offset() -> int:
    """The ?offset= of a paged view: 0 when absent, negative or not a number, at most
    MAX_OFFSET."""
    text = request.args.get("offset", "")
    if not (text.isascii() and text.isdigit()):
        return 0
    # Never int() a long one: Python refuses over 4,300 digits, and all of them clamp anyway.
    return MAX_OFFSET if len(text) > len(str(MAX_OFFSET)) else min(int(text), MAX_OFFSET)


def _names() -> views.Names:
    """The names of this request's workspace, read once per request."""
    found: views.Names | None = g.get("names")
    return found if found is not None else views.Names()


def _mentions(text: str) -> str:
    """A comment's mention markup as plain names (escaped by the template like any text)."""
    names = _names()
    return plain_names(text=text, people=names.people, channels=names.channels)


def _clip(text: str) -> str:
    """An abstract's opening, cut at a word near CLIP characters."""
    text = " ".join(text.split())
    if len(text) <= CLIP:
        return text
    return text[:CLIP].rsplit(" ", 1)[0].rstrip(",.;:") + " …"


def _link(endpoint: str, **values: Any) -> str:
    """url_for, keeping the ?workspace= the visitor chose."""
    chosen = request.args.get("workspace")
    if chosen:
        values["workspace"] = chosen
    return url_for(endpoint, **values)


def archive_app(
    *,
    uow: UnitOfWork[Store],
    today: Today,
    workspace: str | None = None,
    signer: Signer | None = None,
    now: Callable[[], datetime] = _utc_now,
    semantic_extra: SemanticExtra,
    telemetry: Telemetry,
    trust_proxy: bool = False,
) -> Flask:
    """The archive as a WSGI app; `workspace`: the one shown when the visitor names none
    (None: the only one there is); with a `signer`, only visitors with a sign-in link get
    in, and see the workspace their link names. Its search is the club's: `semantic_extra`
    ranks it, `telemetry` times it; `trust_proxy`: believe X-Forwarded-Proto."""
    app = Flask(__name__, template_folder="templates")
    app.jinja_env.filters["highlight"] = _highlight
    app.jinja_env.filters["mentions"] = _mentions
    app.jinja_env.filters["clip"] = _clip
    app.jinja_env.globals["link"] = _link
    app.jinja_env.globals["names"] = _names
    app.jinja_env.globals["coins"] = coins
    app.jinja_env.globals["highwire"] = highwire
    add_headers(app=app, signed_in=signer is not None)

    @app.before_request
    def choose_workspace() -> Any:
        """Pick the workspace of this request (and its names), or answer with the choice
        when it is unclear; the calendar feed needs neither (its token names its channel)."""
        if request.path.startswith(CALENDAR_PATH):
            return unsigned()
        answer = _choose()
        if answer is None:
            g.names = views.names(uow=uow, workspace=g.workspace)
        return answer

    def _choose() -> Any:
        """The workspace of this request in g, or the answer when it is unclear."""
        if signer is not None:
            secure = over_tls(request=request, trust_proxy=trust_proxy)
            return signed_in(signer=signer, now=now(), secure=secure)
        try:
            g.workspace = views.workspace_of(
                uow=uow, named=request.args.get("workspace") or workspace
            )
        except WorkspaceUnknown as exc:
            known = views.workspaces(uow=uow)
            if request.path.startswith("/api/"):
                return jsonify(error=str(exc), workspaces=[str(k) for k in known]), 404
            body = render_template("choose.html", why=str(exc), known=known)
            return Response(body, status=404, content_type="text/html; charset=utf-8")
        return None

    def ws() -> WorkspaceKey:
        """The workspace this request shows."""
        chosen: WorkspaceKey = g.workspace
        return chosen

    @app.get("/signin")
    def signin() -> BaseResponse:
        """Reached only without sign-in (with it, the check above answers)."""
        return redirect(url_for("home"))

    @app.get("/")
    def home() -> str:
        """The latest posts."""
        page = views.latest(uow=uow, workspace=ws(), offset=_offset())
        shown = views.channels(uow=uow, workspace=ws())
        return render_template(
            "posts.html",
            page=page,
            heading="Latest posts",
            here="home",
            channels=shown,
            empty_note=None if shown else wording.NO_PUBLIC_CHANNEL,
        )

    @app.get("/api/")
    def api_home() -> Response:
        """The latest posts, as JSON."""
        page = views.latest(uow=uow, workspace=ws(), offset=_offset())
        return jsonify(twin.post_list(page=page, names=_names(), workspace=str(ws())))

    @app.get("/paper/<int:paper_id>")
    def paper(paper_id: int) -> str:
        """A paper: its text, its posts with votes and comments, and how its votes came in."""
        page = views.paper(uow=uow, workspace=ws(), paper_id=paper_id) or abort(404)
        return render_template("paper.html", page=page)

    @app.get("/api/paper/<int:paper_id>")
    def api_paper(paper_id: int) -> Response:
        """A paper, as JSON."""
        page = views.paper(uow=uow, workspace=ws(), paper_id=paper_id) or abort(404)
        return jsonify(twin.paper_page(page=page, names=_names()))

    @app.get("/search")
    def search() -> str:
        """Search, with the syntax of /paperclub search, ten hits a page."""
        text = request.args.get("q", "")
        result = (
            views.search(
                uow=uow,
                workspace=ws(),
                text=text,
                offset=_offset(),
                semantic_extra=semantic_extra,
                telemetry=telemetry,
            )
            if text
            else None
        )
        return render_template("search.html", q=text, result=result, size=views.SEARCH_PAGE_SIZE)

    @app.get("/api/search")
    def api_search() -> Response:
        """Search, as JSON."""
        result = views.search(
            uow=uow,
            workspace=ws(),
            text=request.args.get("q", ""),
            offset=_offset(),
            semantic_extra=semantic_extra,
            telemetry=telemetry,
        )
        return jsonify(twin.search(result=result, names=_names()))

    @app.get("/channel/<name>")
    def channel(name: str) -> str:
        """A public channel's posts."""
        found = views.channel_posts(uow=uow, workspace=ws(), name=name, offset=_offset())
        if found is None:
            abort(404)
        return render_template(
            "posts.html",
            page=found[1],
            heading=f"#{_names().channel(found[0].key)}",
            here="channel",
            name=name,
            channels=[],
            meeting=archive_meetings.has_sessions(uow=uow, channel=found[0].key, now=now()),
        )

    @app.get("/api/channel/<name>")
    def api_channel(name: str) -> Response:
        """A public channel's posts, as JSON."""
        found = views.channel_posts(uow=uow, workspace=ws(), name=name, offset=_offset())
        if found is None:
            abort(404)
        named = _names().channel(found[0].key)
        return jsonify(
            twin.post_list(page=found[1], names=_names(), channel=found[0].key.channel, name=named)
        )

    @app.get("/top/<period>")
    def top(period: str) -> str:
        """The most voted papers of the last week, month or year."""
        page = views.top(uow=uow, workspace=ws(), period=period, today=today()) or abort(404)
        return render_template(
            "posts.html",
            page=page,
            heading=f"Top papers: last {period}",
            here="top",
            period=period,
            channels=[],
        )

    @app.get("/api/top/<period>")
    def api_top(period: str) -> Response:
        """The most voted papers of a period, as JSON."""
        page = views.top(uow=uow, workspace=ws(), period=period, today=today()) or abort(404)
        return jsonify(twin.post_list(page=page, names=_names(), period=period))

    @app.get("/feed.atom")
    def feed() -> Response:
        """The daily posts as an Atom feed."""
        page = views.latest(uow=uow, workspace=ws())
        body = render_template("feed.xml", page=page, workspace=str(ws()))
        return Response(body, content_type="application/atom+xml; charset=utf-8")

    @app.errorhandler(404)
    def missing(_: Exception) -> tuple[str | Response, int]:
        """A page that is not there (or not for the public to see)."""
        if request.path.startswith("/api/"):
            return jsonify(error="not found"), 404
        return render_template(
            "message.html", title="Not found", text="There is no such page in this archive."
        ), 404

    add_charts(app=app, uow=uow, today=today)
    add_files(app=app, uow=uow, today=today)
    add_meetings(app=app, uow=uow, signer=signer, now=now)
    return app
