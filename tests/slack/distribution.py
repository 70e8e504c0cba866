"""The distributed bot as the OAuth tests drive it: the fake serving two workspaces the app can
be installed into, the real wiring in distribution mode on a real HTTP server, and a browser's
and Slack's ways of reaching it."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import create_engine, text

from bot.config.settings import Settings
from bot.config.slack import Distribution
from bot.db.database import Database
from bot.runtime.wiring import Wiring
from bot.sealing import new_key
from bot.services import posting
from bot.slack import ids
from bot.slack import plugin as slack_plugin
from bot.web.server import HttpService
from tests.fakeslack import (
    FakeSlack,
    block_actions_payload,
    command_body,
    interactive_body,
    signed_request,
    slash_command_payload,
)
from tests.fakeslack.model import Channel, User
from tests.slack.conftest import SECRET, FakeClock, shown_mrkdwn

CLIENT_ID, CLIENT_SECRET = "1111.2222", "client-secret-for-tests"
# Monday 5 Jan 2026 08:00 UTC = 09:00 in Berlin; 09:00 UTC = 10:00 there.
NINE, TEN = datetime(2026, 1, 5, 8, 0, tzinfo=UTC), datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
# A workspace's name is the installer's to choose: markup, mentions and emoji included.
NAMES = {"T0100": "Club Alpha", "T0200": "<script>alert(1)</script> <!channel> 🎉"}
TEAMS = {  # team -> (channel, admin, member, bot user, bot id, post time, paper)
    "T0100": ("C0100", "U0A1", "U0A2", "U0BOTA", "B0BOTA", "09:00", "Alpha <!channel> paper 🎉"),
    "T0200": ("C0200", "U0B1", "U0B2", "U0BOTB", "B0BOTB", "10:00", "Beta *bold* paper"),
}


def browser_get(url: str, *, cookie: str = "") -> tuple[int, dict[str, str], str]:
    """A browser's GET (no redirect followed) -> (status, headers, body)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.request("GET", f"{parts.path}?{parts.query}", headers={"Cookie": cookie})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        conn.close()


def install(fake: FakeSlack, port: int, team: str) -> str:
    """Add to Slack on our server at `port` as a person of `team` does; the page they end on."""
    fake.sign_in(team)
    status, headers, _ = browser_get(f"http://127.0.0.1:{port}/slack/install")
    assert status == 302 and headers["Location"].startswith(fake.authorize_url)
    cookie = headers["Set-Cookie"].split(";", 1)[0]  # Bolt's state cookie, as a browser keeps
    status, consent, _ = browser_get(headers["Location"])
    assert status == 302
    status, _, page = browser_get(consent["Location"], cookie=cookie)
    assert status == 200, page
    return page


def add_teams(fake: FakeSlack) -> None:
    """The two workspaces of TEAMS, each with its channel, an admin and a member."""
    for team, (channel, admin, member, bot_user, bot_id, *_rest) in TEAMS.items():
        ws = fake.add_workspace(team, NAMES[team], bot_user_id=bot_user, bot_id=bot_id)
        ws.add_channel(Channel(id=channel, name="papers"))
        ws.add_user(User(id=admin, name=f"admin-{team}", is_admin=True))
        ws.add_user(User(id=member, name=f"member-{team}"))


@dataclass
class Deployment:
    """The distributed bot on its HTTP server, the fake, and how to reach both."""

    fake: FakeSlack
    wiring: Wiring
    clock: FakeClock
    port: int
    url: str
    installed: set[str] = field(default_factory=set)

    def get(self, url: str, cookie: str = "") -> tuple[int, dict[str, str], str]:
        """A browser's GET (no redirect followed) -> (status, headers, body)."""
        return browser_get(url, cookie=cookie)

    def install(self, team: str) -> str:
        """Add to Slack as a person of `team` does; the page they end on."""
        return install(self.fake, self.port, team)

    def post(self, body: Any) -> tuple[int, bytes]:
        """A signed request to /slack/events."""
        return signed_request(f"http://127.0.0.1:{self.port}/slack/events", body, SECRET)

    def command(
        self, team: str, text_: str, *, user: str | None = None, channel: str | None = None
    ) -> str | None:
        """/paperclub TEXT in the team's channel (or another of its channels); the reply's
        text, None when there was none."""
        channel, admin = channel or TEAMS[team][0], TEAMS[team][1]
        url = self.fake.new_response_url()
        payload = slash_command_payload(
            text=text_, user_id=user or admin, response_url=url, team_id=team, channel_id=channel
        )
        assert self.post(command_body(payload)) == (200, b"")
        if team not in self.installed:
            return None
        return shown_mrkdwn(self.fake.wait_response(url, timeout=10))

    def sweep(self) -> dict[Any, posting.PostResult]:
        """The minute sweep at the test's time."""
        return posting.post_due(poster=self.wiring.posters["slack"], now=self.clock.now())

    def rows(self, sql: str) -> list[Any]:
        """Rows of a query on the bot's database."""
        engine = create_engine(self.url)
        try:
            with engine.connect() as conn:
                return list(conn.execute(text(sql)).all())
        finally:
            engine.dispose()


def deployed(*, url: str) -> Iterator[Deployment]:
    """Two workspaces the app can be installed into, and the bot in distribution mode."""
    with FakeSlack() as fake:
        add_teams(fake)
        settings = Settings(
            slack_signing_secret=SECRET,
            slack_api_url=fake.base_url,
            database_url=url,
            slack_distribution=Distribution(
                client_id=CLIENT_ID,
                client_secret=CLIENT_SECRET,
                secret_keys=(new_key(),),
                authorize_url=fake.authorize_url,
            ),
            http_port=0,
            timezone="Europe/Berlin",
            lookup_timeout=1,
            arxiv_api_url="http://127.0.0.1:9/api/query",
            crossref_api_url="http://127.0.0.1:9",
        )
        database = Database(url=url)
        clock = FakeClock(NINE)
        wiring = Wiring(
            settings=settings, database=database, clock=clock, plugins=[slack_plugin], mode="http"
        )
        service = HttpService(routes=wiring.routes(), host="127.0.0.1", port=0)
        service.start()
        fake.register_app(
            CLIENT_ID, CLIENT_SECRET, f"http://127.0.0.1:{service.port}/slack/oauth_redirect"
        )
        try:
            yield Deployment(fake=fake, wiring=wiring, clock=clock, port=service.port, url=url)
        finally:
            service.stop()
            wiring.close()
            database.dispose()


def posts(fake: FakeSlack, team: str) -> list[dict[str, Any]]:
    """The daily posts in a team's channel."""
    return [m for m in fake.workspace(team).messages(TEAMS[team][0]) if m.get("metadata")]


def vote(d: Deployment, team: str, message: dict[str, Any], user: str) -> None:
    """Click 👍 on a daily post as a person of the team."""
    actions = next(b for b in message["blocks"] if b["type"] == "actions")
    payload = block_actions_payload(
        ids.VOTE_UP,
        str(actions["elements"][0]["value"]),
        user_id=user,
        message_ts=str(message["ts"]),
        channel_id=TEAMS[team][0],
        team_id=team,
    )
    assert d.post(interactive_body(payload)) == (200, b"")
