"""`paperclub export --format sessions-json|sessions-csv`: a workspace's meeting sessions with
their polls, presenters and RSVPs, through the real CLI; hostile places, titles and user ids
stay inert text; the papers' formats keep their shape."""

from __future__ import annotations

import csv
import json
from datetime import timedelta
from pathlib import Path

from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.export_sessions import CSV_COLUMNS
from bot.meetings.ballots import Rsvp
from bot.ports.polls import Tally
from tests.cli.conftest import Runner
from tests.db.meetings_data import session_on
from tests.db.polls_data import LATER, paper_in
from tests.db.sources_data import DAY, ELSEWHERE, HERE, HOSTILE, NOW

TITLE = '=HYPERLINK("http://evil.example") <script>alert(1)</script>'
SHIFTY = "@U1\r\n=cmd|' /C calc'!A0"  # a user id no platform gives: a formula and a line break


def _seed(*, folder: Path) -> tuple[int, int]:
    """Two sessions of HERE (a poll closed with a hostile winner, a presenter and answers;
    the second cancelled) and one in the other workspace; the winner's paper id and the
    runner-up's."""
    url = f"sqlite:///{folder / 'club.db'}"
    upgrade_url(url=url)
    database = Database(url=url)
    try:
        won, lost = paper_in(database, title=TITLE), paper_in(database, title="Runner-up")
        with database() as store:
            first = store.add_session(channel=HERE, session=session_on(DAY), now=NOW)
            second = store.add_session(
                channel=HERE, session=session_on(DAY + timedelta(weeks=1)), now=NOW
            )
            assert first and second
            store.add_session(channel=ELSEWHERE, session=session_on(DAY), now=NOW)
            store.change_session(
                session_id=second,
                session=session_on(DAY + timedelta(weeks=1)),
                cancelled=True,
                now=LATER,
            )
            one = store.nominate(channel=HERE, paper_id=won, user="U1", now=NOW)[0]
            two = store.nominate(channel=HERE, paper_id=lost, user="", now=NOW)[0]
            store.open_poll(session_id=first, slate=[one.id, two.id], now=NOW)
            tally = Tally(mode="ranked", counts=((one.id, 2.5), (two.id, 1.0)))
            store.close_poll(session_id=first, winner=one.id, now=LATER, tally=tally)
            store.assign_presenter(
                session_id=first, user=SHIFTY, how="rotation", now=NOW, replace=False
            )
            store.set_rsvp(session_id=first, user="U1", answer=Rsvp.GOING, now=NOW)
            store.set_rsvp(session_id=first, user=SHIFTY, answer=Rsvp.NO, now=NOW)
    finally:
        database.dispose()
    return won, lost


def test_sessions_json_holds_each_session_with_its_poll_presenter_and_rsvps(
    paperclub: Runner, tmp_path: Path
) -> None:
    won, lost = _seed(folder=tmp_path)
    sessions = json.loads(
        paperclub("export", "--format", "sessions-json", "--workspace", "slack:T1").stdout
    )
    assert [s["cancelled"] for s in sessions] == [False, True]
    first, second = sessions
    assert first["channel"] == "slack:T1:C1" and first["private"] is True
    assert first["start"] == "2026-12-08T17:00:00+00:00" and first["zone"] == "Europe/Berlin"
    assert first["end"] == "2026-12-08T18:30:00+00:00" and first["place"] == HOSTILE
    assert first["paper"] == {"id": won, "title": TITLE}
    assert first["presenter"] == {"user": SHIFTY, "how": "rotation"}
    assert first["poll"]["mode"] == "ranked" and first["poll"]["winner"] == won
    assert first["poll"]["slate"] == [
        {"paper_id": won, "title": TITLE, "votes": 2.5},
        {"paper_id": lost, "title": "Runner-up", "votes": 1},
    ]
    assert first["rsvps"] == [
        {"user": SHIFTY, "answer": "no"},
        {"user": "U1", "answer": "going"},
    ]
    assert second["sequence"] == 1 and second["poll"] is None and second["paper"] is None
    assert second["presenter"] is None and second["rsvps"] == []
    # The other workspace's sessions are its own.
    theirs = json.loads(
        paperclub("export", "--format", "sessions-json", "--workspace", "slack:T2").stdout
    )
    assert [s["channel"] for s in theirs] == ["slack:T2:C1"]
    # The papers' export is still a list of papers.
    papers = json.loads(paperclub("export", "--workspace", "slack:T1").stdout)
    assert {p["title"] for p in papers} == {TITLE, "Runner-up"}


def test_sessions_csv_is_one_inert_row_a_session(paperclub: Runner, tmp_path: Path) -> None:
    won, lost = _seed(folder=tmp_path)
    out = tmp_path / "sessions.csv"
    paperclub("export", "--format", "sessions-csv", "--workspace", "slack:T1", "-o", str(out))
    with out.open(encoding="utf-8", newline="") as handle:  # the cell's own \r\n kept
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == CSV_COLUMNS
    first = dict(zip(CSV_COLUMNS, rows[1], strict=True))
    second = dict(zip(CSV_COLUMNS, rows[2], strict=True))
    assert len(rows) == 3
    # Formulas get the leading apostrophe the papers' CSV gives them; line breaks stay
    # inside their quoted cell.
    assert first["paper_title"] == "'" + TITLE and first["paper_id"] == str(won)
    assert first["presenter"] == "'" + SHIFTY and first["presented_as"] == "rotation"
    assert first["place"] == HOSTILE  # "<!channel> …": no formula, kept as it is
    assert (first["poll_mode"], first["poll_papers"], first["poll_votes"]) == (
        "ranked",
        f"{won} {lost}",
        "2.5 1",
    )
    assert (first["going"], first["maybe"], first["no"]) == ("U1", "", "'" + SHIFTY)
    assert (second["cancelled"], second["sequence"], second["poll_mode"]) == ("true", "1", "")
