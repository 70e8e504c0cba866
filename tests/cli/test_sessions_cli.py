"""`paperclub sessions`: a channel's meeting sessions from the shell, as text and JSON, each
with its presenter and RSVPs; a channel without a meeting says how to make one."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, time, timedelta

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.meetings.ballots import Rsvp
from bot.meetings.meeting import Meeting
from bot.meetings.reminders import DEFAULT_OFFSETS
from bot.services.meeting_sessions import bring_up_to_date
from tests.cli.conftest import Runner

KEY = ChannelKey(platform="slack", workspace="T1", channel="C1")
PLACE = "<!channel> Room 2 *bold* 🧪"


def test_sessions_as_text_and_json(paperclub: Runner) -> None:
    empty = paperclub("sessions", "--channel", str(KEY))
    assert "has no sessions" in empty.stdout and "/paperclub meeting set" in empty.stdout
    now = datetime.now(UTC)
    database = Database(url=os.environ["PAPERCLUB_DATABASE_URL"])
    try:
        with database() as store:
            meeting = Meeting(
                weekday=now.isoweekday(),
                start=time(23, 59),
                zone="UTC",
                first_date=(now + timedelta(days=1)).date(),
                duration=timedelta(minutes=60),
                place=PLACE,
            )
            store.save_meeting(channel=KEY, meeting=meeting, reminders=DEFAULT_OFFSETS, now=now)
        bring_up_to_date(uow=database, channel=KEY, now=now)
        with database() as store:
            first = store.session_records(channel=KEY, since=now, until=now + timedelta(weeks=2))[0]
            store.set_rsvp(session_id=first.id, user="U1", answer=Rsvp.GOING, now=now)
            store.join_rotation(channel=KEY, user="U2", now=now)
            store.assign_presenter(
                session_id=first.id, user="U2", how="volunteer", now=now, replace=False
            )
    finally:
        database.dispose()
    rows = json.loads(paperclub("sessions", "--channel", str(KEY), "--json").stdout)
    assert len(rows) == 11  # made twelve weeks ahead: the first a week from today
    assert rows[0]["place"] == PLACE and rows[0]["cancelled"] is False
    assert rows[0]["presenter"] == {"user": "U2", "how": "volunteer"}
    assert [r["user"] for r in rows[0]["rsvps"] if r["answer"] == "going"] == ["U1"]
    text = paperclub("sessions", "--channel", str(KEY)).stdout
    assert f"#{rows[0]['id']} " in text and "23:59–00:59 UTC · presents: U2" in text
