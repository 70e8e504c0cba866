"""The sessions page of the web archive: a public channel's sessions (coming, and the last 90
days) on the meeting's wall clock, its place as inert text or a link, cancelled ones marked,
RSVPs counted, the calendar link; linked from the channel's page; one workspace's public
channels only."""

from __future__ import annotations

import html
from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from bot.db.database import Database
from bot.domain import WorkspaceKey
from bot.meetings.ballots import Rsvp
from bot.meetings.meeting import OneOff, Skip
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.services.web_links import Signer
from bot.web.archive import archive_app
from tests.web.archive_data import TODAY, seed
from tests.web.meetings_data import (
    HOSTILE,
    OTHER,
    OTHER_PLACE,
    PRIVATE,
    PRIVATE_NAME,
    PUBLIC,
    PUBLIC_NAME,
    START,
    T1,
    T2,
    Clock,
    add_meetings,
)

KEY = b"a sign-in key of thirty-two bytes"
SESSIONS = f"/channel/{PUBLIC_NAME}/sessions"


@pytest.fixture
def archive(sqlite_url: str) -> Iterator[tuple[FlaskClient, Signer, Clock, Database]]:
    """The seeded archive with meetings, needing sign-in: its client, signer, clock and
    database."""
    seed(url=sqlite_url)
    database = Database(url=sqlite_url)
    add_meetings(database=database)
    signer, clock = Signer(key=KEY, base="http://127.0.0.1/archive", minutes=60), Clock()
    app = archive_app(
        uow=database,
        today=lambda: TODAY,
        signer=signer,
        now=clock.now,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    try:
        yield app.test_client(), signer, clock, database
    finally:
        database.dispose()


def _sign_in(*, client: FlaskClient, signer: Signer, clock: Clock, workspace: WorkspaceKey) -> None:
    """Follow a sign-in link to `workspace`."""
    path = signer.link(workspace=workspace, now=clock.now()).removeprefix(signer.base)
    assert client.get(path).status_code == 302


def _page(client: FlaskClient, path: str) -> tuple[int, str]:
    """Status and text of a page."""
    answer = client.get(path)
    return answer.status_code, answer.get_data(as_text=True)


def test_the_page_lists_sessions_escaped_with_counts_and_the_calendar(
    archive: tuple[FlaskClient, Signer, Clock, Database],
) -> None:
    client, signer, clock, database = archive
    _sign_in(client=client, signer=signer, clock=clock, workspace=T1)
    # Three weeks ago the sessions were made from then on; now three of them are history.
    clock.at = START - timedelta(weeks=3)
    assert client.get(SESSIONS).status_code == 200
    clock.at = START
    with database() as store:
        store.add_change(channel=PUBLIC, change=Skip(day=START.date() + timedelta(days=10)))
        link = "https://meet.example/room?x=1&y=<2>"
        store.add_change(
            channel=PUBLIC, change=OneOff(day=START.date() + timedelta(days=1), at=START.time())
        )
        store.add_change(
            channel=PUBLIC,
            change=OneOff(day=START.date() + timedelta(days=2), at=START.time(), place=link),
        )
        store.add_change(
            channel=PUBLIC,
            change=OneOff(
                day=START.date() + timedelta(days=3), at=START.time(), place="javascript:alert(1)"
            ),
        )
    status, text = _page(client, SESSIONS)  # the changes show at once
    assert status == 200
    with database(write=False) as store:
        (thursday,) = [
            r
            for r in store.session_records(
                channel=PUBLIC, since=START, until=START + timedelta(days=4)
            )
            if not r.session.one_off
        ]
    with database() as store:
        for user, answer in (("U1", Rsvp.GOING), ("U2", Rsvp.GOING), ("U3", Rsvp.NO)):
            store.set_rsvp(session_id=thursday.id, user=user, answer=answer, now=START)
    status, text = _page(client, SESSIONS)
    assert f"<h1>Sessions of #{PUBLIC_NAME}</h1>" in text
    # The place: escaped, whole, never markup; a link only when it is an http(s) URL.
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert html.escape(HOSTILE[:60], quote=False) in text and "x" * 9_000 in text
    assert 'href="https://meet.example/room?x=1&amp;y=%3C2%3E"' in text
    assert 'href="javascript' not in text and "📍 javascript:alert(1)" in text
    # On the meeting's wall clock, DST included; cancelled marked; answers counted.
    assert "Thu 03 Dec 2026, 16:00–17:30 Europe/Berlin" in text
    assert "Thu 10 Dec 2026, 16:00–17:30 Europe/Berlin</span> · <span" in text
    assert text.count('class="status">cancelled') == 1
    assert "Going 2 · Maybe 0 · Not going 1" in text
    # History: the sessions of the last three weeks, latest first.
    coming, past = text.split('id="ahead"')[1].split('id="past"')
    assert "Thu 26 Nov 2026" in past and "Thu 12 Nov 2026" in past
    assert past.index("26 Nov") < past.index("19 Nov") < past.index("12 Nov")
    assert "Nov 2026" not in coming
    feed = html.escape(signer.calendar_link(channel=PUBLIC))
    assert f'id="calendar" href="{feed}"' in text


def test_the_channel_page_links_to_its_sessions(
    archive: tuple[FlaskClient, Signer, Clock, Database],
) -> None:
    client, signer, clock, database = archive
    _sign_in(client=client, signer=signer, clock=clock, workspace=T1)
    _, text = _page(client, f"/channel/{PUBLIC_NAME}")
    assert f'id="sessions" href="/channel/{PUBLIC_NAME}/sessions"' in text
    with database() as store:
        store.drop_meeting(channel=PUBLIC)
    clock.at = START + timedelta(weeks=20)  # nothing left to list, nor a meeting
    _, text = _page(client, f"/channel/{PUBLIC_NAME}")
    assert 'id="sessions"' not in text


def test_private_channels_and_other_workspaces_see_nothing(
    archive: tuple[FlaskClient, Signer, Clock, Database],
) -> None:
    client, signer, clock, _ = archive
    _sign_in(client=client, signer=signer, clock=clock, workspace=T1)
    for name in (PRIVATE_NAME, PRIVATE.channel, OTHER.channel):
        status, text = _page(client, f"/channel/{name}/sessions")
        assert status == 404, name
        assert "room" not in text
    _sign_in(client=client, signer=signer, clock=clock, workspace=T2)
    for name in (PUBLIC_NAME, PUBLIC.channel, PRIVATE.channel):
        status, text = _page(client, f"/channel/{name}/sessions")
        assert status == 404, name
        assert "Reading" not in text and "alert" not in text
    status, text = _page(client, f"/channel/{OTHER.channel}/sessions")
    assert status == 200 and str(escape(OTHER_PLACE)) in text


def test_without_sign_in_the_page_is_401(
    archive: tuple[FlaskClient, Signer, Clock, Database],
) -> None:
    client, _, _, _ = archive
    status, text = _page(client, SESSIONS)
    assert status == 401 and "Europe/Berlin" not in text
