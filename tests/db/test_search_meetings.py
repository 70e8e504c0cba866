"""Search's meeting filters on real databases: `presenter:` (an id, a mention, a display name)
and `session:` (a local date) keep the papers a poll chose for sessions, not cancelled ones,
and never those of a channel the viewer may not see; hostile values find nothing and break
nothing; on SQLite and, where present, PostgreSQL."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest

from bot.db.database import Database
from bot.db.search import search
from bot.domain import ChannelKey
from bot.ports.names import PERSON
from bot.search_query import parse_query
from tests.db.meetings_data import session_on
from tests.db.sources_data import DAY, HOSTILE
from tests.db.test_search import NOW, TEAM, load

HERE = ChannelKey(platform="slack", workspace="T1", channel="C1")
NEXT_DOOR = ChannelKey(platform="slack", workspace="T1", channel="C2")


def _presented(
    database: Database,
    *,
    paper_id: int,
    day: date,
    user: str,
    at: time = time(18),
    one_off: bool = False,
) -> int:
    """A session of HERE on `day` whose poll chose the paper, presented by `user`; its id."""
    with database() as store:
        made = store.add_session(
            channel=HERE, session=session_on(day, at=at, one_off=one_off), now=NOW
        )
        assert made is not None
        nomination = store.nominate(channel=HERE, paper_id=paper_id, user=user, now=NOW)[0]
        store.open_poll(session_id=made, slate=[nomination.id], now=NOW)
        store.close_poll(session_id=made, winner=nomination.id, now=NOW)
        store.assign_presenter(session_id=made, user=user, how="rotation", now=NOW, replace=False)
    return made


def _titles(database: Database, text: str, viewer: ChannelKey | None = None) -> list[int]:
    """The ids of the papers found, as `viewer` may see them."""
    with database(write=False) as store:
        page = search(
            session=store.session,
            query=parse_query(text=text),
            limit=20,
            viewer=viewer,
            workspace=TEAM,
        )
    return sorted(hit.paper.id for hit in page.hits)


@pytest.fixture
def club(any_database: Database) -> tuple[Database, dict[str, int]]:
    """The sample list; Ana (U9) presented the pipeline paper on DAY and the tensor one a
    week later, just after midnight in Berlin (still the day before in UTC); Bo (U8)'s
    one-off session that day, the mobile paper's, was cancelled."""
    ids = load(any_database)
    _presented(any_database, paper_id=ids["pipeline"], day=DAY, user="U9")
    later = DAY + timedelta(weeks=1)
    _presented(any_database, paper_id=ids["tensor"], day=later, user="U9", at=time(0, 30))
    cancelled = _presented(
        any_database, paper_id=ids["mobile"], day=DAY, user="U8", at=time(9), one_off=True
    )
    with any_database() as store:
        record = store.session_record(session_id=cancelled)
        assert record is not None
        store.change_session(session_id=cancelled, session=record.session, cancelled=True, now=NOW)
        store.record_names(workspace=TEAM, kind=PERSON, names={"U9": "Ana Silva"}, now=NOW)
    return any_database, ids


def test_presenter_by_id_mention_or_name(club: tuple[Database, dict[str, int]]) -> None:
    database, ids = club
    both = sorted([ids["pipeline"], ids["tensor"]])
    assert _titles(database, "presenter:U9") == both
    assert _titles(database, "presenter:@U9") == both
    assert _titles(database, "presenter:<@U9|ana>") == both
    assert _titles(database, 'presenter:"ana silva"') == both
    assert _titles(database, "presenter:U9 pipeline") == [ids["pipeline"]]
    assert _titles(database, "presenter:U8") == []  # cancelled: nobody presented
    assert _titles(database, "presenter:Ana") == []  # a name is matched whole


def test_session_by_its_local_date(club: tuple[Database, dict[str, int]]) -> None:
    database, ids = club
    assert _titles(database, f"session:{DAY.isoformat()}") == [ids["pipeline"]]
    # 00:30 in Berlin on the 15th is 23:30 UTC on the 14th: the session's own date counts.
    week = DAY + timedelta(weeks=1)
    assert _titles(database, f"session:{week.isoformat()}") == [ids["tensor"]]
    assert _titles(database, f"session:{(week - timedelta(days=1)).isoformat()}") == []
    assert _titles(database, f"presenter:U9 session:{week.isoformat()}") == [ids["tensor"]]
    assert _titles(database, f"presenter:U8 session:{DAY.isoformat()}") == []


def test_a_channel_the_viewer_may_not_see_keeps_its_sessions(
    club: tuple[Database, dict[str, int]],
) -> None:
    database, ids = club
    # HERE was made by its meeting, so it is private: found there, not next door.
    assert _titles(database, "presenter:U9", viewer=HERE) == sorted(
        [ids["pipeline"], ids["tensor"]]
    )
    assert _titles(database, "presenter:U9", viewer=NEXT_DOOR) == []
    assert _titles(database, f"session:{DAY.isoformat()} pipeline", viewer=NEXT_DOOR) == []


HOSTILE_VALUES = (
    HOSTILE[:500],
    "U9' OR '1'='1",
    "%",
    "_9",
    "<@U9",
    "\x00\u202e@U8x",
    "2026-02-30",
    "9999-12-31",
    "0001-01-01",
)


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_hostile_values_find_nothing(club: tuple[Database, dict[str, int]], value: str) -> None:
    database, _ = club
    assert _titles(database, f'presenter:"{value}"') == []
    assert _titles(database, f'presenter:"{value}" pipeline') == []
    # A date that is none is dropped with a note (every paper listed); a real one is bound.
    assert len(_titles(database, f'session:"{value}"')) in (0, 20)
