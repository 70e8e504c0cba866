"""Meetings (issue 33), pure: when a channel's reading-group sessions fall (recurrence.py), the
poll that chooses each session's paper (polls.py), who presents (rotation.py), and the
calendar feed that carries them (ics.py). No storage, network or platform here."""
