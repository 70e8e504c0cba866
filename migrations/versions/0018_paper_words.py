"""The archive's own words on PostgreSQL, kept as papers change: "did you mean" read them with
ts_stat, a pass over every paper of the workspace a search (3.5 s at 10k papers, 37 s at 100k
on the development machine), and now reads an index. SQLite's words (migration 0016) are
FTS5's vocabulary, kept by FTS5 itself.

A row per workspace and word, with the number of papers whose title or abstract holds it
('simple' configuration: lower-cased, not stemmed, as ts_stat read it), kept by statement
triggers on papers (an import's batch is one upsert of its words). A count that falls to zero stays as a row (the reader skips it): deleting it would race
a paper adding the word back. Words are locked in sorted order (the insert's rows go in that
order; the decrement locks its rows first, sorted), so that two imports adding papers at once
take shared words in one order rather than deadlocking.

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


_CHANGED = "old_papers AS p JOIN new_papers AS q ON q.id = p.id"
_WHERE_CHANGED = (
    "WHERE (p.title, p.abstract, p.workspace_id) "
    "IS DISTINCT FROM (q.title, q.abstract, q.workspace_id)"
)


def _add(*, rows: str, row: str, where: str = "") -> str:
    """Count the words of `row` over `rows` (those `where` keeps) in: one upsert, in
    (workspace, word) order."""
    return (
        f"INSERT INTO paper_words AS w (workspace_id, word, papers) "  # noqa: S608 (constants)
        f"SELECT {row}.workspace_id, word, count(*) FROM {rows}, {_words(row)} AS word {where} "
        f"GROUP BY {row}.workspace_id, word ORDER BY {row}.workspace_id, word "
        "ON CONFLICT (workspace_id, word) DO UPDATE SET papers = w.papers + excluded.papers;"
    )


def _remove(*, rows: str, row: str, where: str = "") -> str:
    """Count the words of `row` over `rows` (those `where` keeps) out, their rows locked
    first in (workspace, word) order."""
    gone = (
        f"(SELECT {row}.workspace_id AS ws, word, count(*) AS n "  # noqa: S608 (constants)
        f"FROM {rows}, {_words(row)} AS word {where} GROUP BY {row}.workspace_id, word) AS gone"
    )
    match = "w.workspace_id = gone.ws AND w.word = gone.word"
    return (
        f"PERFORM 1 FROM paper_words AS w JOIN {gone} ON {match} "  # noqa: S608 (constants)
        "ORDER BY w.workspace_id, w.word FOR UPDATE OF w; "
        f"UPDATE paper_words AS w SET papers = w.papers - gone.n FROM {gone} WHERE {match};"
    )


def _function(*, name: str, body: str) -> str:
    """A trigger function running `body`."""
    return (
        f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
        f"BEGIN {body} RETURN NULL; END $$"
    )


# Per statement, over its transition tables: an import's batch of papers is one upsert of its
# distinct words (a trigger per row made an import 29x as long as without it).
POSTGRES_CREATE = [
    """CREATE TABLE paper_words (
        workspace_id integer NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        word text NOT NULL,
        papers integer NOT NULL,
        PRIMARY KEY (workspace_id, word))""",
    _function(name="paper_words_added", body=_add(rows="new_papers AS q", row="q")),
    _function(name="paper_words_removed", body=_remove(rows="old_papers AS p", row="p")),
    _function(
        name="paper_words_changed",
        body=_remove(rows=_CHANGED, row="p", where=_WHERE_CHANGED)
        + _add(rows=_CHANGED, row="q", where=_WHERE_CHANGED),
    ),
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
