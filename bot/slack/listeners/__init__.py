"""Thin Bolt listeners: one service call, then render with blocks.py.

Commands ack first (Slack wants an answer in 3 s and the reply goes through response_url).
Votes and comments are stored first and acked after: a write takes milliseconds, and an
acknowledged vote or comment must already be on disk (if the write fails, Slack retries).
"""
