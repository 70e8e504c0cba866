"""The Slack plug-in as registered: one workspace (bot.slack.single, tokens from the
environment) or, with SLACK_CLIENT_ID set, distribution (bot.slack.distribution) on the sealed
stores of bot.slack.oauth."""

from __future__ import annotations

from bot.config.settings import Settings
from bot.ports import Platform
from bot.services.club import Club
from bot.slack import single

NAME = single.NAME


def configured(*, settings: Settings) -> bool:
    """Tokens for one workspace, or OAuth distribution, each with its way in."""
    return settings.slack_configured


def missing(*, settings: Settings, mode: str) -> list[str]:
    """The variables the mode needs that are not set."""
    if settings.slack_distribution is None:
        return single.missing(settings=settings, mode=mode)
    return [] if settings.slack_signing_secret else ["SLACK_SIGNING_SECRET"]


def build(*, settings: Settings, club: Club, mode: str) -> Platform:
    """The single-workspace plug-in, or distribution on its own engine for the stores."""
    oauth = settings.slack_distribution
    if oauth is None:
        return single.build(settings=settings, club=club, mode=mode)
    from bot.slack.distribution import build as distributed
    from bot.slack.oauth.store import open_stores

    stores = open_stores(
        url=settings.database_url, client_id=oauth.client_id, secret_keys=oauth.secret_keys
    )
    try:
        return distributed(
            settings=settings,
            club=club,
            mode=mode,
            installations=stores.installations,
            states=stores.states,
            on_close=stores.close,
        )
    except BaseException:
        stores.close()
        raise
