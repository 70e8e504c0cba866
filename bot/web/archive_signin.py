"""The archive's sign-in gate: a visitor with a genuine, unexpired signed link gets in (the
token kept in a cookie), anyone else a 401 that says why."""

from __future__ import annotations

from datetime import datetime

from flask import Response, g, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from bot.services.web_links import BadLink, Signer
from bot.wording import web as wording

COOKIE = "paperclub_archive"  # holds the sign-in token itself: signed, and expiring


def denied(*, title: str, text: str) -> Response:
    """A 401: a page a person can read, or JSON for the API."""
    if request.path.startswith("/api/"):
        answer = jsonify(error=text)
    else:
        answer = Response(
            render_template("message.html", title=title, text=text),
            content_type="text/html; charset=utf-8",
        )
    answer.status_code = 401
    return answer


def signed_in(*, signer: Signer, now: datetime, secure: bool) -> BaseResponse | None:
    """Let a visitor with a genuine, unexpired token through (its workspace in g); /signin
    keeps the link's token in a cookie and goes home; otherwise a 401 that says why."""
    signing_in = request.path == "/signin"
    token = request.args.get("token") if signing_in else request.cookies.get(COOKIE)
    if not token:
        return denied(title=wording.MISSING_TITLE, text=wording.MISSING)
    try:
        g.workspace = signer.check(token=token, now=now)
    except BadLink as exc:
        if exc.expired:
            return denied(title=wording.EXPIRED_TITLE, text=wording.EXPIRED)
        return denied(title=wording.INVALID_TITLE, text=wording.INVALID)
    if not signing_in:
        return None
    answer = redirect(url_for("home"))
    answer.set_cookie(
        COOKIE,
        token,
        max_age=signer.minutes * 60,
        httponly=True,
        samesite="Lax",
        secure=secure,
        path=request.script_root or "/",
    )
    return answer
