"""`paperclub sessions`: a channel's meeting sessions from the shell (the last four weeks and
what is made ahead), with each one's presenter and the paper its poll chose; `--json` for
scripts, in the export's sessions-json shape (poll, tally and RSVPs too). The channel is named
as `paperclub watch` takes it."""

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
from bot.export_sessions import session_dict
from bot.ports.session_history import SessionHistory
from bot.runtime.clock import SystemClock
from bot.services.meeting_sessions import HORIZON, bring_up_to_date
from bot.wording.meetings import when

PAST = timedelta(weeks=4)  # how far back the listing goes


def add_parser(*, sub: Any) -> None:
    """`sessions --channel K [--json]`."""
    sessions = sub.add_parser("sessions", help="a channel's meeting sessions, past and ahead")
    sessions.add_argument("--channel", required=True, help="C0123, slack:C0123 or slack:T1:C0123")
    sessions.add_argument("--json", action="store_true", help="print them as JSON")


def listed(*, database: Database, key: ChannelKey, now: datetime) -> list[SessionHistory]:
    """The channel's sessions from PAST ago to what is made ahead, each as the club keeps it."""
    bring_up_to_date(uow=database, channel=key, now=now)
    with database(write=False) as store:
        return store.session_history(
            workspace=key.workspace_key, channel=key, since=now - PAST, until=now + HORIZON
        )


def cmd_sessions(*, args: argparse.Namespace, settings: Settings) -> int:
    """Print the channel's sessions."""
    database = open_database(settings=settings)
    try:
        key = channel_key(database=database, name=args.channel)
        found = listed(database=database, key=key, now=SystemClock().now())
    finally:
        database.dispose()
    if args.json:  # the export's shape (sessions-json), one channel's
        print(json.dumps([session_dict(memory=m) for m in found], indent=2, ensure_ascii=False))
        return 0
    if not found:
        print(f"{key} has no sessions: /paperclub meeting set thu 16:00 makes some.")
        return 0
    for memory in found:
        record = memory.record
        state = " · cancelled" if record.cancelled else ""
        who = f" · presents: {memory.presenter.user}" if memory.presenter else ""
        paper = f" · paper: {memory.paper.title}" if memory.paper else ""
        print(f"#{record.id} {when(session=record.session)}{state}{who}{paper}")
    return 0
