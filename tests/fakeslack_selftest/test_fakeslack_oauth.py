"""The fake's OAuth and its many workspaces, driven by the real slack_sdk WebClient."""

from __future__ import annotations

import http.client
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from tests.fakeslack import FakeSlack
from tests.fakeslack.model import ApiError, Channel

CLIENT_ID, CLIENT_SECRET = "1111.2222", "s3cret-client"
REDIRECT = "https://paperclub.test/slack/oauth_redirect"


@pytest.fixture
def teams(fake: FakeSlack) -> FakeSlack:
    """The default team and a second one, with the app installable into both."""
    second = fake.add_workspace("T0002", "Second Club", bot_user_id="U0BOT2", bot_id="B0BOT2")
    second.add_channel(Channel(id="C0200", name="papers"))
    fake.register_app(CLIENT_ID, CLIENT_SECRET, REDIRECT)
    return fake


def _authorize_url(fake: FakeSlack, **extra: str) -> str:
    """What Bolt's "Add to Slack" link looks like."""
    query = {"client_id": CLIENT_ID, "scope": "chat:write,commands", "state": "st-1", **extra}
    return f"{fake.authorize_url}?{urlencode(query)}"


def _code(redirect: str) -> tuple[str, str]:
    """(code, state) from the redirect URL."""
    query = parse_qs(urlsplit(redirect).query)
    return query["code"][0], query["state"][0]


def test_install_issues_a_token_of_that_team_only(teams: FakeSlack) -> None:
    redirect = teams.approve(_authorize_url(teams), "T0002")
    assert redirect.startswith(REDIRECT + "?")
    code, state = _code(redirect)
    assert state == "st-1"
    api = WebClient(base_url=teams.base_url)
    answer = api.oauth_v2_access(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=code)
    assert answer["token_type"] == "bot" and answer["access_token"].startswith("xoxb-")
    assert answer["team"] == {"id": "T0002", "name": "Second Club"}
    assert (answer["bot_user_id"], answer["app_id"]) == ("U0BOT2", teams.app_id)
    assert answer["scope"] == "chat:write,commands" and answer["authed_user"]["id"]
    assert "access_token" not in answer["authed_user"]  # no user scopes were asked for
    bot = WebClient(token=answer["access_token"], base_url=teams.base_url)
    assert bot.auth_test()["team_id"] == "T0002"
    bot.chat_postMessage(channel="C0200", text="hello second")
    assert [m["text"] for m in teams.workspace("T0002").messages("C0200")] == ["hello second"]
    assert teams.messages("C0001") == []
    # The secret went in HTTP Basic auth and is not kept in the call log.
    (call,) = teams.workspace("T0002").recorded("oauth.v2.access")
    assert "client_secret" not in call.params and call.params["code"] == code


def test_a_wrong_secret_or_a_reused_code_is_refused(teams: FakeSlack) -> None:
    code, _ = _code(teams.approve(_authorize_url(teams), "T0002"))
    api = WebClient(base_url=teams.base_url)
    with pytest.raises(SlackApiError) as wrong:
        api.oauth_v2_access(client_id=CLIENT_ID, client_secret="guess", code=code)
    assert wrong.value.response["error"] == "bad_client_secret"
    with pytest.raises(SlackApiError) as unknown:
        api.oauth_v2_access(client_id="9999.9999", client_secret=CLIENT_SECRET, code=code)
    assert unknown.value.response["error"] == "invalid_client_id"
    api.oauth_v2_access(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=code)
    with pytest.raises(SlackApiError) as reused:
        api.oauth_v2_access(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=code)
    assert reused.value.response["error"] == "invalid_code"
    assert len(teams.tokens("T0002")) == 1


def test_the_redirect_uri_must_be_the_apps(teams: FakeSlack) -> None:
    with pytest.raises(ApiError, match="bad_redirect_uri"):
        teams.approve(_authorize_url(teams, redirect_uri="https://evil.test/cb"), "T0002")
    url = _authorize_url(teams, redirect_uri=REDIRECT)
    code, _ = _code(teams.approve(url, "T0002"))
    api = WebClient(base_url=teams.base_url)
    with pytest.raises(SlackApiError) as mismatch:  # asked with one, traded without it
        api.oauth_v2_access(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=code)
    assert mismatch.value.response["error"] == "bad_redirect_uri"


def test_a_browser_get_of_authorize_redirects_with_a_code(teams: FakeSlack) -> None:
    teams.sign_in("T0002")
    parts = urlsplit(_authorize_url(teams))
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    try:
        conn.request("GET", f"{parts.path}?{parts.query}")
        response = conn.getresponse()
        response.read()
    finally:
        conn.close()
    assert response.status == 302
    code, state = _code(response.getheader("Location") or "")
    api = WebClient(base_url=teams.base_url)
    answer = api.oauth_v2_access(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=code)
    assert answer["team"]["id"] == "T0002" and state == "st-1"


def test_uninstall_revokes_that_teams_tokens_only(teams: FakeSlack) -> None:
    code, _ = _code(teams.approve(_authorize_url(teams), "T0002"))
    api = WebClient(base_url=teams.base_url)
    token = api.oauth_v2_access(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=code)[
        "access_token"
    ]
    teams.uninstall("T0002")
    with pytest.raises(SlackApiError) as revoked:
        WebClient(token=token, base_url=teams.base_url).auth_test()
    assert revoked.value.response["error"] == "token_revoked"
    assert teams.tokens("T0002") == set()
    assert teams.client().auth_test()["team_id"] == teams.team_id  # the default team carries on
