"""Thin discord.py listeners: read the event, make one core call on a worker thread (through
the bridge, never on the loop), answer.

Votes and comments are stored before a click is acknowledged: an acknowledged vote is on
disk. Commands defer first (Discord wants an answer within 3 s), then follow up.
"""
