"""Two replicas' sweeps of the sessions' messages at one instant, on PostgreSQL: what the
reminder and poll fault tests both run to show each message goes once."""

from __future__ import annotations

import threading
from datetime import datetime

from bot.db.database import Database
from bot.services.session_notices import SessionSender, send_due_notices
from tests.services.memory_chat import MemoryChat


def sweep_in_pairs(*, url: str, chat: MemoryChat, now: datetime, rounds: int = 3) -> list[int]:
    """Two processes' sweeps (two databases, each owner taking the other for alive) started
    together `rounds` times at `now`; how many messages each sweep sent."""
    databases = [Database(url=url) for _ in range(2)]
    barrier = threading.Barrier(2)
    sent: list[int] = []

    def sweep(n: int) -> None:
        sender = SessionSender(
            uow=databases[n],
            chat=chat,
            platform="slack",
            owner=f"host:{n}:replica",
            owner_alive=lambda _owner: True,  # each sees the other running
        )
        barrier.wait()
        sent.append(send_due_notices(sessions=sender, now=now))

    try:
        for _ in range(rounds):  # the same instant swept again changes nothing
            threads = [threading.Thread(target=sweep, args=(n,)) for n in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=30)
    finally:
        for database in databases:
            database.dispose()
    return sent
