"""What every web archive answer carries: its style sheet (inline, allowed by its hash, so a
page needs no second request and no script can run), security headers, and whether the
sign-in cookie may be `Secure`."""

from __future__ import annotations

import base64
import hashlib
from importlib.resources import files

from flask import Flask, Request, Response
from markupsafe import Markup


def style_sheet() -> str:
    """The pages' style sheet (templates/style.css)."""
    return (files("bot.web") / "templates" / "style.css").read_text(encoding="utf-8")


def policy(*, style: str) -> str:
    """The Content-Security-Policy: nothing runs, nothing loads from elsewhere, nobody frames
    the archive; the inline style is allowed by its hash alone."""
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    return "; ".join(
        (
            "default-src 'none'",
            "img-src 'self'",
            f"style-src 'sha256-{digest}'",
            "form-action 'self'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        )
    )


def over_tls(*, request: Request, trust_proxy: bool) -> bool:
    """Whether the visitor reached us over TLS: directly, or through a proxy that says so in
    X-Forwarded-Proto (believed only when PAPERCLUB_TRUST_PROXY says a proxy sets it)."""
    if request.is_secure:
        return True
    if not trust_proxy:
        return False
    forwarded = request.headers.get("X-Forwarded-Proto", "")
    return forwarded.split(",")[0].strip().lower() == "https"


def add_headers(*, app: Flask, signed_in: bool) -> None:
    """Put the style sheet in the pages' reach and the headers on every answer; pages behind
    a sign-in are never stored by a browser or a proxy (`no-store`)."""
    style = style_sheet()
    app.jinja_env.globals["style"] = Markup(style)  # noqa: S704 (our own file, not input)
    csp = policy(style=style)

    @app.after_request
    def secure(answer: Response) -> Response:
        """The security headers, on every answer (errors and charts too)."""
        headers = answer.headers
        headers["Content-Security-Policy"] = csp
        headers["X-Content-Type-Options"] = "nosniff"
        headers["X-Frame-Options"] = "DENY"
        headers["Referrer-Policy"] = "no-referrer"  # a sign-in link's token stays ours
        headers["Cache-Control"] = "no-store" if signed_in else "no-cache"
        return answer
