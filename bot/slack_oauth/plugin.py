"""The Slack plug-in as registered: one workspace (bot.slack.plugin, tokens from the
environment) or, with SLACK_CLIENT_ID set, distribution (bot.slack.distribution) on the sealed
stores of this package. Here, not in bot/slack, because the stores need the database engine."""

from __future__ import annotations

from bot.config import Settings
from bot.ports import Platform
from bot.services.shared import Shared
from bot.slack import plugin as single

NAME = single.NAME


def configured(*, settings: Settings) -> bool:
    """Tokens for one workspace, or OAuth distribution, each with its way in."""
    return settings.slack_configured


def missing(*, settings: Settings, mode: str) -> list[str]:
    """The variables the mode needs that are not set."""
    if settings.slack_distribution is None:
        return single.missing(settings=settings, mode=mode)
    return [] if settings.slack_signing_secret else ["SLACK_SIGNING_SECRET"]


def build(*, settings: Settings, shared: Shared, mode: str) -> Platform:
    """The single-workspace plug-in, or distribution on its own engine for the stores."""
    oauth = settings.slack_distribution
    if oauth is None:
        return single.build(settings=settings, shared=shared, mode=mode)
    from bot.db.engine import make_engine
    from bot.slack.distribution import build as distributed
    from bot.slack_oauth.crypto import TokenCipher
    from bot.slack_oauth.store import SealedInstallationStore, state_store

    engine = make_engine(url=settings.database_url)
    try:
        installations = SealedInstallationStore(
            client_id=oauth.client_id, engine=engine, cipher=TokenCipher(keys=oauth.secret_keys)
        )
        return distributed(
            settings=settings, shared=shared, mode=mode, installations=installations,
            states=state_store(engine=engine), on_close=engine.dispose,
        )  # fmt: skip
    except BaseException:
        engine.dispose()
        raise
