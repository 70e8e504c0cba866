"""HTTP mode: request bodies as Slack posts them, signed with the app's signing secret."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import urlencode

from .model import JsonDict

JSON = "application/json"
FORM = "application/x-www-form-urlencoded"


@dataclass(frozen=True)
class HttpBody:
    """A body exactly as Slack would send it, with its content type and extra headers."""

    body: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)


def _retry_headers(retry_num: int | None, retry_reason: str | None) -> dict[str, str]:
    # Over HTTP, the first delivery carries no retry headers at all (unlike Socket Mode's
    # retry_attempt=0); retries carry both.
    headers = {}
    if retry_num is not None:
        headers["X-Slack-Retry-Num"] = str(retry_num)
    if retry_reason is not None:
        headers["X-Slack-Retry-Reason"] = retry_reason
    return headers


def event_body(
    payload: JsonDict, *, retry_num: int | None = None, retry_reason: str | None = None
) -> HttpBody:
    """Events API: the event_callback as a JSON body."""
    return HttpBody(json.dumps(payload).encode(), JSON, _retry_headers(retry_num, retry_reason))


def command_body(payload: dict[str, str]) -> HttpBody:
    """Slash command: the fields form-encoded."""
    return HttpBody(urlencode(payload).encode(), FORM)


def interactive_body(payload: JsonDict) -> HttpBody:
    """Interactivity: a single form field `payload` holding the JSON."""
    return HttpBody(urlencode({"payload": json.dumps(payload)}).encode(), FORM)


def signature(secret: str, body: bytes | str, timestamp: int | str) -> str:
    """X-Slack-Signature: v0= + hex HMAC-SHA256(secret, "v0:{ts}:{body}")."""
    raw = body.encode() if isinstance(body, str) else body
    base = b"v0:" + str(timestamp).encode() + b":" + raw
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def signed_headers(
    secret: str,
    body: bytes | str,
    *,
    content_type: str = JSON,
    timestamp: int | None = None,
    headers: dict[str, str] | None = None,
) -> dict[str, str]:
    """The headers Slack sends: content type, timestamp, signature, plus any extras."""
    ts = int(time.time()) if timestamp is None else timestamp
    result = {
        "Content-Type": content_type,
        "X-Slack-Request-Timestamp": str(ts),
        "X-Slack-Signature": signature(secret, body, ts),
    }
    result.update(headers or {})
    return result


def signed_request(
    url: str,
    body: bytes | str | HttpBody,
    secret: str,
    content_type: str = JSON,
    timestamp: int | None = None,
    headers: dict[str, str] | None = None,
    *,
    timeout: float = 5,
) -> tuple[int, bytes]:
    """POST a signed body to an app's HTTP endpoint with urllib -> (status, body)."""
    if isinstance(body, HttpBody):
        content_type, extra = body.content_type, {**body.headers, **(headers or {})}
        raw = body.body
    else:
        extra = headers or {}
        raw = body.encode() if isinstance(body, str) else body
    all_headers = signed_headers(
        secret, raw, content_type=content_type, timestamp=timestamp, headers=extra
    )
    request = urllib.request.Request(url, data=raw, headers=all_headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return int(response.status), bytes(response.read())
    except urllib.error.HTTPError as e:
        with e:
            return int(e.code), bytes(e.read())
