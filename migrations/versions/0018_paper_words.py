"""The archive's own words on PostgreSQL, kept as papers change: "did you mean" read them with
ts_stat, a pass over every paper of the workspace a search (3.5 s at 10k papers, 37 s at 100k
on the development machine), and now reads an index. SQLite's words (migration 0016) are
FTS5's vocabulary, kept by FTS5 itself.

A row per workspace and word, with the number of papers whose title or abstract holds it
('simple' configuration: lower-cased, not stemmed, as ts_stat read it), kept by statement
triggers on papers (an import's batch is one upsert of its words). A count that falls to zero
stays as a row (the reader skips it): deleting it would race a paper adding the word back.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# Constants composed below, never user input: a paper row's words (its title's and abstract's
# lexemes, each once), and the rows of a transition table whose title, abstract or workspace an
# update changed (a post changes a paper's status, which touches no word).
def _words(row: str) -> str:
    """The distinct words of the paper `row` names."""
    return (
        f"unnest(tsvector_to_array(to_tsvector('simple'::regconfig, "
        f"coalesce({row}.title, '') || ' ' || coalesce({row}.abstract, ''))))"
    )


def _counted(*, rows: str, row: str, sign: str, where: str = "") -> str:
    """(workspace_id, word, n): `sign` once per paper of `rows` (those `where` keeps) holding
    the word."""
    return (
        f"SELECT {row}.workspace_id AS workspace_id, word, {sign} AS n "  # noqa: S608 (constants)
        f"FROM {rows}, {_words(row)} AS word {where}"
    )


def _kept(*, changes: str) -> str:
    """Add each (workspace, word)'s net change to its count: one upsert, whose rows are taken
    in (workspace, word) order, so that two writers lock the words they share in one order (two
    passes, the old words then the new, deadlocked two edits of titles in the review)."""
    return (
        "INSERT INTO paper_words AS w (workspace_id, word, papers) "  # noqa: S608 (constants)
        f"SELECT workspace_id, word, sum(n) FROM ({changes}) AS change "
        "GROUP BY workspace_id, word HAVING sum(n) <> 0 ORDER BY workspace_id, word "
        "ON CONFLICT (workspace_id, word) DO UPDATE SET papers = w.papers + excluded.papers;"
    )


def _function(*, name: str, body: str) -> str:
    """A trigger function running `body`."""
    return (
        f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN {body} RETURN NULL; END $$"
    )


_CHANGED = "old_papers AS p JOIN new_papers AS q ON q.id = p.id"
_WHERE_CHANGED = (
    "WHERE (p.title, p.abstract, p.workspace_id) "
    "IS DISTINCT FROM (q.title, q.abstract, q.workspace_id)"
)
_ADDED = _counted(rows="new_papers AS q", row="q", sign="1")
_REMOVED = _counted(rows="old_papers AS p", row="p", sign="-1")
_EDITED = (
    _counted(rows=_CHANGED, row="q", sign="1", where=_WHERE_CHANGED)
    + " UNION ALL "
    + _counted(rows=_CHANGED, row="p", sign="-1", where=_WHERE_CHANGED)
)

# Per statement, over its transition tables: an import's batch of papers is one upsert of its
# distinct words (a trigger per row made an import 29x as long as without it). The words sort
# by code point (COLLATE "C"): the reader asks for a first letter's range, which a linguistic
# collation would break (it sorts "{" before "z", and "élan" outside ["é", "ê")).
POSTGRES_CREATE = [
    """CREATE TABLE paper_words (
        workspace_id integer NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        word text COLLATE "C" NOT NULL,
        papers integer NOT NULL,
        PRIMARY KEY (workspace_id, word))""",
    _function(name="paper_words_added", body=_kept(changes=_ADDED)),
    _function(name="paper_words_removed", body=_kept(changes=_REMOVED)),
    _function(name="paper_words_changed", body=_kept(changes=_EDITED)),
    """CREATE TRIGGER paper_words_added AFTER INSERT ON papers
        REFERENCING NEW TABLE AS new_papers FOR EACH STATEMENT
        EXECUTE FUNCTION paper_words_added()""",
    """CREATE TRIGGER paper_words_removed AFTER DELETE ON papers
        REFERENCING OLD TABLE AS old_papers FOR EACH STATEMENT
        EXECUTE FUNCTION paper_words_removed()""",
    """CREATE TRIGGER paper_words_changed AFTER UPDATE ON papers
        REFERENCING OLD TABLE AS old_papers NEW TABLE AS new_papers FOR EACH STATEMENT
        EXECUTE FUNCTION paper_words_changed()""",
    """INSERT INTO paper_words (workspace_id, word, papers)
        SELECT p.workspace_id, word, count(*)
        FROM papers AS p, unnest(tsvector_to_array(to_tsvector('simple'::regconfig,
            coalesce(p.title, '') || ' ' || coalesce(p.abstract, '')))) AS word
        GROUP BY p.workspace_id, word""",
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS paper_words_changed ON papers",
    "DROP TRIGGER IF EXISTS paper_words_removed ON papers",
    "DROP TRIGGER IF EXISTS paper_words_added ON papers",
    "DROP FUNCTION IF EXISTS paper_words_changed()",
    "DROP FUNCTION IF EXISTS paper_words_removed()",
    "DROP FUNCTION IF EXISTS paper_words_added()",
    "DROP TABLE IF EXISTS paper_words",
]


def upgrade() -> None:
    """Keep the papers' words on PostgreSQL."""
    if op.get_bind().dialect.name == "postgresql":
        for statement in POSTGRES_CREATE:
            op.execute(statement)


def downgrade() -> None:
    """Drop them (ts_stat then reads the papers again)."""
    if op.get_bind().dialect.name == "postgresql":
        for statement in POSTGRES_DROP:
            op.execute(statement)
