"""Syncing the channels' Zotero links in the background: one thread per process that, on the
process that leads (every process on SQLite, the scheduler's leader among replicas, so two
replicas sync once), syncs the links due (bot/zotero/sync.py) and tells a channel's admins once
when its link fails in a way a person must fix.

Its own thread: Zotero may ask for a pause (Backoff, Retry-After) and a first sync of a busy
channel writes many items; the daily post and events never wait for it. One session per key
is kept across passes, so a Backoff the server asked of a key holds for the next pass too.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from bot.ports import Chat, Clock, UnitOfWork
from bot.runtime.polling import PollingThread
from bot.runtime.telling import tell
from bot.sealing import TokenCipher
from bot.wording import zotero_notices as words
from bot.zotero import ZoteroSession
from bot.zotero.desk import SessionFor
from bot.zotero.sync import Needs, sync_due

log = logging.getLogger("paperclub")


class ZoteroWorker:
    """Syncs due Zotero links on a thread of its own."""

    def __init__(
        self,
        *,
        uow: UnitOfWork[Needs],
        cipher: TokenCipher,
        new_session: SessionFor,
        clock: Clock,
        platforms: Callable[[], dict[str, Chat]],
        leading: Callable[[], bool],
        poll: float,
    ) -> None:
        """`new_session`: a session of a key, on the settings' API (bot.zotero.desk.sessions);
        `platforms`: the Chats running here by platform name (read at each pass); `leading`:
        whether this process runs the work now."""
        self.uow, self.cipher, self.clock = uow, cipher, clock
        self.new_session = new_session
        self.platforms, self.leading = platforms, leading
        self._sessions: dict[str, ZoteroSession] = {}
        self._lock = threading.Lock()
        self.thread = PollingThread(
            name="zotero", what="syncing with Zotero", step=self._pass, poll=poll
        )

    def start(self) -> None:
        """Run: a first pass at once (a sync a stopped process left unfinished), then every
        poll."""
        self.thread.start()

    def wake(self) -> None:
        """Sync now: a link was just connected, resumed or tested."""
        self.thread.wake()

    def session_for(self, api_key: str) -> ZoteroSession:
        """The session of a key: made once, so its Backoff outlives a pass."""
        with self._lock:
            found = self._sessions.get(api_key)
            if found is None:
                found = self.new_session(api_key)
                self._sessions[api_key] = found
            return found

    def _pass(self) -> None:
        """One pass over the due links of the platforms running here, on the leader."""
        if not self.leading():
            return
        chats = self.platforms()
        with self.uow(write=False) as store:
            channels = [
                link.channel
                for link in store.zotero_links()
                if link.channel.platform in chats and not link.paused
            ]
        if not channels:
            return
        done = sync_due(
            uow=self.uow,
            cipher=self.cipher,
            session_for=self.session_for,
            now=self.clock.now(),
            channels=channels,
        )
        if done.created or done.updated or done.imported:
            log.info(
                "Zotero: %d item(s) written, %d updated, %d paper(s) read in",
                done.created,
                done.updated,
                done.imported,
            )
        for failure in done.failures:
            said = words.failing(library=failure.library, reason=failure.reason)
            tell(chats=chats, channel=failure.channel, message=said, what="a failing Zotero link")

    def close(self) -> None:
        """Stop after the request in flight."""
        self.thread.close(timeout=40)
