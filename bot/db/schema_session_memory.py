"""Typed SQLAlchemy 2 models of what stays of a session after it (issue 33): members' ratings
and the links added to it (notes, slides). Instants are UTC."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.schema import Base

# The longest link a session keeps (bot/services/session_links checks it first): browsers and
# chats take about 2,000 characters, and a unique index over a longer text would not fit
# PostgreSQL's B-tree rows.
MAX_LINK = 2000


class SessionRatingRow(Base):
    """A member's rating of a session (ports.session_memory.Rating): one a member and session,
    each question NULL until answered."""

    __tablename__ = "session_ratings"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    worth: Mapped[bool | None] = mapped_column(Boolean)  # worth it (True) or not really
    discussion: Mapped[bool | None] = mapped_column(Boolean)  # a good discussion or quiet
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # the last answer


class SessionLinkRow(Base):
    """A link added to a session (ports.session_memory.SessionLink), each once a session."""

    __tablename__ = "session_links"
    __table_args__ = (UniqueConstraint("session_id", "url", name="uq_session_links_session_url"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    url: Mapped[str] = mapped_column(String(MAX_LINK))
    added_by: Mapped[str] = mapped_column(String(64))
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
