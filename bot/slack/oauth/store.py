"""slack_sdk's SQLAlchemy stores with every token sealed before it is written and opened when
it is read; the tables are migration 0006's, never made by create_tables()."""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from slack_sdk.oauth.installation_store.models.bot import Bot
from slack_sdk.oauth.installation_store.models.installation import Installation
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import MetaData, String, Table, and_

from bot.db.engine import make_engine
from bot.sealing import TokenCipher

log = logging.getLogger(__name__)

BOT_TOKENS = ("bot_token", "bot_refresh_token")
TOKENS = (*BOT_TOKENS, "user_token", "user_refresh_token")
# A sealed token is about 2.4 times as long as the token (Fernet's IV, HMAC and base64):
# slack_sdk's 200 characters hold a plain one; a sealed rotating token needs more room.
SEALED_LENGTH = 1000
# OAuth states are good for ten minutes, as in Bolt's default.
STATE_SECONDS = 600


def _widen(*, table: Table, columns: tuple[str, ...]) -> Table:
    """The table with its token columns long enough for sealed values."""
    for name in columns:
        table.c[name].type = String(SEALED_LENGTH)
    return table


class SealedInstallationStore(SQLAlchemyInstallationStore):
    """An installation store whose rows hold sealed tokens; callers see plain ones."""

    def __init__(self, *, client_id: str, engine: Any, cipher: TokenCipher) -> None:
        """The store for one app (client id) on our engine."""
        super().__init__(client_id=client_id, engine=engine, logger=log)
        self.cipher = cipher

    @classmethod
    def build_installations_table(cls, metadata: MetaData, table_name: str) -> Table:
        """slack_sdk's table, token columns widened."""
        table = super().build_installations_table(metadata=metadata, table_name=table_name)
        return _widen(table=table, columns=TOKENS)

    @classmethod
    def build_bots_table(cls, metadata: MetaData, table_name: str) -> Table:
        """slack_sdk's table, token columns widened."""
        table = super().build_bots_table(metadata=metadata, table_name=table_name)
        return _widen(table=table, columns=BOT_TOKENS)

    def save(self, installation: Installation) -> None:
        """Store an installation (and its bot) with its tokens sealed."""
        sealed = copy.copy(installation)
        for name in TOKENS:
            setattr(sealed, name, self.cipher.seal(value=getattr(installation, name)))
        super().save(sealed)

    def save_bot(self, bot: Bot) -> None:
        """Store a bot with its tokens sealed (sealing a sealed token changes nothing)."""
        sealed = copy.copy(bot)
        for name in BOT_TOKENS:
            setattr(sealed, name, self.cipher.seal(value=getattr(bot, name)))
        super().save_bot(sealed)

    def find_bot(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        is_enterprise_install: bool | None = False,
    ) -> Bot | None:
        """A workspace's latest bot, tokens opened."""
        bot = super().find_bot(
            enterprise_id=enterprise_id,
            team_id=team_id,
            is_enterprise_install=is_enterprise_install,
        )
        for name in BOT_TOKENS if bot is not None else ():
            setattr(bot, name, self.cipher.open(value=getattr(bot, name)))
        return bot

    def find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> Installation | None:
        """A workspace's latest installation, tokens opened (a bot token slack_sdk copied in
        from find_bot is open already; opening leaves it as it is)."""
        installation = super().find_installation(
            enterprise_id=enterprise_id,
            team_id=team_id,
            user_id=user_id,
            is_enterprise_install=is_enterprise_install,
        )
        for name in TOKENS if installation is not None else ():
            setattr(installation, name, self.cipher.open(value=getattr(installation, name)))
        return installation

    def delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        """Forget a workspace's bot, and its bot token on the installations too: a revoked
        token is gone from every row at once, not only from the one Bolt looks in first."""
        super().delete_bot(enterprise_id=enterprise_id, team_id=team_id)
        c = self.installations.c
        where = and_(
            c.client_id == self.client_id, c.enterprise_id == enterprise_id, c.team_id == team_id
        )
        with self.engine.begin() as conn:
            conn.execute(
                self.installations.update()
                .where(where)
                .values(bot_token=None, bot_refresh_token=None)
            )


def state_store(*, engine: Any) -> SQLAlchemyOAuthStateStore:
    """OAuth states (one per "Add to Slack" click) in the database every replica shares."""
    return SQLAlchemyOAuthStateStore(expiration_seconds=STATE_SECONDS, engine=engine, logger=log)


@dataclass(frozen=True, slots=True)
class OAuthStores:
    """Distribution's two stores on one engine of their own, and how to let it go."""

    installations: SealedInstallationStore
    states: SQLAlchemyOAuthStateStore
    close: Callable[[], None]


def open_stores(*, url: str, client_id: str, secret_keys: Sequence[str]) -> OAuthStores:
    """The sealed installation store and the state store for one app on the archive's
    database (`url`), with our engine's SQLite pragmas (WAL, busy timeout)."""
    engine = make_engine(url=url)
    try:
        installations = SealedInstallationStore(
            client_id=client_id, engine=engine, cipher=TokenCipher(keys=secret_keys)
        )
        return OAuthStores(
            installations=installations, states=state_store(engine=engine), close=engine.dispose
        )
    except BaseException:
        engine.dispose()
        raise
