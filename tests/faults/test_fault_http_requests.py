"""HTTP mode under forged, stale, replayed and unsigned requests: every one is answered 401 and
nothing is stored, sent or answered. The real bot is served by waitress, as `paperclub run
--mode http` serves it; requests go over real HTTP."""

from __future__ import annotations

import hashlib
import hmac
import random
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import bot.slack.http as http_edge
from bot.db.database import Database
from bot.services import posting
from bot.slack import ids
from tests.fakeslack import (
    FakeSlack,
    HttpBody,
    block_actions_payload,
    command_body,
    event_body,
    event_envelope_payload,
    interactive_body,
    message_event,
    reaction_event,
    signed_headers,
    slash_command_payload,
)
from tests.faults.support import (
    ADMIN,
    BERLIN_WEEKDAYS,
    MEMBER,
    MONDAY_9,
    SECRET,
    FakeClock,
    daily_posts,
    prepare_database,
    scaled,
    seed_for,
    slack_settings,
    trap_logs,
    vote_value,
)
from tests.wired import SlackBot, build_slack_bot, http_service


@dataclass
class Served:
    """The bot in HTTP mode, its daily post made, and how to reach it."""

    fake: FakeSlack
    slack: SlackBot
    database: Database
    url: str
    post_ts: str
    post_value: str
    # Requests that got past the signature and replay checks into Bolt: only those can start
    # a listener (lazy or not), so none dispatched means nothing can happen later either.
    dispatched: list[Any]

    def send(self, data: bytes, headers: dict[str, str]) -> int:
        """POST raw bytes with exactly these headers; the HTTP status."""
        request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                response.read()
                return int(response.status)
        except urllib.error.HTTPError as error:
            with error:
                error.read()
                return int(error.code)

    def state(self) -> dict[str, Any]:
        """Everything a request could change: rows, flags, Slack calls, response_url posts."""
        with self.database.engine.connect() as conn:
            counts = {
                table: conn.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar()
                for table in (
                    "processed_events",
                    "votes",
                    "comments",
                    "posts",
                    "papers",
                    "channels",
                )
            }
            flags = conn.exec_driver_sql(
                "SELECT external_id, paused, post_time, timezone FROM channels ORDER BY id"
            ).all()
            statuses = conn.exec_driver_sql("SELECT status, count(*) FROM papers GROUP BY 1").all()
        return {
            "counts": counts,
            "channels": [tuple(row) for row in flags],
            "papers": sorted(tuple(row) for row in statuses),
            "slack calls": len(self.fake.requests()),
            "responses": len(self.fake.responses()),
        }


@pytest.fixture
def served(fake: FakeSlack, tmp_path: Path) -> Iterator[Served]:
    """`paperclub run --mode http`, in-process, on a free port, with today's post made."""
    url = prepare_database(tmp_path / "club.db", channels=["C0001"], schedule=BERLIN_WEEKDAYS)
    database = Database(url=url)
    settings = slack_settings(fake, url)
    clock = FakeClock(MONDAY_9)
    slack = build_slack_bot(settings=settings, database=database, clock=clock, mode="http")
    posting.post_due(poster=slack.poster, now=MONDAY_9)
    [message] = daily_posts(fake, "C0001")
    # What `paperclub run --mode http` serves, bound to a free port of the loopback interface.
    server = http_service(bot=slack, settings=replace(settings, http_port=0))
    dispatched: list[Any] = []
    dispatch = slack.app.dispatch

    def counted(request: Any) -> Any:
        dispatched.append(request)
        return dispatch(request)

    slack.app.dispatch = counted  # type: ignore[method-assign]
    server.start()
    try:
        yield Served(
            fake=fake,
            slack=slack,
            database=database,
            url=f"http://127.0.0.1:{server.port}/slack/events",
            post_ts=str(message["ts"]),
            post_value=vote_value(message),
            dispatched=dispatched,
        )
    finally:
        server.stop()
        slack.close()
        database.dispose()


def _command(served: Served, text: str, user: str = ADMIN) -> tuple[HttpBody, str]:
    url = served.fake.new_response_url()
    return command_body(slash_command_payload(text=text, user_id=user, response_url=url)), url


