"""The Discord scenario harness (tests/discord/conftest.py), for the metrics tests."""

from tests.discord.conftest import fake, harness, no_thread_leaks, settings

__all__ = ["fake", "harness", "no_thread_leaks", "settings"]
