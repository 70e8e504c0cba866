"""Settings, read once from the environment (and an optional .env file), validated, frozen."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import time
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dotenv import dotenv_values

from bot.config.checks import PREFIXES, half_configured, unknown_variables
from bot.config.discord import (
    DEFAULT_DISCORD_API_URL,
    DEFAULT_DISCORD_GATEWAY_URL,
    DISCORD_VARIABLES,
    discord_variables,
)
from bot.config.semantic import SEMANTIC_VARIABLES, semantic_enabled
from bot.config.slack import (
    DEFAULT_API_URL,
    SLACK_VARIABLES,
    Distribution,
    SlackConfigError,
    secret_keys,
    slack_settings,
)
from bot.config.sources import SOURCES_VARIABLES, SourcesSettings, sources_settings
from bot.config.values import ConfigError as ConfigError
from bot.config.values import contact, database_url, http_url, listen_host, reactions
from bot.config.web import WEB_VARIABLES, WebSettings, web_settings
from bot.config.zotero import (
    DEFAULT_SYNC_SECONDS,
    DEFAULT_ZOTERO_API,
    ZOTERO_VARIABLES,
    zotero_settings,
)
from bot.schedule_text import ScheduleTextError, parse_days, parse_hhmm

DEFAULT_ARXIV_API = "https://export.arxiv.org/api/query"
DEFAULT_CROSSREF_API = "https://api.crossref.org"

# Every variable the bot reads, with a one-line meaning; the README lists them all (a test checks).
VARIABLES: dict[str, str] = {
    **SLACK_VARIABLES,
    **WEB_VARIABLES,
    **SOURCES_VARIABLES,
    **DISCORD_VARIABLES,
    **SEMANTIC_VARIABLES,
    **ZOTERO_VARIABLES,
    "PAPERCLUB_DATABASE_URL": "SQLAlchemy URL (default: SQLite file paperclub.db here).",
    "PAPERCLUB_CHANNEL": "Channel id that follows the reading list from the start.",
    "PAPERCLUB_POST_TIME": "Local time of the daily post, HH:MM (default 09:00).",
    "PAPERCLUB_TIMEZONE": "IANA time zone of the post time (default UTC).",
    "PAPERCLUB_DAYS": "Days to post: mon-fri (default), daily, or a list like mon,wed,fri.",
    "PAPERCLUB_ADMINS": "Comma-separated user ids allowed to run admin commands.",
    "PAPERCLUB_HTTP_PORT": "Port of /slack/events, /healthz, /metrics (default 3000; 0: any).",
    "PAPERCLUB_HTTP_HOST": "Address to listen on (default 127.0.0.1; the image: 0.0.0.0).",
    "PAPERCLUB_LOG_LEVEL": "Logging level: DEBUG, INFO (default), WARNING, ERROR.",
    "PAPERCLUB_ARXIV_API_URL": "arXiv API for /paperclub add (default the public export API).",
    "PAPERCLUB_CROSSREF_API_URL": "Crossref API for DOIs (default https://api.crossref.org).",
    "PAPERCLUB_LOOKUP_TIMEOUT": "Seconds to wait for arXiv or Crossref (default 3).",
    "PAPERCLUB_CONTACT": "An email for arXiv's and Crossref's logs (User-Agent, mailto).",
    "PAPERCLUB_UP_REACTIONS": "Reactions that vote 👍 (default +1,thumbsup; skin tones count).",
    "PAPERCLUB_DOWN_REACTIONS": "Reactions that vote 👎 (default -1,thumbsdown).",
}


_SLACK_ID = re.compile(r"^[A-Z0-9]{2,20}$")


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot is told from outside; tokens never show in repr."""

    slack_bot_token: str | None = field(default=None, repr=False)
    slack_app_token: str | None = field(default=None, repr=False)
    slack_signing_secret: str | None = field(default=None, repr=False)
    slack_api_url: str = DEFAULT_API_URL
    slack_distribution: Distribution | None = None  # OAuth: every installed workspace
    slack_history_limits: str = "tiers"  # or "non-marketplace" (bot.config.slack)
    discord_token: str | None = field(default=None, repr=False)
    discord_api_url: str = DEFAULT_DISCORD_API_URL
    discord_gateway_url: str = DEFAULT_DISCORD_GATEWAY_URL
    discord_channel: str | None = None
    database_url: str = "sqlite:///paperclub.db"
    channel: str | None = None
    post_time: time = time(9, 0)
    timezone: str = "UTC"
    days: frozenset[int] = frozenset({1, 2, 3, 4, 5})
    admins: tuple[str, ...] = ()
    http_port: int = 3000
    http_host: str = "127.0.0.1"
    log_level: str = "INFO"
    arxiv_api_url: str = DEFAULT_ARXIV_API
    crossref_api_url: str = DEFAULT_CROSSREF_API
    lookup_timeout: float = 3.0
    contact: str = ""
    up_reactions: frozenset[str] = frozenset({"+1", "thumbsup"})
    down_reactions: frozenset[str] = frozenset({"-1", "thumbsdown"})
    web: WebSettings = field(default_factory=WebSettings)
    sources: SourcesSettings = field(default_factory=SourcesSettings)
    # PAPERCLUB_SECRET_KEY, newest first: seals stored secrets (installed workspaces' tokens,
    # Zotero keys); empty: nothing can be sealed, so Zotero cannot be connected.
    secret_keys: tuple[str, ...] = field(default=(), repr=False)
    zotero_api: str = DEFAULT_ZOTERO_API
    zotero_sync_seconds: float = DEFAULT_SYNC_SECONDS
    # The semantic extra, when installed: load_settings turns it on unless PAPERCLUB_SEMANTIC=off;
    # off for settings made in code (tests), which ask for it where they test it.
    semantic: bool = False
    # Found by load_settings, for `paperclub` to warn about (unknown) or `run` to refuse
    # (incomplete): one sentence each, naming the variables (bot.config.checks).
    unknown: tuple[str, ...] = ()
    incomplete: tuple[str, ...] = ()

    @property
    def secrets(self) -> tuple[str, ...]:
        """Every secret value set, for the log redaction (tokens have shapes; these may not)."""
        values = (self.slack_bot_token, self.slack_app_token, self.slack_signing_secret)
        oauth = self.slack_distribution
        sealed = (oauth.client_secret,) if oauth else ()
        keys = self.secret_keys
        return tuple(v for v in (*values, *sealed, *keys, self.discord_token) if v)

    @property
    def slack_configured(self) -> bool:
        """A bot token, with an app token (Socket Mode) or a signing secret (HTTP); or OAuth
        distribution with its signing secret."""
        token = bool(self.slack_bot_token or self.slack_distribution)
        return token and bool(self.slack_app_token or self.slack_signing_secret)

    @property
    def discord_configured(self) -> bool:
        """A Discord bot token is all Discord needs."""
        return bool(self.discord_token)

    @property
    def has_slack(self) -> bool:
        """True when a bot token is set, so Slack (not the console) is the platform."""
        return bool(self.slack_bot_token)