def _click(served: Served, user: str = MEMBER) -> HttpBody:
    payload = block_actions_payload(
        ids.VOTE_UP,
        served.post_value,
        user_id=user,
        channel_id="C0001",
        message_ts=served.post_ts,
        block_id=ids.VOTE_BLOCK,
    )
    return interactive_body(payload)


def _effectful_bodies(served: Served, rng: random.Random) -> list[HttpBody]:
    """Requests that would change something if the bot accepted them."""
    n = rng.randrange(10**6)
    return [
        _command(served, "pause")[0],
        _command(served, "skip")[0],
        _command(served, "schedule 07:30 America/New_York daily")[0],
        _command(served, "add 2104.04473", user=MEMBER)[0],
        _command(served, "next")[0],
        _click(served, user=f"U{n:07d}"),
        event_body(
            event_envelope_payload(
                reaction_event(
                    user=f"U{n:07d}", reaction="+1", channel="C0001", item_ts=served.post_ts
                )
            )
        ),
        event_body(
            event_envelope_payload(
                message_event(
                    channel="C0001", user=MEMBER, text=f"forged {n}", thread_ts=served.post_ts
                )
            )
        ),
    ]


def _valid_headers(
    body: HttpBody, *, at: int | None = None, secret: str = SECRET
) -> dict[str, str]:
    return signed_headers(
        secret, body.body, content_type=body.content_type, timestamp=at, headers=body.headers
    )


class ServerClock:
    """Moves the HTTP edge's idea of now, and only its: `time` inside bot/slack/http.py."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Real time plus `offset` seconds."""
        self.offset = 0.0
        monkeypatch.setattr(http_edge, "time", SimpleNamespace(time=self._now))

    def _now(self) -> float:
        return time.time() + self.offset


