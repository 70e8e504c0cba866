"""Which workspace a Slack request is for, from every shape of payload the bot receives; the guard
and the distribution router both ask this one function."""

from __future__ import annotations

from typing import Any

import pytest

from bot.slack.workspace import enterprise_of, workspace_of
from tests.fakeslack.payloads import (
    app_home_opened_event,
    block_actions_payload,
    event_envelope_payload,
    home_block_actions_payload,
    message_event,
    slash_command_payload,
    view_submission_payload,
)

OURS = "T0OURS"
OTHER = "T0OTHER"


def test_a_slash_command_says_team_id() -> None:
    assert workspace_of(body=slash_command_payload(team_id=OURS)) == OURS


def test_a_block_action_says_team_id_in_team() -> None:
    body = block_actions_payload("paperclub_vote_up", "1", message_ts="1.000100", team_id=OURS)
    assert workspace_of(body=body) == OURS


def test_a_home_click_in_an_org_wide_install_falls_back_to_the_user() -> None:
    # In an org-wide installation Slack sends team: null; the user's team_id says it.
    body = home_block_actions_payload("paperclub_home", "x", user_id="U1", trigger_id="t")
    body = {**body, "team": None, "user": {**body["user"], "team_id": OURS}}
    assert workspace_of(body=body) == OURS


def test_a_view_submission_says_team_id_in_team() -> None:
    body = view_submission_payload(view={"id": "V1"}, values={}, user_id="U1", team_id=OURS)
    assert workspace_of(body=body) == OURS


def test_a_view_submission_without_team_falls_back_to_the_view() -> None:
    body = view_submission_payload(view={"id": "V1", "team_id": OURS}, values={}, user_id="U1")
    body = {**body, "team": None, "user": {"id": "U1"}}
    assert workspace_of(body=body) == OURS


def test_a_modal_opened_from_a_shared_channel_names_the_installing_workspace() -> None:
    view = {"id": "V1", "team_id": OTHER, "app_installed_team_id": OURS}
    body = view_submission_payload(view=view, values={}, user_id="U1", team_id=OTHER)
    assert workspace_of(body=body) == OURS


def test_an_event_with_authorizations() -> None:
    event = message_event(channel="C1", user="U1", text="hi", team=OURS)
    assert workspace_of(body=event_envelope_payload(event, team_id=OURS)) == OURS


def test_an_event_without_authorizations_says_team_id() -> None:
    event = message_event(channel="C1", user="U1", text="hi", team=OTHER)
    body = event_envelope_payload(event, team_id=OURS)
    del body["authorizations"]
    # The event's own `team` is its author's workspace, not the installation's.
    assert workspace_of(body=body) == OURS


def test_an_event_in_a_shared_channel_is_for_the_authorized_installation() -> None:
    event = message_event(channel="C1", user="U1", text="hi", team=OTHER)
    body = event_envelope_payload(event, team_id=OTHER)
    body["authorizations"] = [{**body["authorizations"][0], "team_id": OURS}]
    assert workspace_of(body=body) == OURS


def test_app_home_opened() -> None:
    body = event_envelope_payload(app_home_opened_event(user="U1"), team_id=OURS)
    assert workspace_of(body=body) == OURS


def test_the_enterprise_of_a_grid_request() -> None:
    event = message_event(channel="C1", user="U1", text="hi")
    body = event_envelope_payload(event, team_id=OURS)
    assert enterprise_of(body=body) is None
    body["authorizations"] = [{**body["authorizations"][0], "enterprise_id": "E0GRID"}]
    assert enterprise_of(body=body) == "E0GRID"
    assert enterprise_of(body={"enterprise_id": "E0GRID", "team_id": OURS}) == "E0GRID"
    assert enterprise_of(body={"enterprise": {"id": "E0GRID"}, "team": {"id": OURS}}) == "E0GRID"
    interaction = {"team": {"id": OURS, "enterprise_id": "E0GRID"}, "enterprise": None}
    assert enterprise_of(body=interaction) == "E0GRID"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"type": "url_verification", "challenge": "x"},
        {"team": [], "team_id": "", "authorizations": "no", "user": "U1", "view": 3},
        {"team": {"id": None}, "authorizations": [], "user": {"team_id": True}},
    ],
    ids=["empty", "url-verification", "wrong types", "nulls"],
)
def test_a_body_naming_no_workspace_gives_none(body: dict[str, Any]) -> None:
    assert workspace_of(body=body) is None
    assert enterprise_of(body=body) is None
