"""Thin Bolt listeners: ack first, then one service call, then render with blocks.py."""