def test_a_once_valid_request_replayed_after_five_minutes_gets_401(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ServerClock(monkeypatch)
    pause, pause_url = _command(served, "pause")
    pause_headers = _valid_headers(pause)
    click = _click(served)
    click_headers = _valid_headers(click)
    reaction = event_body(
        event_envelope_payload(
            reaction_event(user="U0REACT", reaction="-1", channel="C0001", item_ts=served.post_ts)
        )
    )
    reaction_headers = _valid_headers(reaction)
    # Slack sends them: each is valid and has its effect.
    assert served.send(pause.body, pause_headers) == 200
    served.fake.wait_response(pause_url, timeout=10)
    assert served.send(click.body, click_headers) == 200
    assert served.send(reaction.body, reaction_headers) == 200
    resume, resume_url = _command(served, "resume")
    assert served.send(resume.body, _valid_headers(resume)) == 200
    served.fake.wait_response(resume_url, timeout=10)
    assert served.slack.coalescer.drain()  # the vote redraws are sent: nothing is pending
    dispatched = len(served.dispatched)
    # Within the five minutes Slack allows, a byte-identical replay is refused too.
    clock.offset = 240
    assert served.send(click.body, click_headers) == 401
    assert served.send(reaction.body, reaction_headers) == 401
    before = served.state()
    assert before["channels"][0][1] in (0, False), "resume did not take"
    # Captured and replayed byte for byte later: refused, and nothing changes.
    with trap_logs() as trap:
        for offset in (301, 360, 3600, 86_400 * 30):
            clock.offset = offset
            for body, headers in (
                (pause, pause_headers),
                (click, click_headers),
                (reaction, reaction_headers),
            ):
                assert served.send(body.body, headers) == 401, offset
    assert len(served.dispatched) == dispatched  # no replay reached Bolt: no listener runs
    assert served.state() == before
    assert len(served.fake.responses(pause_url)) == 1
    assert not trap.tracebacks()
    with served.database.engine.connect() as conn:
        votes = conn.exec_driver_sql("SELECT user_id, value FROM votes ORDER BY user_id").all()
    assert [tuple(v) for v in votes] == [("U0001", 1), ("U0REACT", -1)]


def _forgeries(served: Served, rng: random.Random) -> Iterator[tuple[str, bytes, dict[str, str]]]:
    """Endless forged requests: (how, body bytes, headers)."""
    now = int(time.time())
    while True:
        body = rng.choice(_effectful_bodies(served, rng))
        good = _valid_headers(body)
        how = rng.choice(
            (
                "wrong secret",
                "tampered body",
                "no signature",
                "no timestamp",
                "unsigned",
                "stale",
                "future",
                "bad timestamp",
                "bad signature",
                "random bytes",
                "other body's signature",
                "empty body",
            )
        )
        data, headers = body.body, dict(good)
        if how == "wrong secret":
            secret = rng.choice(("", " ", SECRET.upper(), SECRET + "x", SECRET[:-1], "secret"))
            headers = _valid_headers(body, secret=secret or "x")
        elif how == "tampered body":
            position = rng.randrange(len(data))
            flipped = bytes([data[position] ^ (1 << rng.randrange(7))])
            data = data[:position] + flipped + data[position + 1 :]
            if data == body.body:
                data += b"&x=1"
        elif how == "no signature":
            headers.pop("X-Slack-Signature")
        elif how == "no timestamp":
            headers.pop("X-Slack-Request-Timestamp")
        elif how == "unsigned":
            headers = {"Content-Type": body.content_type, **body.headers}
        elif how in ("stale", "future"):
            skew = rng.randint(301, 10**7) * (-1 if how == "stale" else 1)
            headers = _valid_headers(body, at=now + skew)
        elif how == "bad timestamp":
            stamp = rng.choice(
                (
                    "",
                    " ",
                    "-1",
                    "+" + str(now),
                    f"{now}.5",
                    "0x10",
                    "abc",
                    "9" * 40,
                    f" {now}",
                    f"{now} ",
                    "1e9",
                    "NaN",
                )
            )
            base = b"v0:" + stamp.encode() + b":" + data
            sig = "v0=" + hmac.new(SECRET.encode(), base, hashlib.sha256).hexdigest()
            headers.update({"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": sig})
        elif how == "bad signature":
            sig = good["X-Slack-Signature"]
            headers["X-Slack-Signature"] = rng.choice(
                (
                    "",
                    "v0=",
                    sig.upper(),
                    sig.replace("v0=", "v1="),
                    sig[:-1],
                    sig + "0",
                    sig[3:],
                    f"{sig},{sig}",
                    sig + " x",
                    "v0=" + "0" * 64,
                    "v0=" + hashlib.sha256(data).hexdigest(),
                )
            )
        elif how == "random bytes":
            data = rng.randbytes(rng.randint(0, 2000))
            headers["Content-Type"] = rng.choice(
                (body.content_type, "text/plain", "application/json")
            )
        elif how == "other body's signature":
            other = rng.choice(_effectful_bodies(served, rng))
            headers = _valid_headers(other)
            headers["Content-Type"] = body.content_type
        elif how == "empty body":
            data = b""
        yield how, data, headers


@pytest.mark.timeout(scaled(300, 1800))
def test_batches_of_forged_stale_and_unsigned_requests_get_401_and_store_nothing(
    served: Served,
) -> None:
    rng = random.Random(seed_for("forged http requests"))
    before = served.state()
    dispatched = len(served.dispatched)
    kinds: dict[str, int] = {}
    total = scaled(600, 6000)
    with trap_logs() as trap:
        for n, (how, data, headers) in enumerate(_forgeries(served, rng)):
            if n == total:
                break
            status = served.send(data, headers)
            assert status == 401, (how, status, data[:200], headers)
            kinds[how] = kinds.get(how, 0) + 1
    assert len(served.dispatched) == dispatched  # none reached Bolt: no listener runs
    print(f"{total} forged requests, all 401: {kinds}")
    assert served.state() == before
    assert not trap.tracebacks()
    # The server still serves real requests afterwards.
    body, url = _command(served, "queue", user=MEMBER)
    assert served.send(body.body, _valid_headers(body)) == 200
    assert served.fake.wait_response(url, timeout=10)["text"]


def test_a_command_replayed_within_five_minutes_has_no_second_effect(served: Served) -> None:
    skip, url = _command(served, "skip")
    headers = _valid_headers(skip)
    assert served.send(skip.body, headers) == 200
    served.fake.wait_response(url, timeout=10)
    before = served.state()
    # The same bytes and headers again, seconds later (a captured request, or a proxy retry).
    dispatched = len(served.dispatched)
    assert served.send(skip.body, headers) == 401  # the replay guard refuses the same bytes
    assert len(served.dispatched) == dispatched  # it never reached Bolt: no listener runs
    assert served.state() == before
