"""The Slack scenario harness (tests/slack/conftest.py), for the metrics tests."""

from tests.slack.conftest import fake, harness, settings

__all__ = ["fake", "harness", "settings"]
