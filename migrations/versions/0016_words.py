"""The archive's own words, as written (not stemmed), for "did you mean": on SQLite an FTS5
index over the papers' titles and abstracts with fts5vocab over it; PostgreSQL needs nothing
(ts_stat reads the words from the papers themselves, bot/db/search_words.py).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-19
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# unicode61 without porter: a suggestion is a word someone wrote, never a stem ("estim").
# Comments stay out: a word said in a private channel must not be offered to anyone else.
SQLITE_CREATE = [
    """CREATE VIRTUAL TABLE words_fts USING fts5(
        title, abstract, content='papers', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2')""",
    "CREATE VIRTUAL TABLE words_fts_vocab USING fts5vocab(words_fts, 'row')",
    """CREATE TRIGGER words_fts_ai AFTER INSERT ON papers BEGIN
        INSERT INTO words_fts(rowid, title, abstract) VALUES (new.id, new.title, new.abstract);
    END""",
    """CREATE TRIGGER words_fts_ad AFTER DELETE ON papers BEGIN
        INSERT INTO words_fts(words_fts, rowid, title, abstract)
        VALUES ('delete', old.id, old.title, old.abstract);
    END""",
    """CREATE TRIGGER words_fts_au AFTER UPDATE OF title, abstract ON papers BEGIN
        INSERT INTO words_fts(words_fts, rowid, title, abstract)
        VALUES ('delete', old.id, old.title, old.abstract);
        INSERT INTO words_fts(rowid, title, abstract) VALUES (new.id, new.title, new.abstract);
    END""",
    "INSERT INTO words_fts(words_fts) VALUES ('rebuild')",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS words_fts_au",
    "DROP TRIGGER IF EXISTS words_fts_ad",
    "DROP TRIGGER IF EXISTS words_fts_ai",
    "DROP TABLE IF EXISTS words_fts_vocab",
    "DROP TABLE IF EXISTS words_fts",
]


def upgrade() -> None:
    """Index the papers' words on SQLite."""
    if op.get_bind().dialect.name == "sqlite":
        for statement in SQLITE_CREATE:
            op.execute(statement)


def downgrade() -> None:
    """Drop the words' index."""
    if op.get_bind().dialect.name == "sqlite":
        for statement in SQLITE_DROP:
            op.execute(statement)
