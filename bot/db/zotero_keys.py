"""Key rotation of the Zotero API keys the links keep: each re-sealed under the newest key of
PAPERCLUB_SECRET_KEY, in one transaction (`paperclub secrets rotate`, beside the Slack tokens)."""

from __future__ import annotations

from sqlalchemy import Engine, select, update

from bot.db.schema_zotero import ZoteroLinkRow
from bot.sealing import TokenCipher


def reseal_zotero_keys(*, engine: Engine, cipher: TokenCipher) -> int:
    """Re-seal every link's key under the cipher's newest key; how many. All or nothing:
    UnreadableToken, before anything is committed, when a key was sealed with a key no longer
    listed."""
    with engine.begin() as conn:
        rows = conn.execute(select(ZoteroLinkRow.channel_id, ZoteroLinkRow.sealed_key)).all()
        for channel_id, sealed in rows:
            conn.execute(
                update(ZoteroLinkRow)
                .where(ZoteroLinkRow.channel_id == channel_id)
                .values(sealed_key=cipher.reseal(value=sealed))
            )
    return len(rows)
