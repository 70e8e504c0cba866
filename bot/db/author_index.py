"""Folding the authors' names into the index that forgives them (migration 0017): the triggers
add each new name as written, unfolded; this reads the unfolded ones, writes their folded
words (services/name_match.fold) and each new word's trigrams (services/name_lookup.grams),
and marks them folded.

Run where papers are written (insert_papers, apply_enrichment) and by the migration for the
archive as it was. A name another path added waits for the next of those; until then the
look-up reads it with the unfolded ones and judges it itself, so nothing is ever missed.
"""

from __future__ import annotations

from sqlalchemy import Connection, Table, select, update

from bot.db.engine import dialect_insert
from bot.db.schema import Base
from bot.db.schema_authors import AuthorGramRow, AuthorNameRow, AuthorWordRow
from bot.services.name_lookup import grams
from bot.services.name_match import fold

BATCH = 2_000  # names folded per round trip: their words and grams go in as one insert each


def _table(*, row: type[Base]) -> Table:
    """A model's table, typed as a Table (the models' __table__ is a FromClause to mypy)."""
    return Base.metadata.tables[row.__tablename__]


def fold_names(*, connection: Connection) -> int:
    """Fold every unfolded name into the index; how many were folded."""
    dialect = connection.dialect.name
    done = 0
    while True:
        pending = connection.execute(
            select(AuthorNameRow.id, AuthorNameRow.name)
            .where(AuthorNameRow.folded.is_(False))
            .order_by(AuthorNameRow.id)
            .limit(BATCH)
        ).all()
        if not pending:
            return done
        words = {(word, name_id) for name_id, name in pending for word in fold(text=name)}
        if words:
            rows = [{"word": word, "name_id": name_id} for word, name_id in sorted(words)]
            insert = dialect_insert(dialect=dialect, table=_table(row=AuthorWordRow))
            connection.execute(insert.on_conflict_do_nothing(), rows)
            distinct = {word for word, _ in words}
            # In key order, as the words: two writers folding the same names (PostgreSQL)
            # take the same keys' locks in the same order, not each other's first.
            keys = sorted((gram, len(word), word) for word in distinct for gram in grams(word=word))
            gram_rows = [
                {"gram": gram, "length": length, "word": word} for gram, length, word in keys
            ]
            insert = dialect_insert(dialect=dialect, table=_table(row=AuthorGramRow))
            connection.execute(insert.on_conflict_do_nothing(), gram_rows)
        ids = [name_id for name_id, _ in pending]
        connection.execute(
            update(AuthorNameRow).where(AuthorNameRow.id.in_(ids)).values(folded=True)
        )
        done += len(pending)
