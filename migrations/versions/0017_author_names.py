"""The authors' index that forgives names at scale: every distinct author name (as written) and
the papers naming it, kept by triggers on papers in SQL on both dialects; each name's folded
words and their trigrams, folded in Python (bot/db/author_index.py) for the names already
here, then as papers are written.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-20
"""

# S608: the SQL is built from this module's constants only; nothing typed reaches it.
# ruff: noqa: S608
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db.author_index import fold_names

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MAX_NAME = 200  # as schema_authors.MAX_NAME, written out: a migration keeps its own numbers

# SQLite: json_each's text values (what the search has always read as authors).
_SQLITE_NAMES = (
    "INSERT OR IGNORE INTO author_names (name) SELECT value FROM json_each({row}.authors) "
    f"WHERE type = 'text' AND length(value) <= {MAX_NAME}"
)
_SQLITE_LINKS = (
    "INSERT OR IGNORE INTO paper_authors (name_id, paper_id) SELECT n.id, {row}.id "
    "FROM json_each({row}.authors) AS a JOIN author_names AS n ON n.name = a.value "
    "WHERE a.type = 'text'"
)
SQLITE_CREATE = [
    f"""CREATE TRIGGER papers_authors_ai AFTER INSERT ON papers BEGIN
        {_SQLITE_NAMES.format(row="new")};
        {_SQLITE_LINKS.format(row="new")};
    END""",
    """CREATE TRIGGER papers_authors_ad AFTER DELETE ON papers BEGIN
        DELETE FROM paper_authors WHERE paper_id = old.id;
    END""",
    f"""CREATE TRIGGER papers_authors_au AFTER UPDATE OF authors ON papers BEGIN
        DELETE FROM paper_authors WHERE paper_id = old.id;
        {_SQLITE_NAMES.format(row="new")};
        {_SQLITE_LINKS.format(row="new")};
    END""",
    _SQLITE_NAMES.format(row="papers").replace("FROM json_each", "FROM papers, json_each"),
    _SQLITE_LINKS.format(row="papers").replace("FROM json_each", "FROM papers, json_each"),
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS papers_authors_au",
    "DROP TRIGGER IF EXISTS papers_authors_ad",
    "DROP TRIGGER IF EXISTS papers_authors_ai",
]
# PostgreSQL: an array's strings, as SQLite's json_each keeps its text values (a JSON null,
# a scalar or a number names nobody). "<row>" is the rows' table: `added` (an INSERT's new
# rows) or NEW in the triggers, papers in the backfill.
#
# New names go in sorted, and an INSERT's go in once for all its rows (a statement trigger
# reading its transition table), not paper by paper: author_names is shared by every
# workspace, and a writer adding a name another uncommitted writer added waits for it. Two
# imports adding X then Y and Y then X would each wait for the other (a deadlock); taking
# every name of the statement in one order, neither holds a name the other needs while it
# waits. An import writes its batch in one statement (importing.py: 1,000 papers, as
# SQLAlchemy's insertmanyvalues page) and each transaction adds names once before folding;
# only an authors' UPDATE goes row by row (the enrichment's, one paper a transaction).
_PG_AUTHORS = (
    "json_array_elements(CASE WHEN json_typeof(<row>.authors::json) = 'array' "
    "THEN <row>.authors::json ELSE '[]'::json END) AS e(a)"
)
_PG_NAMES = (
    f"INSERT INTO author_names (name) SELECT DISTINCT a #>> '{{}}' FROM <rows>{_PG_AUTHORS} "
    f"WHERE json_typeof(a) = 'string' AND length(a #>> '{{}}') <= {MAX_NAME} "
    "ORDER BY 1 ON CONFLICT (name) DO NOTHING"
)
_PG_LINKS = (
    f"INSERT INTO paper_authors (name_id, paper_id) SELECT DISTINCT n.id, <row>.id "
    f"FROM <rows>{_PG_AUTHORS} JOIN author_names AS n ON n.name = a #>> '{{}}' "
    "WHERE json_typeof(a) = 'string' ON CONFLICT DO NOTHING"
)


