"""What a session's platform event says (Discord's scheduled event): plain text, which the
platform cuts to its limits and keeps inert. The place is said in full in the description too:
Discord keeps only 100 characters of a location, and a cut link leads nowhere."""

from __future__ import annotations

from bot.meetings.ics import session_uid
from bot.ports.meetings import SessionRecord
from bot.ports.session_events import SessionEvent
from bot.wording.meetings import when

NAME = "Reading group"
# An event outside the platform's voice channels must say where it is (Discord refuses none).
NO_PLACE = "In the channel"


def session_event(*, record: SessionRecord) -> SessionEvent:
    """The event of a session as it stands."""
    session = record.session
    said = [f"The reading group meets: {when(session=session)}."]
    if session.moved:
        said.append(f"Moved: the series had it on {session.day:%a %d %b} at its usual time.")
    if session.one_off:
        said.append("A one-off session, outside the series.")
    if session.place:
        said.append(f"Where: {session.place}")
    said.append("Say whether you come with /paperclub rsvp, or on the reminder in the channel.")
    marker = "ref " + session_uid(
        channel_key=str(record.channel), day=session.day, one_off=session.one_off
    )
    return SessionEvent(
        name=NAME,
        description="\n".join(said),
        marker=marker,
        place=session.place.strip() or NO_PLACE,
        start=session.start,
        end=session.end,
    )
