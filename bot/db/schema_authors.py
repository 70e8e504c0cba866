"""Typed SQLAlchemy 2 models of the authors' index that forgives names (migration 0017): every
distinct author name as written and the papers naming it (kept by triggers on papers), and
each name's folded words with their trigrams (kept by bot/db/author_index.py, which folds in
Python: accents and case cannot be folded alike by SQLite and PostgreSQL).

A name longer than MAX_NAME characters is not indexed: no person's name is that long, and
PostgreSQL's unique index would refuse a key of several kilobytes (hostile text).
"""

from __future__ import annotations

from sqlalchemy import Boolean, ForeignKey, Index, Integer, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.schema import Base

MAX_NAME = 200  # characters of a name indexed; the migration's triggers hold the same number


class AuthorNameRow(Base):
    """One author name as some paper writes it (any workspace: papers are scoped when read).
    `folded`: its folded words are in author_words; the triggers add names unfolded."""

    __tablename__ = "author_names"
    __table_args__ = (
        UniqueConstraint("name", name="uq_author_names_name"),
        Index("ix_author_names_folded", "folded"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    folded: Mapped[bool] = mapped_column(Boolean, server_default=false())


class PaperAuthorRow(Base):
    """A paper naming an author; no link to papers: the triggers delete it with the paper."""

    __tablename__ = "paper_authors"
    __table_args__ = (Index("ix_paper_authors_paper_id", "paper_id"),)

    name_id: Mapped[int] = mapped_column(ForeignKey("author_names.id"), primary_key=True)
    paper_id: Mapped[int] = mapped_column(Integer, primary_key=True)


class AuthorWordRow(Base):
    """A folded word of a name (services/name_match.fold): "sebastián ortega" holds
    "sebastian" and "ortega"."""

    __tablename__ = "author_words"

    word: Mapped[str] = mapped_column(Text, primary_key=True)
    name_id: Mapped[int] = mapped_column(ForeignKey("author_names.id"), primary_key=True)


class AuthorGramRow(Base):
    """A trigram of a distinct folded word (padded with two spaces each side) and the word's
    length: the words a typo may stand for share enough of them (name_lookup)."""

    __tablename__ = "author_grams"

    gram: Mapped[str] = mapped_column(Text, primary_key=True)
    length: Mapped[int] = mapped_column(Integer, primary_key=True)
    word: Mapped[str] = mapped_column(Text, primary_key=True)
