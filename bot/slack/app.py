"""Build the Bolt App: the client, request verification and every listener."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from slack_bolt import App
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.logger import get_bolt_logger
from slack_bolt.logger.messages import (
    info_default_oauth_settings_loaded,
    warning_client_prioritized_and_token_skipped,
)
from slack_sdk import WebClient

from bot.slack.deps import SlackDeps
from bot.slack.listeners import (
    commands,
    events,
    guard,
    home,
    lag,
    meeting_form,
    messages,
    nominate,
    search,
    tray,
    votes,
)

__all__ = ["SlackDeps", "build_app"]


class _DropTokenUnused(logging.Filter):
    """Drops Bolt's "`token` will be unused" warning, and (distribution) its note that file
    stores were enabled from SLACK_CLIENT_ID: a workspace's app is authorized by its stored bot
    and never runs that flow, the installations live in the database."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep every record but those two."""
        unused = (
            warning_client_prioritized_and_token_skipped(),
            info_default_oauth_settings_loaded(),
        )
        return record.getMessage() not in unused


@contextmanager
def _quiet_token_warning() -> Iterator[None]:
    """While the App is built: given a client, Bolt still looks SLACK_BOT_TOKEN up in the
    environment itself and warns that it goes unused. Settings let the environment win over
    .env, so that variable is the very token our client carries: nothing to warn about, and
    no argument combination stops the look-up."""
    bolt_log, quiet = get_bolt_logger(App), _DropTokenUnused()
    bolt_log.addFilter(quiet)
    try:
        yield
    finally:
        bolt_log.removeFilter(quiet)


def build_app(
    *,
    client: WebClient,
    signing_secret: str | None,
    deps: SlackDeps,
    authorize: Callable[..., AuthorizeResult] | None = None,
) -> App:
    """A Bolt App on our client; requests are verified whenever a signing secret is set.
    `authorize` (distribution: one workspace's stored bot) replaces the token check."""
    with _quiet_token_warning():
        app = _app(client=client, signing_secret=signing_secret, authorize=authorize)
    guard.register(app=app, deps=deps)  # first: nothing of another team reaches a listener
    lag.register(app=app, deps=deps)
    commands.register(app=app, deps=deps)
    votes.register(app=app, deps=deps)
    search.register(app=app, deps=deps)
    tray.register(app=app, deps=deps)
    messages.register(app=app, deps=deps)
    home.register(app=app, deps=deps)
    meeting_form.register(app=app, deps=deps)
    nominate.register(app=app, deps=deps)
    events.register(app=app)  # last: the catch-all
    return app


def _app(
    *,
    client: WebClient,
    signing_secret: str | None,
    authorize: Callable[..., AuthorizeResult] | None,
) -> App:
    """The bare App: our client (its auth.test answer is shared with the plug-in's check)."""
    return App(
        authorize=authorize,
        # Without a name Bolt walks the call stack (inspect.stack reads every frame's source)
        # to name the app after the calling file: ~0.1 s of every start.
        name="paperclub",
        client=client,
        signing_secret=signing_secret or "",
        # Socket Mode requests carry no signature; HTTP mode always has a secret (runner checks).
        request_verification_enabled=bool(signing_secret),
        # Bolt acks events before their listener runs unless this is on; we want the reverse
        # (an acknowledged vote or comment is on disk). Commands stay fast through lazy
        # listeners: the ack goes out at once and the work runs after it.
        process_before_response=True,
    )
