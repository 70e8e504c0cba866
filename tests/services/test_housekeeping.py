"""Housekeeping: processed-event ids are forgotten once past any platform's retries, and only
then; a forgotten id is simply new again."""

from __future__ import annotations

from datetime import timedelta

from bot.db.database import Database
from bot.services import housekeeping
from tests.services.conftest import follow, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, deliver, vote, votes


def test_old_event_ids_go_recent_ones_stay(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    post, _ = deliver(database, chat, follow(database))
    for n, days_ago in enumerate((5, 3, 1)):
        when = MONDAY - timedelta(days=days_ago)
        vote(database, post, user=f"U{n}", value=1, event=f"e{n}", now=when)
    assert housekeeping.forget_old_events(uow=database, now=MONDAY) == 2
    assert housekeeping.forget_old_events(uow=database, now=MONDAY) == 0
    # The recent id is still known: its redelivery changes nothing...
    again = vote(database, post, user="U2", value=1, event="e2", now=MONDAY)
    assert not again.changed and votes(database, post) == (3, 0)
    # ...while a forgotten one counts as new (here: the same button again withdraws).
    old = vote(database, post, user="U0", value=1, event="e0", now=MONDAY)
    assert old.changed and votes(database, post) == (2, 0)


def test_keep_is_a_parameter_and_an_empty_archive_has_nothing_to_forget(
    database: Database, chat: MemoryChat
) -> None:
    assert housekeeping.forget_old_events(uow=database, now=MONDAY) == 0
    load_sample(database)
    post, _ = deliver(database, chat, follow(database))
    vote(database, post, user="U1", value=1, event="e", now=MONDAY)
    later = MONDAY + timedelta(hours=1)
    assert housekeeping.forget_old_events(uow=database, now=later) == 0
    assert housekeeping.forget_old_events(uow=database, now=later, keep=timedelta(0)) == 1
