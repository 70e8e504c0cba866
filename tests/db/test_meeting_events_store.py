"""The meetings storage's platform events (Discord's scheduled events): a session's event noted
with the sequence it shows, read back with the session, and the channels whose events lag; on
SQLite and, where present, PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from bot.db.database import Database
from tests.db.meetings_data import REMINDERS, WEEKLY, session_on
from tests.db.sources_data import DAY, HERE, NOW, ON_DISCORD


def test_an_event_is_noted_with_its_sequence_and_read_back(any_database: Database) -> None:
    session = session_on(DAY + timedelta(days=1))
    with any_database() as store:
        session_id = store.add_session(channel=ON_DISCORD, session=session, now=NOW)
        assert session_id is not None
        record = store.session_record(session_id=session_id)
        assert record is not None
        assert (record.platform_event, record.platform_event_sequence) == (None, None)
        store.note_platform_event(session_id=session_id, event_id="1234", sequence=0)
        store.change_session(session_id=session_id, session=session, cancelled=True, now=NOW)
        record = store.session_record(session_id=session_id)
        assert record is not None
        assert (record.platform_event, record.platform_event_sequence, record.sequence) == (
            "1234",
            0,
            1,
        )
        [listed] = store.session_records(
            channel=ON_DISCORD, since=NOW, until=NOW + timedelta(days=7)
        )
        assert listed == record
        store.note_platform_event(session_id=session_id, event_id=None, sequence=1)
        record = store.session_record(session_id=session_id)
        assert record is not None
        assert (record.platform_event, record.platform_event_sequence) == (None, 1)


def test_channels_with_a_meeting_or_a_lagging_event_are_listed(any_database: Database) -> None:
    ahead = session_on(DAY + timedelta(days=1))
    with any_database() as store:
        store.save_meeting(channel=HERE, meeting=WEEKLY, reminders=REMINDERS, now=NOW)
        session_id = store.add_session(channel=ON_DISCORD, session=ahead, now=NOW)
        assert session_id is not None
        # A session without an event, or whose event shows it as it is: nothing to do there.
        assert store.platform_event_channels(platform="discord", now=NOW) == []
        store.note_platform_event(session_id=session_id, event_id="1234", sequence=0)
        assert store.platform_event_channels(platform="discord", now=NOW) == []
        store.change_session(session_id=session_id, session=ahead, cancelled=True, now=NOW)
        assert store.platform_event_channels(platform="discord", now=NOW) == [ON_DISCORD]
        # Once the session began, its event is history.
        assert store.platform_event_channels(platform="discord", now=ahead.start) == []
        assert store.platform_event_channels(platform="slack", now=NOW) == [HERE]
