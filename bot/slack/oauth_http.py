"""GET /slack/install and /slack/oauth_redirect as a WSGI callable: the browser's side of Bolt's
OAuth flow (state cookie, consent page, the code traded for a token), on the process's server."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slack_bolt import App, BoltRequest, BoltResponse

from bot.slack.http import StartResponse, WsgiApp, headers_of, send


def oauth_wsgi(*, app: App) -> WsgiApp:
    """Answer the two GETs with the App's OAuth flow."""
    flow = app.oauth_flow
    assert flow is not None

    def wsgi(environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        """One browser request: the install redirect or the callback."""
        if environ.get("REQUEST_METHOD", "") != "GET":
            return send(start_response, 405, "use GET")
        headers: dict[str, str | Sequence[str]] = dict(headers_of(environ=environ))
        query = str(environ.get("QUERY_STRING") or "")
        request = BoltRequest(body="", query=query, headers=headers, mode="http")
        path = environ.get("PATH_INFO", "")
        response: BoltResponse = (
            flow.handle_installation(request)
            if path == flow.install_path
            else flow.handle_callback(request)
        )
        answer = [(k, v) for k, values in response.headers.items() for v in values]
        return send(start_response, response.status, response.body or "", answer)

    return wsgi
