"""Hostile-input tests: what a Slack user sees of what the bot posts."""
