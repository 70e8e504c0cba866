"""The sessions page remembers: each session's presenter (by display name) and the paper its
poll chose (linked to its page), and who presented how often; hostile names and titles inert;
a cancelled session shows neither; another workspace's sessions count nowhere here. The
sweep learns the names of presenters who never voted or commented."""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from bot import export_sessions
from bot.db.database import Database
from bot.ports.names import PERSON
from bot.ports.polls import Tally
from bot.services import listing
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive import archive_app
from tests.db.polls_data import paper_in
from tests.web.archive_data import TODAY, seed
from tests.web.meetings_data import OTHER, PUBLIC, PUBLIC_NAME, START, T1, Clock, add_meetings

SESSIONS = f"/channel/{PUBLIC_NAME}/sessions"
TITLE = "<script>alert('title')</script> & <b>Attention</b>"
ADA = "Ada <img src=x onerror=alert(1)> Lovelace"


@pytest.fixture
def archive(any_url: str) -> Iterator[tuple[FlaskClient, Clock, Database]]:
    """The seeded archive with meetings, shown as workspace T1 without sign-in."""
    seed(url=any_url)
    database = Database(url=any_url)
    add_meetings(database=database)
    clock = Clock()
    app = archive_app(
        uow=database,
        today=lambda: TODAY,
        now=clock.now,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        workspace="slack:T1",
    )
    try:
        yield app.test_client(), clock, database
    finally:
        database.dispose()


def _text(client: FlaskClient) -> str:
    """The sessions page, which must answer 200."""
    answer = client.get(SESSIONS)
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def test_presenters_papers_and_who_presented_how_often(
    archive: tuple[FlaskClient, Clock, Database],
) -> None:
    client, clock, database = archive
    clock.at = START - timedelta(weeks=3)  # the sessions are made from then on
    _text(client)
    clock.at = START
    paper = paper_in(database, title=TITLE, workspace=PUBLIC)
    with database() as store:
        one, two, three = store.session_records(
            channel=PUBLIC, since=START - timedelta(weeks=3), until=START
        )
        (coming, *_) = store.session_records(
            channel=PUBLIC, since=START, until=START + timedelta(weeks=1)
        )
        theirs = store.add_session(channel=OTHER, session=one.session, now=START)
        assert theirs is not None
        nomination = store.nominate(channel=PUBLIC, paper_id=paper, user="U9", now=START)[0]
        store.open_poll(session_id=one.id, slate=[nomination.id], now=START)
        tally = Tally(mode="approval", counts=((nomination.id, 3.0),))
        store.close_poll(session_id=one.id, winner=nomination.id, now=START, tally=tally)
        for record, user in ((one, "U9"), (two, "U9"), (three, "U8"), (coming, "U7")):
            store.assign_presenter(
                session_id=record.id, user=user, how="rotation", now=START, replace=False
            )
        # Presenting in another workspace counts there alone.
        store.assign_presenter(
            session_id=theirs, user="U8", how="volunteer", now=START, replace=False
        )
        store.record_names(workspace=T1, kind=PERSON, names={"U9": ADA}, now=START)
    text = _text(client)
    assert "<script>alert(" not in text and "<img" not in text
    assert f'📄 <a href="/paper/{paper}">{escape(TITLE)}</a>' in text
    assert text.count("📄") == 1
    assert text.count(f"Presented by {html.escape(ADA)}") == 2
    assert "Presented by U8" in text and "Presented by U7" in text
    table = text.split('id="presented"')[1]
    # Most first; the session still to come is not counted, nor the other workspace's.
    assert table.index(html.escape(ADA)) < table.index("U8")
    assert f"<td>{html.escape(ADA)}</td><td>2</td>" in table
    assert "<td>U8</td><td>1</td>" in table and "U7" not in table
    # A cancelled session keeps its history but shows neither.
    with database() as store:
        store.change_session(session_id=three.id, session=three.session, cancelled=True, now=START)
    text = _text(client)
    assert "Presented by U8" not in text and "U8" not in text.split('id="presented"')[1]


def test_the_sweep_learns_presenters_names(archive: tuple[FlaskClient, Clock, Database]) -> None:
    client, clock, database = archive
    _text(client)  # the page makes the sessions ahead
    with database() as store:
        (record, *_) = store.session_records(
            channel=PUBLIC, since=START, until=START + timedelta(weeks=2)
        )
        store.assign_presenter(
            session_id=record.id, user="UQUIET", how="volunteer", now=START, replace=False
        )
    with database(write=False) as store:
        wanted = store.names_wanted(platform="slack", before=clock.now(), limit=1_000)
    asked = [(w.kind, w.channel) for w in wanted if w.external_id == "UQUIET"]
    assert asked == [(PERSON, PUBLIC)]


def test_ratings_and_links_show_and_go_to_the_export(
    archive: tuple[FlaskClient, Clock, Database],
) -> None:
    client, clock, database = archive
    clock.at = START - timedelta(weeks=3)
    _text(client)
    clock.at = START
    with database() as store:
        (one, *_) = store.session_records(
            channel=PUBLIC, since=START - timedelta(weeks=3), until=START
        )
        for user, worth in (("U1", True), ("U2", True), ("U3", False)):
            store.rate_session(
                session_id=one.id, user=user, question="worth", answer=worth, now=START
            )
        store.rate_session(
            session_id=one.id, user="U1", question="discussion", answer=True, now=START
        )
        store.add_session_link(
            session_id=one.id, url="https://example.org/slides", user="U1", now=START
        )
    text = _text(client)
    assert "👍 Worth it 2 · 👎 Not really 1 · 💬 Good discussion 1 · 🤐 Quiet 0" in text
    assert '<a href="https://example.org/slides" rel="nofollow noopener noreferrer">' in text
    history = listing.sessions(uow=database, workspace=T1)
    exported = json.loads(export_sessions.to_json(sessions=history))
    (row,) = [r for r in exported if r["id"] == one.id]
    assert row["ratings"][0] == {"user": "U1", "worth": True, "discussion": True}
    assert row["links"] == ["https://example.org/slides"]
    cells = list(csv.DictReader(io.StringIO(export_sessions.to_csv(sessions=history))))
    (line,) = [c for c in cells if c["id"] == str(one.id)]
    assert (line["worth"], line["not_worth"], line["lively"], line["quiet"]) == ("2", "1", "1", "0")
    assert line["links"] == "https://example.org/slides"
