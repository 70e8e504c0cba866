"""The minute sweep's meetings pass when nothing is due, on a club with a year of history:
what every minute costs the process that leads.

    python -m bench.meetings_sweep [--channels N] [--repeats R]

Ours: session_notices.send_due_notices at an idle instant (no reminder, poll, presenter or
rating due), over CHANNELS channels each with a weekly meeting, polls, a rotation of three and
a year of past sessions with polls closed, presenters, RSVPs and sent reminders. The baseline
reads the same rows the pass needs at the least: each channel's sessions of the next two weeks
with their notices and presenters, in one query a channel, on the same SQLite file. The
history must not show: the pass reads what is near now, never the years before.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import UTC, datetime, timedelta
from datetime import time as wall
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bench.stats import figure
from bot.db.database import Database
from bot.db.migrate import upgrade
from bot.domain import ChannelKey, Schedule
from bot.meetings.ballots import Rsvp
from bot.meetings.meeting import Meeting
from bot.meetings.reminders import DEFAULT_OFFSETS
from bot.ports.polls import PollSettings
from bot.services.meeting_sessions import bring_up_to_date
from bot.services.session_notices import SessionSender, send_due_notices
from tests.services.memory_chat import MemoryChat

CHANNELS = 50
HISTORY = timedelta(weeks=52)
# A Monday 09:00 UTC; the meetings are on Thursdays at 16:00 UTC: nothing is due at NOW.
NOW = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
BASELINE_SQL = text(
    "SELECT s.id, s.start_at, s.cancelled, n.kind, p.user_id FROM sessions s "
    "LEFT JOIN meeting_notices n ON n.session_id = s.id "
    "LEFT JOIN session_presenters p ON p.session_id = s.id "
    "WHERE s.channel_id = :channel AND s.start_at >= :since AND s.start_at < :until"
)


def _club(*, database: Database, channels: int) -> list[ChannelKey]:
    """Channels with a weekly meeting, polls and a rotation, and a year of sessions behind
    them, each with a closed poll, a presenter, RSVPs and its reminders noted sent."""
    keys = [
        ChannelKey(platform="slack", workspace="T1", channel=f"C{n:03}") for n in range(channels)
    ]
    start = NOW - HISTORY
    for key in keys:
        meeting = Meeting(
            weekday=4,
            start=wall(16, 0),
            zone="UTC",
            first_date=start.date(),
            duration=timedelta(minutes=60),
        )
        with database() as store:
            store.save_channel(
                key=key,
                schedule=Schedule(post_time=wall(9), timezone="UTC", weekdays=frozenset(range(5))),
                private=False,
            )
            store.save_meeting(channel=key, meeting=meeting, reminders=DEFAULT_OFFSETS, now=start)
            store.save_poll_settings(channel=key, settings=PollSettings())
            for user in ("U1", "U2", "U3"):
                store.join_rotation(channel=key, user=user, now=start)
        bring_up_to_date(uow=database, channel=key, now=start)  # the sessions of a year ago on
        at = start
        while at < NOW:
            bring_up_to_date(uow=database, channel=key, now=at)
            at += timedelta(weeks=12)
        with database() as store:
            past = store.session_records(channel=key, since=start, until=NOW)
            for n, record in enumerate(past):
                store.assign_presenter(
                    session_id=record.id,
                    user=f"U{n % 3 + 1}",
                    how="rotation",
                    now=start,
                    replace=False,
                )
                store.set_rsvp(session_id=record.id, user="U1", answer=Rsvp.GOING, now=start)
                store.open_poll(session_id=record.id, slate=[], now=start)
                store.close_poll(session_id=record.id, winner=None, now=start)
                for kind in ("reminder:1d", "reminder:30m", "poll", "poll-result"):
                    notice = store.open_notice(session_id=record.id, kind=kind, now=start)
                    if notice is not None:
                        store.notice_sent(notice_id=notice.id, message_id="1.0")
        bring_up_to_date(uow=database, channel=key, now=NOW)
    return keys


def _ours(*, database: Database) -> float:
    """One idle pass, in milliseconds; it must send nothing."""
    sender = SessionSender(
        uow=database,
        chat=MemoryChat(),
        platform="slack",
        owner="bench:1:a",
        owner_alive=lambda _o: True,
    )
    began = time.perf_counter()
    sent = send_due_notices(sessions=sender, now=NOW)
    took = (time.perf_counter() - began) * 1000
    assert sent == 0, "the idle instant had something due"
    return took


def _bare(*, database: Database, channels: int) -> float:
    """The baseline read, in milliseconds."""
    since, until = NOW.replace(tzinfo=None), (NOW + timedelta(days=15)).replace(tzinfo=None)
    began = time.perf_counter()
    with database.engine.connect() as connection:
        for channel_id in range(1, channels + 1):
            connection.execute(
                BASELINE_SQL, {"channel": channel_id, "since": since, "until": until}
            ).all()
    return (time.perf_counter() - began) * 1000


def run(*, channels: int = CHANNELS, repeats: int = 7) -> list[dict[str, Any]]:
    """The figure: ours against the bare read, `repeats` passes each."""
    with tempfile.TemporaryDirectory() as folder:
        database = Database(url=f"sqlite:///{Path(folder) / 'club.db'}")
        try:
            upgrade(engine=database.engine)
            _club(database=database, channels=channels)
            _ours(database=database)  # warm: the first pass brings nothing up to date after
            ours = [_ours(database=database) for _ in range(repeats)]
            bare = [_bare(database=database, channels=channels) for _ in range(repeats)]
        finally:
            database.dispose()
    return [
        figure(
            name=f"meetings minute pass, {channels} channels, a year of history, idle",
            unit="ms",
            ours=ours,
            baseline="bare read of the next sessions",
            theirs=bare,
        )
    ]


def main() -> int:
    """Print the figure."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--channels", type=int, default=CHANNELS)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    for row in run(channels=args.channels, repeats=args.repeats):
        print(
            f"{row['name']}: {row['median']:.1f} ms ({row['min']:.1f}–{row['max']:.1f}) vs "
            f"{row['baseline']} {row['baseline_median']:.1f} ms ({row['baseline_min']:.1f}–"
            f"{row['baseline_max']:.1f}): {row['ratio']:.1f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
