"""`paperclub sessions`: a channel's meeting sessions from the shell (the last four weeks and
what is made ahead), with each one's presenter, RSVPs and the paper its poll chose; `--json`
for scripts. The channel is named as `paperclub watch` takes it."""

from __future__ import annotations

import argparse
import json
from datetime import datetime, timedelta
from typing import Any

from bot.cli.archive import open_database
from bot.cli.sources import channel_key
from bot.config.settings import Settings
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.ports.meetings import SessionRecord
from bot.runtime.clock import SystemClock
from bot.services.meeting_sessions import HORIZON, bring_up_to_date
from bot.wording.meetings import when

PAST = timedelta(weeks=4)  # how far back the listing goes


def add_parser(*, sub: Any) -> None:
    """`sessions --channel K [--json]`."""
    sessions = sub.add_parser("sessions", help="a channel's meeting sessions, past and ahead")
    sessions.add_argument("--channel", required=True, help="C0123, slack:C0123 or slack:T1:C0123")
    sessions.add_argument("--json", action="store_true", help="print them as JSON")


def _row(*, database: Database, record: SessionRecord) -> dict[str, object]:
    """A session as JSON: when (UTC and its zone), where, its state, presenter, RSVPs and
    the paper its poll chose."""
    session = record.session
    with database(write=False) as store:
        presenter = store.presenter_of(session_id=record.id)
        rsvps = store.rsvps(session_id=record.id)
        paper_id = store.chosen_paper(session_id=record.id)
        paper = store.paper(paper_id=paper_id) if paper_id is not None else None
    return {
        "number": record.id,
        "start": session.start.isoformat(),
        "end": session.end.isoformat(),
        "zone": session.zone,
        "place": session.place,
        "one_off": session.one_off,
        "cancelled": record.cancelled,
        "sequence": record.sequence,
        "presenter": presenter.user if presenter else None,
        "rsvps": {user: answer.value for user, answer in sorted(rsvps.items())},
        "paper": paper.title if paper else None,
    }


def listed(
    *, database: Database, key: ChannelKey, now: datetime
) -> list[tuple[SessionRecord, dict[str, object]]]:
    """The channel's sessions from PAST ago to what is made ahead, each with its row."""
    bring_up_to_date(uow=database, channel=key, now=now)
    with database(write=False) as store:
        records = store.session_records(channel=key, since=now - PAST, until=now + HORIZON)
    return [(r, _row(database=database, record=r)) for r in records]


def cmd_sessions(*, args: argparse.Namespace, settings: Settings) -> int:
    """Print the channel's sessions."""
    database = open_database(settings=settings)
    try:
        key = channel_key(database=database, name=args.channel)
        found = listed(database=database, key=key, now=SystemClock().now())
    finally:
        database.dispose()
    if args.json:
        print(json.dumps([row for _, row in found], indent=2, ensure_ascii=False))
        return 0
    if not found:
        print(f"{key} has no sessions: /paperclub meeting set thu 16:00 makes some.")
        return 0
    for record, row in found:
        state = " · cancelled" if row["cancelled"] else ""
        who = f" · presents: {row['presenter']}" if row["presenter"] else ""
        paper = f" · paper: {row['paper']}" if row["paper"] else ""
        print(f"#{row['number']} {when(session=record.session)}{state}{who}{paper}")
    return 0
