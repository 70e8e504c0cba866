"""Slack distribution's storage: slack_sdk's SQLAlchemy installation and OAuth-state stores on
our database (tables from migration 0006), every token sealed with PAPERCLUB_SECRET_KEY."""
