"""Meetings (issue 33), pure: when a channel's reading-group sessions fall (meeting.py the
values and the local-time rule, recurrence.py the calendar, reminders.py reminders and poll
windows), the poll that chooses each session's paper (ballots.py its inputs, polls.py the
approval count and the one tie rule, runoff.py ranked choice), who presents (rotation.py), and
the calendar feed that carries them (ics.py). No storage, network or platform here."""
