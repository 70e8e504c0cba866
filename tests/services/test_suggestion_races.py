"""Two decisions on one suggestion at once, on PostgreSQL (where writers do not queue as on
SQLite): the one that commits second is told what the first did, and keeps nothing of its own
(no paper queued for a suggestion another person hid)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, text

from bot.db.database import Database
from bot.ports.sources import Suggestion, WatchSpec
from bot.services import suggestions
from bot.services.embedding import NO_SEMANTIC
from bot.services.reply import ClickAnswer
from bot.sources.candidates import Candidate
from bot.wording import suggestions as words
from tests.lock_waits import waiting_on_locks
from tests.services.conftest import key

NOW = datetime(2024, 9, 2, 9, 30, tzinfo=UTC)
WAIT = 20.0


@pytest.mark.postgres
def test_a_promote_that_loses_to_a_hide_queues_nothing(postgres_url: str) -> None:
    database = Database(url=postgres_url)
    engine = create_engine(postgres_url)
    try:
        with database() as store:
            spec = WatchSpec(kind="arxiv", target="cs.LG")
            watch = store.add_watch(channel=key("C1"), spec=spec, user="U1", now=NOW)
            store.add_suggestions(
                channel=key("C1"),
                watch_id=watch,
                candidates=[
                    Candidate(title="A contested paper", source="watch:1", arxiv_id="2409.00001")
                ],
                now=NOW,
            )
            (waiting,) = store.suggestions(channel=key("C1"), states=("waiting",), limit=5)
        answers: list[ClickAnswer] = []
        with engine.connect() as other:
            # Another person's hide, not committed yet: it holds the suggestion's row.
            other.execute(
                text("UPDATE suggestions SET state = 'hidden', decided_by = 'U3' WHERE id = :id"),
                {"id": waiting.id},
            )

            def promote() -> None:
                answers.append(
                    suggestions.decide(
                        uow=database,
                        channel=key("C1"),
                        number=str(waiting.id),
                        how="promoted",
                        user="U2",
                        now=NOW,
                        semantic_extra=NO_SEMANTIC,
                    )
                )

            clicker = threading.Thread(target=promote)
            clicker.start()
            with engine.connect() as watcher:  # the promote waits on that row lock: a signal
                blocked = waiting_on_locks(watcher=watcher, count=1, threads=[clicker])
            assert blocked, "the promote never waited for the hide's lock"
            other.commit()
            clicker.join(WAIT)
        (answer,) = answers
        said = "\n".join(
            "".join(getattr(r, "text", "") for r in getattr(b, "runs", ()))
            for b in answer.reply.message.blocks
        )
        assert "Not for us" in said and "Added" not in said
        assert answer.reply.message == words.decided(
            suggestion=database_suggestion(database=database, number=waiting.id)
        )
        with database(write=False) as store:
            assert store.count_queued(workspace=key("C1").workspace_key, channel=None) == 0
    finally:
        engine.dispose()
        database.dispose()


def database_suggestion(*, database: Database, number: int) -> Suggestion:
    with database(write=False) as store:
        found = store.suggestion(channel=key("C1"), suggestion_id=number)
    assert found is not None and found.state == "hidden"
    return found
