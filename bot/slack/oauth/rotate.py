"""Key rotation: every stored token re-sealed under the newest key, in one transaction."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Engine, MetaData, Table, func, select

from bot.sealing import TokenCipher
from bot.slack.oauth.store import BOT_TOKENS, TOKENS, SealedInstallationStore

Progress = Callable[[int, int], None]  # (rows done, rows in all)


@dataclass(frozen=True, slots=True)
class Rotated:
    """What a rotation did."""

    rows: int
    tokens: int
    unsealed: int  # tokens that had been stored in plain text, sealed now


def _tables() -> list[tuple[Table, tuple[str, ...]]]:
    """The two tables holding tokens, with their token columns."""
    metadata = MetaData()
    store = SealedInstallationStore
    return [
        (
            store.build_installations_table(metadata=metadata, table_name="slack_installations"),
            TOKENS,
        ),
        (store.build_bots_table(metadata=metadata, table_name="slack_bots"), BOT_TOKENS),
    ]


def rotate_tokens(
    *, engine: Engine, cipher: TokenCipher, progress: Progress = lambda _done, _all: None
) -> Rotated:
    """Re-seal every token under the cipher's newest key; all or nothing (UnreadableToken,
    raised before anything is committed, when a token was sealed with a key no longer listed)."""
    rows = tokens = unsealed = 0
    tables = _tables()
    with engine.begin() as conn:
        total = sum(
            conn.execute(select(func.count()).select_from(t)).scalar_one() for t, _ in tables
        )
        progress(0, total)
        for table, columns in tables:
            query = select(table.c.id, *(table.c[name] for name in columns)).order_by(table.c.id)
            for row in conn.execute(query).mappings().all():
                values = {name: row[name] for name in columns if row[name] is not None}
                fresh = {name: cipher.reseal(value=value) for name, value in values.items()}
                unsealed += sum(1 for v in values.values() if not cipher.is_sealed(value=v))
                tokens += len(fresh)
                if fresh:
                    conn.execute(table.update().where(table.c.id == row["id"]).values(**fresh))
                rows += 1
                progress(rows, total)
    return Rotated(rows=rows, tokens=tokens, unsealed=unsealed)
