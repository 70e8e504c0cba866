"""When to ask again after a failure: the server's Retry-After when it sent one, else an
exponential backoff on the number of failures in a row, both capped."""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import parsedate_to_datetime


@dataclass(frozen=True, slots=True)
class Backoff:
    """`first` seconds after one failure, doubling with each failure in a row, at most `cap`
    (a day's announce cycle is the natural ceiling: six hours leaves time for a second try)."""

    first: float = 300.0
    cap: float = 6 * 3600.0

    def after(self, *, failures: int) -> float:
        """Seconds to wait after the failure that makes `failures` in a row (1 for the first)."""
        exponent = min(max(failures - 1, 0), 32)  # 2**32 already dwarfs any cap
        return min(self.first * 2.0**exponent, self.cap)


def retry_after(*, value: str | None, now: float, cap: float) -> float | None:
    """A Retry-After header in seconds from `now` (wall-clock seconds since the epoch): delay
    seconds or an HTTP date, at most `cap`; None when absent or unreadable."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return min(float(text), cap)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return min(max(when.timestamp() - now, 0.0), cap)
