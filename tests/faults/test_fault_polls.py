"""A poll's close (issue 33) with two replicas on PostgreSQL: each poll closes once, with one
winner, and its result is said in one message.

Real `paperclub run` processes post to FakeSlack on the real clock, so the meeting is set
around now: sessions starting in 20 and 25 minutes (UTC wall times), each with a poll opened
beforehand that closed half an hour before its session (so a process's first sweep closes
it). The meeting has no reminders and its channel nothing else (a watch-only row); results
are counted by their button, whatever else a session may come to say. As
tests/faults/test_fault_meetings.py does for reminders: the leader is killed at a random
instant of its first second, and two processes' sweeps run at one instant (threads on one
database, both believing the other alive).
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey, PaperDraft
from bot.meetings.meeting import Meeting, OneOff
from bot.meetings.reminders import Before
from bot.messages import as_plain
from bot.ports.polls import PollSettings
from bot.services import importing
from bot.services.meeting_sessions import bring_up_to_date
from bot.wording.polls import RESULTS
from tests.fakeslack import FakeSlack
from tests.faults.sessions_support import (
    leader_killed_at_random,
    sweep_in_pairs,
)
from tests.faults.support import Processes, seed_for
from tests.services.memory_chat import MemoryChat

KEY = ChannelKey(platform="slack", workspace="T0001", channel="C0001")
# Polls open 40 and close 30 minutes before their session: both past for a session 20
# minutes away, so the first sweep closes them (a poll past its close is never opened: the
# test opens them itself, as an earlier sweep would have).
SETTINGS = PollSettings(opens=Before(minutes=40), closes=Before(minutes=30))
TITLES = ("Sparse attention", "Retrieval heads", "Mixture of experts", "Grokking")


def _set_polls(*, url: str, now: datetime) -> None:
    """A weekly meeting in UTC whose first session starts within 21 minutes of `now` and a
    one-off five minutes after it, no reminders; each session's poll open with two papers of
    its own and a ballot for each paper."""
    start = now.replace(second=0, microsecond=0) + timedelta(minutes=21)
    meeting = Meeting(
        weekday=start.isoweekday(),
        start=start.time(),
        zone="UTC",
        first_date=start.date(),
        duration=timedelta(hours=1),
        place="Room 2",
    )
    drafts = [PaperDraft(title=t, origin="test") for t in TITLES]
    database = Database(url=url)
    try:
        with database() as store:
            store.save_meeting(channel=KEY, meeting=meeting, reminders=(), now=now)
            later = (start + timedelta(minutes=5)).time()
            store.add_change(channel=KEY, change=OneOff(day=start.date(), at=later))
            store.save_poll_settings(channel=KEY, settings=SETTINGS)
        importing.import_drafts(uow=database, drafts=drafts, now=now, workspace=KEY.workspace_key)
        bring_up_to_date(uow=database, channel=KEY, now=now)
        with database() as store:
            nominations = []
            for title in TITLES:
                paper = store.paper_by_title(workspace=KEY.workspace_key, title=title)
                assert paper is not None
                nomination, _ = store.nominate(channel=KEY, paper_id=paper.id, user="U1", now=now)
                nominations.append(nomination.id)
            records = store.session_records(channel=KEY, since=now, until=now + timedelta(hours=1))
            assert len(records) == 2
            for n, record in enumerate(records):
                slate = nominations[2 * n : 2 * n + 2]
                assert store.open_poll(session_id=record.id, slate=slate, now=now)
            for n, voter in enumerate(("U1", "U2")):
                choices = (nominations[n], nominations[2 + n])
                store.cast_ballot(channel=KEY, voter=voter, choices=choices, now=now)
    finally:
        database.dispose()


def _results(fake: FakeSlack) -> list[dict[str, Any]]:
    """The messages in C0001 with a poll result's button."""
    return [
        m
        for m in fake.messages("C0001")
        if any(
            str(e.get("action_id", "")).endswith(RESULTS)
            for b in m.get("blocks") or []
            if b.get("type") == "actions"
            for e in b["elements"]
        )
    ]


def _closed(*, url: str) -> list[tuple[int, int | None]]:
    """Each closed poll's session and winner."""
    database = Database(url=url)
    try:
        with database(write=False) as store:
            now = datetime.now(UTC)
            records = store.session_records(
                channel=KEY, since=now - timedelta(hours=1), until=now + timedelta(hours=1)
            )
            polls = [store.session_poll(session_id=r.id) for r in records]
    finally:
        database.dispose()
    return [(p.session_id, p.winner) for p in polls if p is not None and p.closed_at]


@pytest.mark.postgres
@pytest.mark.timeout(60)
def test_two_replicas_close_each_poll_once_when_the_leader_is_killed(
    postgres_url: str, processes: Processes, tmp_path: Path
) -> None:
    rng = random.Random(seed_for("poll replicas"))
    _set_polls(url=postgres_url, now=datetime.now(UTC))
    with FakeSlack(ts_base=int(time.time())) as fake:
        fake.add_channel("C0001", "club")
        pair, standby = leader_killed_at_random(
            fake=fake, url=postgres_url, processes=processes, folder=tmp_path, rng=rng
        )
        shown = _results(fake)
        logs = "\n\n".join(f"== {p.name}\n{p.stderr()[-3000:]}" for p in pair)
        assert len(shown) == 2, logs
        assert "Traceback" not in standby.stderr(), logs
    closed = _closed(url=postgres_url)
    assert len(closed) == 2 and all(winner is not None for _, winner in closed), closed


@pytest.mark.postgres
def test_two_sweeps_at_one_instant_close_each_poll_once(postgres_url: str) -> None:
    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    _set_polls(url=postgres_url, now=now)
    chat = MemoryChat()
    sent = sweep_in_pairs(url=postgres_url, chat=chat, now=now)
    assert sum(sent) == 2, sent
    assert len(chat.messages["C0001"]) == 2
    assert all("The group chose" in as_plain(message=m) for m in chat.messages["C0001"])
