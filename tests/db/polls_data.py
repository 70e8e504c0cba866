"""What the polls storage tests share: a later instant, papers in an archive and sessions to
hold polls."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from bot.db.database import Database
from bot.db.schema import PaperRow
from bot.domain import ChannelKey
from tests.db.meetings_data import session_on
from tests.db.sources_data import DAY, HERE, NOW, add_paper

LATER = NOW + timedelta(hours=1)


def paper_in(database: Database, *, title: str, workspace: ChannelKey = HERE) -> int:
    """A paper in `workspace`'s archive, by its id."""
    add_paper(database, title=title, abstract=f"About {title}.", workspace=workspace)
    with database(write=False) as store:
        found = store.session.scalar(select(PaperRow.id).where(PaperRow.title == title))
    assert found is not None
    return int(found)


def session_of(database: Database, *, weeks: int = 0) -> int:
    """A session of HERE's, `weeks` after DAY, by its id."""
    with database() as store:
        made = store.add_session(
            channel=HERE, session=session_on(DAY + timedelta(weeks=weeks)), now=NOW
        )
    assert made is not None
    return made
