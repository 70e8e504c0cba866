"""One request at a time per host, spaced as the host asks: arXiv's terms want a single
connection and three seconds between requests; everyone else gets one second.

The spacing counts from the end of the previous request (a slow answer does not shorten the
pause), and a Retry-After pushes the host's next turn further. Thread-safe: each host has its
own lock, held for the whole request, so two watches of one host never ask at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

# Seconds between two requests to a host (and its subdomains): arXiv's terms of use ask for 3.
GAPS: Mapping[str, float] = {"arxiv.org": 3.0}
DEFAULT_GAP = 1.0


@dataclass
class HostTurns:
    """When each host may next be asked, and who is asking it now. `clock` and `sleep` are
    injectable so tests do not wait (monotonic seconds)."""

    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    gaps: Mapping[str, float] = field(default_factory=lambda: dict(GAPS))
    default_gap: float = DEFAULT_GAP
    _next: dict[str, float] = field(default_factory=dict)
    _locks: dict[str, threading.Lock] = field(default_factory=dict)
    _guard: threading.Lock = field(default_factory=threading.Lock)

    def gap(self, *, host: str) -> float:
        """Seconds between two requests to `host`: its own gap, its parent domain's, or the
        default ("export.arxiv.org" takes "arxiv.org"'s)."""
        name = host.lower().rstrip(".")
        while name:
            if name in self.gaps:
                return self.gaps[name]
            name = name.partition(".")[2]
        return self.default_gap

    @contextmanager
    def turn(self, *, host: str) -> Iterator[None]:
        """Wait for `host`'s turn and hold it while the body runs (one request)."""
        key = host.lower().rstrip(".")
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            with self._guard:
                now = self.clock()
                start = self._next.get(key, now)
            if start > now:
                self.sleep(start - now)
            try:
                yield
            finally:
                with self._guard:
                    after = self.clock() + self.gap(host=key)
                    self._next[key] = max(self._next.get(key, after), after)

    def defer(self, *, host: str, seconds: float) -> None:
        """The host asked to wait `seconds` (a Retry-After): no turn starts sooner."""
        key = host.lower().rstrip(".")
        with self._guard:
            until = self.clock() + max(seconds, 0.0)
            self._next[key] = max(self._next.get(key, until), until)
