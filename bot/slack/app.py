"""Build the Bolt App: the client, request verification and every listener."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from slack_bolt import App
from slack_sdk import WebClient

from bot.domain import Schedule
from bot.ports import Chat, Clock, UnitOfWork
from bot.services.posting import Poster
from bot.slack.listeners import commands, events
from bot.slack.listeners.commands import PLATFORM

__all__ = ["PLATFORM", "SlackDeps", "build_app"]


@dataclass(frozen=True, slots=True)
class SlackDeps:
    """What the listeners need: services' inputs and a hook to rebuild the scheduler."""

    uow: UnitOfWork
    chat: Chat
    poster: Poster
    clock: Clock
    admins: tuple[str, ...]
    defaults: Schedule
    on_reschedule: Callable[[], None]


def build_app(*, client: WebClient, signing_secret: str | None, deps: SlackDeps) -> App:
    """A Bolt App on our client; requests are verified whenever a signing secret is set."""
    app = App(
        client=client,
        signing_secret=signing_secret or "",
        # Socket Mode requests carry no signature; HTTP mode always has a secret (runner checks).
        request_verification_enabled=bool(signing_secret),
        process_before_response=False,
    )
    commands.register(app=app, deps=deps)
    events.register(app=app)
    return app
