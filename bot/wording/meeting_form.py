"""The App Home's meeting form: its button, labels and what it says is wrong with a field.
Field errors are plain text (Slack shows them under the input, without markup)."""

from __future__ import annotations

from bot.domain import ChannelKey
from bot.messages import ChannelRef, Paragraph, line

SET_MEETING = "Meeting…"
FORM_TITLE = "Meeting"  # a modal's title holds at most 24 characters
FORM_SUBMIT = "Save"
FORM_CLOSE = "Cancel"
DAY = "Day"
TIME = "Starts at"
ZONE = "Time zone"
EVERY = "How often"
FIRST = "First session on or after"
FIRST_HINT = "Empty: from today. Keep a fortnightly meeting's date to keep its weeks."
DURATION = "Lasts"
DURATION_HINT = "Like 60m, 90m or 1h30m (at most 12h)."
PLACE = "Where"
PLACE_HINT = "A room or a video link, shown as typed in reminders and the calendar."
REMINDERS = "Reminders before each session"
REMINDERS_HINT = "Lead times like 1d 2h 30m; empty for no reminders."


def every_label(*, weeks: int) -> str:
    """ "Every week", "Every 2 weeks"."""
    return "Every week" if weeks == 1 else f"Every {weeks} weeks"


def form_intro(*, channel: ChannelKey) -> Paragraph:
    """The form's opening line."""
    return line(
        "When and where ",
        ChannelRef(channel.channel),
        " meets. Reminders and the calendar follow it.",
    )


NEED_DAY = "Pick the day of the week."
NEED_TIME = "Pick the time the session starts."
NEED_ZONE = "Pick a time zone."
BAD_ZONE = "Pick a time zone from the list."
BAD_EVERY = "Pick how often, from every week to every 8 weeks."
NEED_DURATION = "Say how long a session lasts, like 90m."
NOT_ADMIN = "Only Paper Club admins can change the meeting."
