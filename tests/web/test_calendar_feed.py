"""The calendar feed over real HTTP, under /archive on the process's server as in Slack's HTTP
mode: the link /paperclub sessions hands out opens it with no sign-in cookie, a calendar
library reads it, a change shows at the next read, and any other token is a 404."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from email.message import Message
from typing import Any
from urllib.parse import quote

import icalendar
import pytest

from bot.config.settings import Settings
from bot.config.web import WebSettings
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.meetings.ics import clean_text
from bot.meetings.meeting import Skip
from bot.runtime.wiring import Wiring
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.services.web_links import Signer
from bot.web.archive_serve import open_archive
from bot.web.signin import signer as make_signer
from tests.web.archive_data import seed
from tests.web.meetings_data import (
    HOSTILE,
    OTHER,
    PRIVATE,
    PRIVATE_NAME,
    PRIVATE_PLACE,
    PUBLIC,
    PUBLIC_NAME,
    Clock,
    add_meetings,
)

KEY = b"a sign-in key of thirty-two bytes"
THURSDAYS = 12  # twelve weeks ahead (meeting_sessions.HORIZON), one session a week


@dataclass
class Feed:
    """The server's address, the signer that makes the bot's links (its links start with
    `public`, which the server answers at `base`), the database and clock."""

    base: str
    public: str
    signer: Signer
    database: Database
    clock: Clock

    def get(self, path: str) -> tuple[int, Message, bytes]:
        """Status, headers and body of a GET carrying no cookie (as a calendar app sends it)."""
        try:
            with urllib.request.urlopen(self.base + path, timeout=5) as answer:
                return answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.headers, error.read()

    def path(self, channel: ChannelKey) -> str:
        """The path of the channel's feed link, as the bot hands it out, on this server."""
        return self.signer.calendar_link(channel=channel).removeprefix(self.public)

    def events(self, channel: ChannelKey) -> dict[str, Any]:
        """The channel's feed, read over HTTP, by UID."""
        status, _, body = self.get(self.path(channel))
        assert status == 200
        return {str(e["UID"]): e for e in icalendar.Calendar.from_ical(body).walk("VEVENT")}


@pytest.fixture
def feed(sqlite_url: str) -> Iterator[Feed]:
    """The seeded archive with meetings, served under /archive with sign-in on."""
    seed(url=sqlite_url)
    settings = Settings(database_url=sqlite_url, http_port=0, web=WebSettings(signin_key=KEY))
    database, clock = Database(url=sqlite_url), Clock()
    add_meetings(database=database)
    wiring = Wiring(settings=settings, database=database, clock=clock, plugins=[])
    signer = make_signer(settings=settings)
    assert signer is not None
    try:
        server = wiring.open_http(host="127.0.0.1", port=0, archive=True)
        public = f"http://127.0.0.1:{settings.http_port}"  # the port asked for: 0
        yield Feed(
            base=f"http://127.0.0.1:{server.port}",
            public=public,
            signer=signer,
            database=database,
            clock=clock,
        )
    finally:
        wiring.close()
        database.dispose()


def test_the_link_opens_the_feed_under_archive_without_a_cookie(feed: Feed) -> None:
    path = feed.path(PUBLIC)
    assert path.startswith("/archive/calendar/") and path.endswith(".ics")
    status, headers, body = feed.get(path)
    assert status == 200
    assert headers["Content-Type"] == "text/calendar; charset=utf-8"
    assert headers["Cache-Control"] == "no-store"
    parsed = icalendar.Calendar.from_ical(body)
    assert str(parsed["X-WR-CALNAME"]) == str(parsed["NAME"]) == f"#{PUBLIC_NAME} · Paper Club"
    assert len(parsed.walk("VEVENT")) == THURSDAYS
    # Only the feed skips the sign-in: the archive's pages still want the cookie.
    assert feed.get("/archive/")[0] == 401
    assert feed.get("/archive/channel/CPUB/sessions")[0] == 401


def test_uids_stay_and_a_skip_is_cancelled_with_its_sequence_bumped(feed: Feed) -> None:
    first, again = feed.events(PUBLIC), feed.events(PUBLIC)
    assert list(first) == list(again)
    assert all(uid.endswith("@paperclub") for uid in first)
    assert {int(str(e["SEQUENCE"])) for e in first.values()} == {0}
    third = sorted(first.values(), key=lambda e: e.decoded("DTSTART"))[2]
    day = third.decoded("DTSTART").date()
    with feed.database() as store:
        store.add_change(channel=PUBLIC, change=Skip(day=day))
    after = feed.events(PUBLIC)  # at once: the feed is made at each read
    assert list(after) == list(first)
    skipped = after[str(third["UID"])]
    assert str(skipped["STATUS"]) == "CANCELLED" and int(str(skipped["SEQUENCE"])) == 1
    others = [e for uid, e in after.items() if uid != str(third["UID"])]
    assert {(str(e["STATUS"]), int(str(e["SEQUENCE"]))) for e in others} == {("CONFIRMED", 0)}