def load_settings(
    *,
    environ: Mapping[str, str] | None = None,
    env_file: Path | None = None,
    cwd: Path | None = None,
) -> Settings:
    """Read the settings once: .env first, the real environment wins. `cwd`: the folder the
    settings are read for (default: this process's), where .env and the default database
    are (a running bot reads a `paperclub search`'s settings for it: bot/cli/warm_server.py)."""
    here = Path.cwd() if cwd is None else cwd
    source = dict(os.environ) if environ is None else dict(environ)
    path = env_file if env_file is not None else here / ".env"
    merged: dict[str, str] = {}
    if path.is_file():
        merged.update({k: v for k, v in dotenv_values(path).items() if v is not None})
    merged.update(source)
    ours = {k: v.strip() for k, v in merged.items() if k.upper().startswith(PREFIXES)}
    settings = _validate(values={k: v for k, v in ours.items() if k in VARIABLES}, cwd=here)
    return replace(
        settings,
        unknown=tuple(unknown_variables(names=ours, known=VARIABLES)),
        incomplete=tuple(
            half_configured(values={k: v for k, v in ours.items() if v}, known=VARIABLES)
        ),
    )


def _validate(*, values: Mapping[str, str], cwd: Path) -> Settings:
    """Turn raw strings into typed settings, naming the variable on any error."""

    def get(name: str) -> str | None:
        """An empty variable counts as unset."""
        return values.get(name) or None

    try:
        slack = slack_settings(get=get)
    except SlackConfigError as exc:
        raise ConfigError(str(exc)) from None
    discord = discord_variables(get=get, error=ConfigError)
    channel = get("PAPERCLUB_CHANNEL")
    if channel and not _SLACK_ID.match(channel):
        raise ConfigError(
            f"PAPERCLUB_CHANNEL must be a channel id like C0123ABCD, got {channel!r} "
            "(in Slack: channel details, bottom of the About tab)."
        )
    try:
        post_time = parse_hhmm(text=get("PAPERCLUB_POST_TIME") or "09:00")
    except ScheduleTextError as exc:
        raise ConfigError(f"PAPERCLUB_POST_TIME: {exc}") from None
    try:
        days = parse_days(text=get("PAPERCLUB_DAYS") or "mon-fri")
    except ScheduleTextError as exc:
        raise ConfigError(f"PAPERCLUB_DAYS: {exc}") from None
    tz = get("PAPERCLUB_TIMEZONE") or "UTC"
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # America/Argentina is a folder
        raise ConfigError(
            f"PAPERCLUB_TIMEZONE must be an IANA name like Europe/Berlin, got {tz!r}."
        ) from None
    admins = tuple(a.strip() for a in (get("PAPERCLUB_ADMINS") or "").split(",") if a.strip())
    bad = [a for a in admins if not _SLACK_ID.match(a)]
    if bad:
        raise ConfigError(f"PAPERCLUB_ADMINS must be user ids like U0123ABCD, got {bad[0]!r}.")
    port_text = get("PAPERCLUB_HTTP_PORT") or "3000"
    if not port_text.isdigit() or not 0 <= int(port_text) < 65536:
        raise ConfigError(f"PAPERCLUB_HTTP_PORT must be a port number, got {port_text!r}.")
    host = listen_host(text=get("PAPERCLUB_HTTP_HOST") or "127.0.0.1")
    level = (get("PAPERCLUB_LOG_LEVEL") or "INFO").upper()
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        raise ConfigError(f"PAPERCLUB_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR: {level!r}.")
    up = reactions(
        name="PAPERCLUB_UP_REACTIONS", text=get("PAPERCLUB_UP_REACTIONS") or "+1,thumbsup"
    )
    down = reactions(
        name="PAPERCLUB_DOWN_REACTIONS", text=get("PAPERCLUB_DOWN_REACTIONS") or "-1,thumbsdown"
    )
    if up & down:
        raise ConfigError(
            f"PAPERCLUB_UP_REACTIONS and PAPERCLUB_DOWN_REACTIONS share {sorted(up & down)[0]!r}."
        )
    lookups = {
        name: http_url(name=name, text=get(name) or default)
        for name, default in (
            ("PAPERCLUB_ARXIV_API_URL", DEFAULT_ARXIV_API),
            ("PAPERCLUB_CROSSREF_API_URL", DEFAULT_CROSSREF_API),
        )
    }
    zotero_api, zotero_sync = zotero_settings(get=get)
    timeout_text = get("PAPERCLUB_LOOKUP_TIMEOUT") or "3"
    try:
        timeout = float(timeout_text)
    except ValueError:
        timeout = -1.0
    if not 0 < timeout <= 60:
        raise ConfigError(f"PAPERCLUB_LOOKUP_TIMEOUT must be seconds (0-60], got {timeout_text!r}.")
    return Settings(
        arxiv_api_url=lookups["PAPERCLUB_ARXIV_API_URL"],
        crossref_api_url=lookups["PAPERCLUB_CROSSREF_API_URL"],
        lookup_timeout=timeout,
        contact=contact(text=get("PAPERCLUB_CONTACT")),
        up_reactions=up,
        down_reactions=down,
        **slack,
        web=web_settings(get=get, error=ConfigError),
        sources=sources_settings(get=get, error=ConfigError),
        semantic=semantic_enabled(get=get, error=ConfigError),
        secret_keys=_secret_keys(get=get),
        zotero_api=zotero_api,
        zotero_sync_seconds=zotero_sync,
        discord_token=discord["DISCORD_TOKEN"],
        discord_api_url=discord["DISCORD_API_URL"] or DEFAULT_DISCORD_API_URL,
        discord_gateway_url=discord["DISCORD_GATEWAY_URL"] or DEFAULT_DISCORD_GATEWAY_URL,
        discord_channel=discord["DISCORD_CHANNEL"],
        database_url=database_url(text=get("PAPERCLUB_DATABASE_URL"), cwd=cwd),
        channel=channel,
        post_time=post_time,
        timezone=tz,
        days=days,
        admins=admins,
        http_port=int(port_text),
        http_host=host,
        log_level=level,
    )


def _secret_keys(*, get: Callable[[str], str | None]) -> tuple[str, ...]:
    """PAPERCLUB_SECRET_KEY's keys, checked (slack_settings checked them already when Slack is
    distributed; here for every other use)."""
    try:
        return secret_keys(text=get("PAPERCLUB_SECRET_KEY"))
    except SlackConfigError as exc:
        raise ConfigError(str(exc)) from None
