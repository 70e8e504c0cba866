"""Build the Bolt App: the client, request verification and every listener."""

from __future__ import annotations

from slack_bolt import App
from slack_sdk import WebClient

from bot.slack.deps import SlackDeps
from bot.slack.listeners import commands, events, guard, messages, search, votes

__all__ = ["SlackDeps", "build_app"]


def build_app(*, client: WebClient, signing_secret: str | None, deps: SlackDeps) -> App:
    """A Bolt App on our client; requests are verified whenever a signing secret is set."""
    app = App(
        client=client,
        signing_secret=signing_secret or "",
        # Socket Mode requests carry no signature; HTTP mode always has a secret (runner checks).
        request_verification_enabled=bool(signing_secret),
        # Bolt acks events before their listener runs unless this is on; we want the reverse
        # (an acknowledged vote or comment is on disk). Commands stay fast through lazy
        # listeners: the ack goes out at once and the work runs after it.
        process_before_response=True,
    )
    guard.register(app=app, deps=deps)  # first: nothing of another team reaches a listener
    commands.register(app=app, deps=deps)
    votes.register(app=app, deps=deps)
    search.register(app=app, deps=deps)
    messages.register(app=app, deps=deps)
    events.register(app=app)  # last: the catch-all
    return app
