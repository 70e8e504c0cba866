"""Distribution's edges: a forged or replayed OAuth callback installs nothing, a revoked token
is gone at once, a reinstall's new token is the one used, and no secret reaches the log."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot.runtime.logs import redact
from bot.sealing import PREFIX
from tests.fakeslack import event_body, event_envelope_payload, url_verification_payload
from tests.slack.distribution import CLIENT_SECRET, NINE, TEAMS, Deployment, deployed, posts


@pytest.fixture
def deployment(sqlite_url: str) -> Iterator[Deployment]:
    """The distributed bot and the fake, until the test ends."""
    yield from deployed(url=sqlite_url)


def _callback(d: Deployment, team: str) -> tuple[str, str]:
    """Start an install and approve it, stopping before the browser comes back:
    (the callback URL with code and state, the state cookie)."""
    d.fake.sign_in(team)
    _status, headers, _ = d.get(f"http://127.0.0.1:{d.port}/slack/install")
    _status, consent, _ = d.get(headers["Location"])
    return consent["Location"], headers["Set-Cookie"].split(";", 1)[0]


def test_a_forged_or_replayed_callback_installs_nothing(deployment: Deployment) -> None:
    d = deployment
    url, cookie = _callback(d, "T0100")
    status, _, _ = d.get(url)  # no state cookie: not the browser that started the install
    assert status >= 400
    status, _, _ = d.get(url.replace("state=", "state=forged"), cookie=cookie)
    assert status >= 400
    assert d.rows("SELECT COUNT(*) FROM slack_bots") == [(0,)]
    assert d.fake.workspace("T0100").recorded("oauth.v2.access") == []
    status, _, _ = d.get(url, cookie=cookie)  # the real browser finishes
    assert status == 200
    status, _, _ = d.get(url, cookie=cookie)  # and the same callback again is refused
    assert status >= 400
    assert d.rows("SELECT team_id FROM slack_bots") == [("T0100",)]
    assert len(d.fake.workspace("T0100").recorded("oauth.v2.access")) == 1


def test_a_revoked_bot_token_is_deleted_at_once(deployment: Deployment) -> None:
    d = deployment
    for team in TEAMS:
        d.install(team)
        d.installed.add(team)
    assert d.command("T0100", "help")
    event = {"type": "tokens_revoked", "tokens": {"oauth": [], "bot": [TEAMS["T0100"][3]]}}
    assert d.post(event_body(event_envelope_payload(event, team_id="T0100"))) == (200, b"")
    assert d.rows("SELECT team_id FROM slack_bots") == [("T0200",)]
    tokens = d.rows("SELECT team_id, bot_token FROM slack_installations ORDER BY team_id")
    assert tokens[0] == ("T0100", None) and str(tokens[1][1]).startswith(PREFIX)
    d.installed.discard("T0100")
    assert d.command("T0100", "help") is None  # acked, unanswered
    assert d.command("T0200", "help")


def test_a_reinstall_posts_with_the_new_token_and_logs_keep_secrets(
    deployment: Deployment, caplog: pytest.LogCaptureFixture
) -> None:
    d, fake = deployment, deployment.fake
    caplog.set_level(logging.DEBUG)
    # Bolt copies the root's level onto the logger named like the App ("paperclub") at each
    # request, so an earlier test's level may linger there until this test's first request.
    caplog.set_level(logging.DEBUG, logger="paperclub")
    d.install("T0100")
    d.installed.add("T0100")
    d.command("T0100", "schedule 09:00 Europe/Berlin mon-fri")
    d.command("T0100", "add A paper")
    (first,) = fake.tokens("T0100")
    d.install("T0100")
    (newest,) = fake.tokens("T0100") - {first}
    d.clock.at = NINE
    d.sweep()
    assert len(posts(fake, "T0100")) == 1
    calls = fake.workspace("T0100").recorded("chat.postMessage")
    assert {c.token for c in calls} == {newest}
    oauth = d.wiring.settings.slack_distribution
    assert oauth is not None
    # Our own lines (INFO and up) name the workspace, never its secrets; slack_sdk's DEBUG
    # lines echo oauth.v2.access, and the log filter of `paperclub run` takes the token out.
    ours = "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.INFO)
    assert "T0100" in ours
    shown = redact(text=caplog.text, secrets=d.wiring.settings.secrets)
    for secret in (first, newest, CLIENT_SECRET, *oauth.secret_keys):
        assert secret not in ours and secret not in shown


def test_url_verification_is_answered_and_a_user_token_revocation_keeps_the_bot(
    deployment: Deployment,
) -> None:
    d = deployment
    status, body = d.post(event_body(url_verification_payload("the-challenge")))
    assert status == 200 and b"the-challenge" in body
    d.install("T0100")
    d.installed.add("T0100")
    d.command("T0100", "schedule 09:00 Europe/Berlin mon-fri")
    event = {"type": "tokens_revoked", "tokens": {"oauth": ["U0INSTALLER"], "bot": []}}
    assert d.post(event_body(event_envelope_payload(event, team_id="T0100"))) == (200, b"")
    assert d.rows("SELECT team_id FROM slack_bots") == [("T0100",)]
    assert d.rows("SELECT paused FROM channels") in ([(False,)], [(0,)])  # still posting
    assert d.command("T0100", "help")
