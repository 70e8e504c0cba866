"""Conditional GET as RFC 9110 has it: a strong ETag from the body, Last-Modified, and 304."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime

from .server import Answer


def etag_of(*, body: bytes) -> str:
    """A strong entity tag: the same bytes always give the same tag."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _not_modified_since(*, since: str, modified: datetime) -> bool:
    """Whether If-Modified-Since is at or after the resource's time (an unreadable date: no)."""
    try:
        parsed = parsedate_to_datetime(since)
    except (TypeError, ValueError):
        return False
    if parsed.tzinfo is None:
        return False
    return modified.replace(microsecond=0) <= parsed


def conditional(
    *, body: bytes, kind: str, modified: datetime | None, headers: dict[str, str]
) -> Answer:
    """200 with validators, or 304 when the request's validators still match.

    If-None-Match wins over If-Modified-Since when both are sent (RFC 9110 13.2.2); a 304
    carries the ETag and Last-Modified again and no body.
    """
    tag = etag_of(body=body)
    validators = {"ETag": tag}
    if modified is not None:
        validators["Last-Modified"] = format_datetime(modified.astimezone(UTC), usegmt=True)
    lowered = {k.lower(): v for k, v in headers.items()}
    match = lowered.get("if-none-match")
    if match is not None:
        tags = {t.strip().removeprefix("W/") for t in match.split(",")}
        if tag in tags or "*" in tags:
            return Answer(304, b"", validators, length=False)
    elif (
        modified is not None
        and "if-modified-since" in lowered
        and _not_modified_since(since=lowered["if-modified-since"], modified=modified)
    ):
        return Answer(304, b"", validators, length=False)
    return Answer(200, body, {"Content-Type": kind, **validators})