def _pg(*, statement: str, row: str, table: bool) -> str:
    """`statement` over the rows of `row`: a table read with the elements (`table`), or a
    trigger's record (NEW)."""
    return statement.replace("<rows>", f"{row}, " if table else "").replace("<row>", row)


PG_CREATE = [
    f"""CREATE FUNCTION papers_authors_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        {_pg(statement=_PG_NAMES, row="added", table=True)};
        {_pg(statement=_PG_LINKS, row="added", table=True)};
        RETURN NULL;
    END $$""",
    "CREATE TRIGGER papers_authors_added AFTER INSERT ON papers REFERENCING NEW TABLE AS added "
    "FOR EACH STATEMENT EXECUTE FUNCTION papers_authors_added()",
    f"""CREATE FUNCTION papers_authors_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM paper_authors WHERE paper_id = OLD.id;
        IF TG_OP = 'UPDATE' THEN
            {_pg(statement=_PG_NAMES, row="NEW", table=False)};
            {_pg(statement=_PG_LINKS, row="NEW", table=False)};
        END IF;
        RETURN NULL;
    END $$""",
    "CREATE TRIGGER papers_authors_sync AFTER DELETE OR UPDATE OF authors ON papers "
    "FOR EACH ROW EXECUTE FUNCTION papers_authors_sync()",
    _pg(statement=_PG_NAMES, row="papers", table=True),
    _pg(statement=_PG_LINKS, row="papers", table=True),
]
PG_DROP = [
    "DROP TRIGGER IF EXISTS papers_authors_sync ON papers",
    "DROP FUNCTION IF EXISTS papers_authors_sync()",
    "DROP TRIGGER IF EXISTS papers_authors_added ON papers",
    "DROP FUNCTION IF EXISTS papers_authors_added()",
]


def upgrade() -> None:
    """Create the tables and triggers, index the papers already here, fold their names."""
    op.create_table(
        "author_names",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("folded", sa.Boolean, server_default=sa.false(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_author_names")),
        sa.UniqueConstraint("name", name="uq_author_names_name"),
    )
    op.create_index("ix_author_names_folded", "author_names", ["folded"])
    op.create_table(
        "paper_authors",
        sa.Column("name_id", sa.Integer, nullable=False),
        sa.Column("paper_id", sa.Integer, nullable=False),
        sa.ForeignKeyConstraint(
            ["name_id"], ["author_names.id"], name=op.f("fk_paper_authors_name_id_author_names")
        ),
        sa.PrimaryKeyConstraint("name_id", "paper_id", name=op.f("pk_paper_authors")),
    )
    op.create_index("ix_paper_authors_paper_id", "paper_authors", ["paper_id"])
    op.create_table(
        "author_words",
        sa.Column("word", sa.Text, nullable=False),
        sa.Column("name_id", sa.Integer, nullable=False),
        sa.ForeignKeyConstraint(
            ["name_id"], ["author_names.id"], name=op.f("fk_author_words_name_id_author_names")
        ),
        sa.PrimaryKeyConstraint("word", "name_id", name=op.f("pk_author_words")),
    )
    op.create_table(
        "author_grams",
        sa.Column("gram", sa.Text, nullable=False),
        sa.Column("length", sa.Integer, nullable=False),
        sa.Column("word", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("gram", "length", "word", name=op.f("pk_author_grams")),
    )
    sqlite = op.get_bind().dialect.name == "sqlite"
    for statement in SQLITE_CREATE if sqlite else PG_CREATE:
        op.execute(statement)
    fold_names(connection=op.get_bind())


def downgrade() -> None:
    """Drop the triggers and the tables."""
    for statement in SQLITE_DROP if op.get_bind().dialect.name == "sqlite" else PG_DROP:
        op.execute(statement)
    for table in ("author_grams", "author_words", "paper_authors", "author_names"):
        op.drop_table(table)