def test_a_hostile_place_stays_one_property(feed: Feed) -> None:
    status, _, body = feed.get(feed.path(PUBLIC))
    assert status == 200
    events = icalendar.Calendar.from_ical(body).walk("VEVENT")
    assert len(events) == THURSDAYS
    assert {str(e["LOCATION"]) for e in events} == {clean_text(text=HOSTILE)}
    assert {str(e["SUMMARY"]) for e in events} == {"Reading group"}
    assert "evil@example" not in {str(e["UID"]) for e in events}
    lines = body.split(b"\r\n")
    assert lines.count(b"BEGIN:VEVENT") == lines.count(b"END:VEVENT") == THURSDAYS
    assert all(len(line) <= 75 for line in lines)


def test_a_private_channel_is_served_to_its_token_alone(feed: Feed) -> None:
    """Its link is a capability: it opens the private channel's feed, named after it."""
    status, _, body = feed.get(feed.path(PRIVATE))
    assert status == 200
    parsed = icalendar.Calendar.from_ical(body)
    assert str(parsed["NAME"]) == f"#{PRIVATE_NAME} · Paper Club"
    assert {str(e["LOCATION"]) for e in parsed.walk("VEVENT")} == {PRIVATE_PLACE}


def test_another_channels_token_opens_that_channel_only(feed: Feed) -> None:
    public, other = feed.events(PUBLIC), feed.events(OTHER)
    assert len(other) == THURSDAYS and not set(other) & set(public)
    status, _, body = feed.get(feed.path(OTHER))
    assert status == 200
    assert str(icalendar.Calendar.from_ical(body)["NAME"]) == "#COTHER · Paper Club"  # no name
    assert HOSTILE[:20].encode() not in body
    # The other channel's signature under this channel's name opens nothing.
    mac = feed.signer.calendar_token(channel=OTHER).rsplit("~", 1)[1]
    spliced = f"slack~T1~CPUB~{mac}"
    assert feed.get(f"/archive/calendar/{quote(spliced)}.ics")[0] == 404


@pytest.mark.parametrize(
    "token",
    [
        "x",
        "~~~",
        "slack~T1~CPUB~" + "0" * 64,
        "slack~T1~CPUB~",
        "slack~T1~CPUB",
        "%ED%A0%80~%FF~%00~%0D%0A",  # a lone surrogate, an invalid byte, NUL, CR LF
        "slack~T1~CPUB~" + "a" * 5000,
        "<script>alert(1)<%2Fscript>",
    ],
)
def test_a_bad_token_is_a_plain_404(feed: Feed, token: str) -> None:
    status, headers, body = feed.get(f"/archive/calendar/{token}.ics")
    assert status == 404
    assert headers["Content-Type"] == "text/plain; charset=utf-8"
    assert b"Traceback" not in body and b"<script>" not in body


def test_a_token_of_another_key_or_cut_short_is_a_404(feed: Feed) -> None:
    stranger = Signer(key=b"another key of thirty-two bytes!", base="")
    assert feed.get(f"/archive/calendar/{stranger.calendar_token(channel=PUBLIC)}.ics")[0] == 404
    path = feed.path(PUBLIC)
    assert feed.get(path.removesuffix(".ics"))[0] == 404
    assert feed.get(path[:-6] + ".ics")[0] == 404
    assert feed.get("/archive/calendar/.ics")[0] == 404
    assert feed.get("/archive/calendar/a/b.ics")[0] == 404


def test_served_alone_the_feed_is_at_the_root_of_its_port(sqlite_url: str) -> None:
    """With PAPERCLUB_WEB_URL (or PAPERCLUB_WEB_PORT) the archive has a root of its own: the
    link is that address and /calendar/<token>.ics."""
    seed(url=sqlite_url)
    web = WebSettings(signin_key=KEY, url="https://club.example/reading")
    settings = Settings(database_url=sqlite_url, web=web)
    database, clock = Database(url=sqlite_url), Clock()
    add_meetings(database=database)
    signer = make_signer(settings=settings)
    assert signer is not None
    link = signer.calendar_link(channel=PUBLIC)
    assert link.startswith("https://club.example/reading/calendar/slack~T1~CPUB~")
    service = open_archive(
        uow=database,
        settings=settings,
        clock=clock,
        port=0,
        host="127.0.0.1",
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    try:
        served = Feed(
            base=f"http://127.0.0.1:{service.port}",
            public=signer.base,
            signer=signer,
            database=database,
            clock=clock,
        )
        status, _, body = served.get(served.path(PUBLIC))
        assert status == 200 and body.startswith(b"BEGIN:VCALENDAR\r\n")
        clock.at += timedelta(days=7)  # a week on: the first session is history, one more ahead
        assert len(served.events(PUBLIC)) == THURSDAYS + 1
    finally:
        service.stop()
        database.dispose()
