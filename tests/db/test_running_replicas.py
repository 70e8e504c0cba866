"""Who else runs: every replica's leadership session holds a shared advisory lock, and a
replica starting asks whether another one has held it since before (then the platforms' events
went there and nothing needs reading back). Only this database's replicas count."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from bot.runtime.leader import RUNNING_LOCK_KEY, replica_running_since
from tests.conftest import throwaway_postgres

pytestmark = pytest.mark.postgres


def test_a_replica_running_since_before_is_seen_and_one_elsewhere_is_not(
    postgres_url: str, postgres_server: str
) -> None:
    engine = create_engine(postgres_url)
    try:
        assert not replica_running_since(engine=engine, before=datetime.now(UTC))
        with throwaway_postgres(server=postgres_server) as elsewhere:
            other = create_engine(elsewhere, poolclass=NullPool)
            try:
                with other.connect() as running_elsewhere:
                    running_elsewhere.execute(
                        text("SELECT pg_advisory_lock_shared(:key)"), {"key": RUNNING_LOCK_KEY}
                    )
                    assert not replica_running_since(engine=engine, before=datetime.now(UTC))
            finally:
                other.dispose()
        # A session of its own, closed on leaving (a pooled one would keep the lock).
        with create_engine(postgres_url, poolclass=NullPool).connect() as running:
            running.execute(text("SELECT pg_advisory_lock_shared(:key)"), {"key": RUNNING_LOCK_KEY})
            assert replica_running_since(engine=engine, before=datetime.now(UTC))
            # A replica that began after the asking one did is no witness of its downtime.
            early = datetime.now(UTC) - timedelta(hours=1)
            assert not replica_running_since(engine=engine, before=early)
        # Its session gone (a kill -9 ends it too), it runs no more.
        assert not replica_running_since(engine=engine, before=datetime.now(UTC))
    finally:
        engine.dispose()
