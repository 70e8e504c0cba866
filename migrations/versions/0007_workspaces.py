"""Workspaces as tenants: every paper belongs to one workspace (a Slack team, a Discord guild);
its dedupe keys are unique within it, not across the archive.

Today's data moves into workspaces this way:
- one workspace per (platform, workspace) pair the channels name; with papers but no channel
  yet, one unclaimed workspace ("", ""), which the first platform to start takes over;
- a paper goes to the workspace of the channel whose queue holds it, else of the channel that
  first posted it, else to the first channel's workspace;
- a paper posted in several workspaces is copied into each other one, and that workspace's
  posts move to its copy: each group keeps its own votes and comments on its own row.

On SQLite, papers is rebuilt (its unique constraints change), which drops its full-text
triggers: they are created again. bot.db.migrate runs this with foreign keys off and checks
them before committing.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

# S608: the SQL is built from this module's constants only; values are bound.
# ruff: noqa: S608
from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The full-text triggers of 0001 on papers; copied, as a revision keeps its meaning.
PAPER_TRIGGERS = [
    """CREATE TRIGGER papers_fts_ai AFTER INSERT ON papers BEGIN
        INSERT INTO papers_fts(rowid, title, authors, abstract)
        VALUES (new.id, new.title, new.authors, new.abstract);
    END""",
    """CREATE TRIGGER papers_fts_ad AFTER DELETE ON papers BEGIN
        INSERT INTO papers_fts(papers_fts, rowid, title, authors, abstract)
        VALUES ('delete', old.id, old.title, old.authors, old.abstract);
    END""",
    """CREATE TRIGGER papers_fts_au AFTER UPDATE OF title, authors, abstract ON papers BEGIN
        INSERT INTO papers_fts(papers_fts, rowid, title, authors, abstract)
        VALUES ('delete', old.id, old.title, old.authors, old.abstract);
        INSERT INTO papers_fts(rowid, title, authors, abstract)
        VALUES (new.id, new.title, new.authors, new.abstract);
    END""",
]
_OLD_UNIQUE = ("arxiv_id", "doi", "fingerprint")
_NEW_UNIQUE = {"arxiv": "arxiv_id", "doi": "doi", "fingerprint": "fingerprint"}


def _sqlite() -> bool:
    """Whether this runs on SQLite (a rebuilt table, its triggers to restore)."""
    return op.get_bind().dialect.name == "sqlite"


def _triggers() -> None:
    """The papers full-text triggers again after the rebuild (dropping any left over)."""
    if not _sqlite():
        return
    for statement in PAPER_TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {statement.split()[2]}")
        op.execute(statement)


def _workspaces(*, bind: sa.Connection) -> int | None:
    """A row per workspace the channels name (plus the unclaimed one when papers have no
    channel to go to); the id every paper without a better owner goes to."""
    now = datetime.now(UTC)
    pairs = bind.execute(
        sa.text(
            "SELECT platform, workspace, min(id) FROM channels GROUP BY platform, workspace "
            "ORDER BY min(id)"
        )
    ).all()
    for platform, team, _ in pairs:
        bind.execute(
            sa.text("INSERT INTO workspaces (platform, team, created_at) VALUES (:p, :t, :n)"),
            {"p": platform, "t": team, "n": now},
        )
    if not pairs:
        if bind.execute(sa.text("SELECT count(*) FROM papers")).scalar_one() == 0:
            return None
        bind.execute(
            sa.text("INSERT INTO workspaces (platform, team, created_at) VALUES ('', '', :n)"),
            {"n": now},
        )
    return int(bind.execute(sa.text("SELECT min(id) FROM workspaces")).scalar_one())


_WORKSPACE_OF_CHANNEL = (
    "(SELECT w.id FROM workspaces w JOIN channels c ON c.platform = w.platform "
    "AND c.workspace = w.team WHERE c.id = {channel})"
)
_COPIED = (
    "title, authors, abstract, url, arxiv_id, doi, fingerprint, source, added_by, added_at, "
    "position, status, queue_channel_id, title_derived, provenance, locked, enriched_at, "
    "enrichment, published_on, list_id"
)


def _assign(*, bind: sa.Connection, first: int) -> None:
    """Each paper's workspace; a paper posted in other workspaces too is copied into each."""
    queue_owner = _WORKSPACE_OF_CHANNEL.format(channel="papers.queue_channel_id")
    first_post = _WORKSPACE_OF_CHANNEL.format(
        channel="(SELECT p.channel_id FROM posts p WHERE p.paper_id = papers.id "
        "ORDER BY p.local_date, p.id LIMIT 1)"
    )
    bind.execute(
        sa.text(f"UPDATE papers SET workspace_id = coalesce({queue_owner}, {first_post}, :first)"),
        {"first": first},
    )
    strays = bind.execute(
        sa.text(
            "SELECT DISTINCT posts.paper_id, w.id FROM posts JOIN channels c "
            "ON c.id = posts.channel_id JOIN workspaces w ON w.platform = c.platform "
            "AND w.team = c.workspace JOIN papers ON papers.id = posts.paper_id "
            "WHERE w.id <> papers.workspace_id ORDER BY posts.paper_id, w.id"
        )
    ).all()
    if strays and bind.dialect.name == "postgresql":
        # Rows written with explicit ids (a restore, a copy from SQLite) leave the sequence
        # behind; a copy must not collide with them.
        bind.execute(
            sa.text("SELECT setval(pg_get_serial_sequence('papers', 'id'), max(id)) FROM papers")
        )
    for paper_id, workspace_id in strays:
        copy = bind.execute(
            sa.text(
                f"INSERT INTO papers (workspace_id, {_COPIED}) SELECT :w, {_COPIED} FROM papers "
                "WHERE id = :p RETURNING id"
            ),
            {"w": workspace_id, "p": paper_id},
        ).scalar_one()
        bind.execute(
            sa.text(
                "UPDATE posts SET paper_id = :copy WHERE paper_id = :p AND channel_id IN "
                "(SELECT c.id FROM channels c JOIN workspaces w ON w.platform = c.platform "
                "AND w.team = c.workspace WHERE w.id = :w)"
            ),
            {"copy": copy, "p": paper_id, "w": workspace_id},
        )


