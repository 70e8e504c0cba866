"""What went wrong with a request, said in a few words a person can read."""

from __future__ import annotations

import http.client


def failure(*, exc: BaseException) -> str:
    """What went wrong, in a few lower-case words: "connection refused", "a broken answer"."""
    if isinstance(exc, http.client.HTTPException) and not isinstance(exc, OSError):
        return f"a broken answer ({type(exc).__name__})"
    reason = getattr(exc, "reason", exc)
    why = getattr(reason, "strerror", None) or str(reason)
    return str(why).lower()
