"""Vectors while the bot runs: after each minute's sweep (not the catch-up at start, so a
start loads no model), papers added since (a /paperclub add, an import) get their vectors on
a thread of their own, a batch at a time, so a large import never holds anything up."""

from __future__ import annotations

import logging
import threading

from bot.ports import Clock, Store, UnitOfWork
from bot.semantic.lazy import LazySemantic, semantic_for
from bot.services import embedding
from bot.services.embedding import SemanticExtra

log = logging.getLogger("paperclub")

PER_PASS = 64  # papers a pass (~2 s at ~30/s on two cores); the next sweep does more


class Embedder:
    """The running bot's embedder: `kick` asks for a pass on its thread; without the extra
    (`semantic` None) it does nothing."""

    def __init__(
        self, *, uow: UnitOfWork[Store], semantic: LazySemantic | None, clock: Clock, why: str = ""
    ) -> None:
        """Idle until started; `why` says why there is no `semantic`."""
        self.uow, self.semantic, self.clock, self.why = uow, semantic, clock, why
        self._wake = threading.Event()
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        self._told = False
        self.passed = threading.Event()  # set after each pass: for whoever waits on one

    @classmethod
    def wired(cls, *, enabled: bool, uow: UnitOfWork[Store], clock: Clock) -> Embedder:
        """The process's embedder, on the extra when it is on and installed."""
        semantic, why = semantic_for(enabled=enabled)
        embedder = cls(uow=uow, semantic=semantic, clock=clock, why=why)
        if semantic is None:
            log.debug("semantic search off: %s", why)
        return embedder

    @property
    def semantic_extra(self) -> SemanticExtra:
        """The extra as the services (search, related, taste, add) see it: this embedder's
        index, or why there is none, and this embedder told of each paper added."""
        return SemanticExtra(index=self.semantic, why=self.why, on_write=self.written)

    def start(self) -> None:
        """Start the pass's thread (with the extra)."""
        if self._thread is None and self.semantic is not None:
            self._thread = threading.Thread(target=self._run, name="embedder", daemon=True)
            self._thread.start()

    def written(self) -> None:
        """A paper was added: a pass at once, once the model is loaded (by a search or an
        earlier pass); before that the next sweep's pass embeds it, so a bot that only
        takes adds never loads the model for them in the middle of a command."""
        if self.semantic is not None and self.semantic.ready():
            self._wake.set()

    def kick(self, *, first: bool = False) -> None:
        """Run a pass soon (after a sweep; not after the `first`, the catch-up at start)."""
        if not first:
            self._wake.set()

    def _run(self) -> None:
        """Passes until closed: up to PER_PASS papers each."""
        assert self.semantic is not None  # started only with the extra
        while not self._closed.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._closed.is_set():
                return
            try:
                made = embedding.embed_pending(
                    uow=self.uow,
                    semantic=self.semantic,
                    now=self.clock.now,
                    limit=PER_PASS,
                    stop=self._closed.is_set,
                )
                if made and not self._told:
                    self._told = True
                    log.info("semantic search: giving papers their vectors in the background")
            except Exception:  # a pass must never end the thread: the next sweep tries again
                log.exception("embedding pass failed")
            self.passed.set()

    def close(self) -> None:
        """Stop the thread (the batch being embedded is finished first)."""
        self._closed.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
