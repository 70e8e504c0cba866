"""Plain urllib calls to the fake Zotero, and the shape of a JSON value (for comparing the fake's
answers with the samples key by key, never value by value)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).resolve().parents[1] / "fakezotero" / "samples"
KEY = "P9NiFoyLeZu2bZNvvuQPDWsd"  # the docs' example key
USER = 123456


def sample(name: str) -> Any:
    """A sample answer from samples/."""
    return json.loads((SAMPLES / name).read_text("utf-8"))


def call(
    url: str,
    *,
    method: str = "GET",
    body: Any = None,
    key: str | None = KEY,
    **headers: str,
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one request (HTTP errors included); `body` is sent as JSON,
    header names with underscores for dashes (Zotero_Write_Token=...)."""
    sent = {name.replace("_", "-"): value for name, value in headers.items()}
    if key is not None:
        sent["Zotero-API-Key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers.items()), error.read()


def shape(value: Any) -> Any:
    """A JSON value's structure: dicts keep their keys (values shaped), lists their first
    element's shape, scalars their type name."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__