def upgrade() -> None:
    """Create workspaces, give every paper one, make the dedupe keys unique per workspace."""
    op.create_table(
        "workspaces",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("team", sa.String(length=64), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_workspaces")),
        sa.UniqueConstraint("platform", "team", name="uq_workspaces_key"),
    )
    with op.batch_alter_table("papers") as batch:
        batch.add_column(sa.Column("workspace_id", sa.Integer(), nullable=True))
    bind = op.get_bind()
    first = _workspaces(bind=bind)
    if first is not None:
        # Before the unique constraints change: a copy shares its original's keys.
        with op.batch_alter_table("papers", recreate="always" if _sqlite() else "auto") as batch:
            for column in _OLD_UNIQUE:
                batch.drop_constraint(f"uq_papers_{column}", type_="unique")
        _triggers()
        _assign(bind=bind, first=first)
    with op.batch_alter_table("papers", recreate="always" if _sqlite() else "auto") as batch:
        if first is None:
            for column in _OLD_UNIQUE:
                batch.drop_constraint(f"uq_papers_{column}", type_="unique")
        batch.alter_column("workspace_id", existing_type=sa.Integer(), nullable=False)
        batch.create_foreign_key(
            "fk_papers_workspace_id_workspaces",
            "workspaces",
            ["workspace_id"],
            ["id"],
            ondelete="CASCADE",
        )
        for name, column in _NEW_UNIQUE.items():
            batch.create_unique_constraint(f"uq_papers_workspace_{name}", ["workspace_id", column])
        batch.drop_index("ix_papers_status_position")
        batch.create_index(
            "ix_papers_workspace_status_position", ["workspace_id", "status", "position"]
        )
    _triggers()


def downgrade() -> None:
    """Back to one archive: only possible while no two workspaces share a paper's keys."""
    with op.batch_alter_table("papers", recreate="always" if _sqlite() else "auto") as batch:
        batch.drop_index("ix_papers_workspace_status_position")
        batch.create_index("ix_papers_status_position", ["status", "position"])
        for name in _NEW_UNIQUE:
            batch.drop_constraint(f"uq_papers_workspace_{name}", type_="unique")
        batch.drop_constraint("fk_papers_workspace_id_workspaces", type_="foreignkey")
        batch.drop_column("workspace_id")
        for column in _OLD_UNIQUE:
            batch.create_unique_constraint(f"uq_papers_{column}", [column])
    _triggers()
    op.drop_table("workspaces")
