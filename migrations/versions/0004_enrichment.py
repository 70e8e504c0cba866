"""Enrichment and reading lists: what a paper's record came from and how it was completed.

- reading_lists: a list's name (the file's header line, "Related papers: …") and its origin;
  papers.list_id names the list a paper came from.
- papers: title_derived (the title was made from the abstract's opening), provenance (what
  the import held before enrichment changed it), locked (fields a person typed, which
  enrichment never changes), enriched_at and enrichment (the last verdict), published_on.
- enrich_candidates: the records of an unclear match, for a person to choose from.
- lookup_cache: arXiv's and Crossref's answers, so a second run asks nothing twice.

Columns are added (no table rebuild on SQLite, so the full-text triggers stay as they are).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PAPER_COLUMNS = (
    "title_derived", "provenance", "locked", "enriched_at", "enrichment", "published_on",
    "list_id",
)  # fmt: skip


def upgrade() -> None:
    """Create the three tables and add the paper columns."""
    op.create_table(
        "reading_lists",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("origin", sa.String(500), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_reading_lists"),
        sa.UniqueConstraint("name", "origin", name="uq_reading_lists_name"),
    )
    op.add_column(
        "papers",
        sa.Column("title_derived", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("papers", sa.Column("provenance", sa.JSON, nullable=True))
    op.add_column("papers", sa.Column("locked", sa.JSON, nullable=True))
    op.add_column("papers", sa.Column("enriched_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("papers", sa.Column("enrichment", sa.String(16), nullable=True))
    op.add_column("papers", sa.Column("published_on", sa.Date, nullable=True))
    # No foreign key: SQLite cannot add one to an existing table without rebuilding it (and
    # losing its full-text triggers); lists are never deleted, the store keeps the ids true.
    op.add_column("papers", sa.Column("list_id", sa.Integer, nullable=True))
    op.create_index("ix_papers_list_id", "papers", ["list_id"])
    op.create_table(
        "enrich_candidates",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("paper_id", sa.Integer, nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("found_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_enrich_candidates"),
        sa.ForeignKeyConstraint(
            ["paper_id"], ["papers.id"], name="fk_enrich_candidates_paper_id_papers",
            ondelete="CASCADE",
        ),
    )  # fmt: skip
    op.create_index("ix_enrich_candidates_paper_id", "enrich_candidates", ["paper_id"])
    op.create_table(
        "lookup_cache",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("status", sa.SmallInteger, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_lookup_cache"),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("lookup_cache")
    op.drop_index("ix_enrich_candidates_paper_id", table_name="enrich_candidates")
    op.drop_table("enrich_candidates")
    op.drop_index("ix_papers_list_id", table_name="papers")
    for column in PAPER_COLUMNS:  # SQLite 3.35+ drops a plain column in place: triggers stay
        op.drop_column("papers", column)
    op.drop_table("reading_lists")
