"""Housekeeping: processed-event ids are forgotten once past any platform's retries, and only
then; a forgotten id is simply new again."""

from __future__ import annotations

from datetime import timedelta

from bot.db.database import Database
from bot.services import housekeeping, voting
from bot.services.telemetry import Telemetry
from tests.services.conftest import follow, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, deliver, votes


def test_old_event_ids_go_recent_ones_stay(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    post, _ = deliver(database, chat, follow(database))
    for n, days_ago in enumerate((5, 3, 1)):
        when = MONDAY - timedelta(days=days_ago)
        voting.click(
            telemetry=Telemetry(),
            uow=database,
            post_id=post.id,
            channel=post.channel,
            user=f"U{n}",
            value=1,
            event_id=f"e{n}",
            now=when,
        )
    assert housekeeping.forget_old_events(uow=database, now=MONDAY) == 2
    assert housekeeping.forget_old_events(uow=database, now=MONDAY) == 0
    # The recent id is still known: its redelivery changes nothing...
    again = voting.click(
        telemetry=Telemetry(),
        uow=database,
        post_id=post.id,
        channel=post.channel,
        user="U2",
        value=1,
        event_id="e2",
        now=MONDAY,
    )
    assert not again.changed and votes(database, post) == (3, 0)
    # ...while a forgotten one counts as new (here: the same button again withdraws).
    old = voting.click(
        telemetry=Telemetry(),
        uow=database,
        post_id=post.id,
        channel=post.channel,
        user="U0",
        value=1,
        event_id="e0",
        now=MONDAY,
    )
    assert old.changed and votes(database, post) == (2, 0)


def test_keep_is_a_parameter_and_an_empty_archive_has_nothing_to_forget(
    database: Database, chat: MemoryChat
) -> None:
    assert housekeeping.forget_old_events(uow=database, now=MONDAY) == 0
    load_sample(database)
    post, _ = deliver(database, chat, follow(database))
    voting.click(
        telemetry=Telemetry(),
        uow=database,
        post_id=post.id,
        channel=post.channel,
        user="U1",
        value=1,
        event_id="e",
        now=MONDAY,
    )
    later = MONDAY + timedelta(hours=1)
    assert housekeeping.forget_old_events(uow=database, now=later) == 0
    assert housekeeping.forget_old_events(uow=database, now=later, keep=timedelta(0)) == 1
