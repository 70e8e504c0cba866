"""Requests for another team or another app, over Socket Mode and HTTP: each is acknowledged,
logged and ignored; nothing of it is stored, scheduled or answered."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import MetaData, select

from bot.slack import ids
from tests.fakeslack import (
    block_actions_payload,
    command_body,
    event_body,
    event_envelope_payload,
    interactive_body,
    message_event,
    reaction_event,
    slash_command_payload,
)
from tests.slack.conftest import CHANNEL, MEMBER, Harness

OTHER_TEAM = {"team_id": "T0OTHER"}
OTHER_APP = {"api_app_id": "A0OTHER"}


def _snapshot(harness: Harness) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, so any write at all shows as a difference."""
    meta = MetaData()
    meta.reflect(bind=harness.bot.database.engine)
    with harness.bot.database.engine.connect() as conn:
        return {
            name: sorted(map(tuple, conn.execute(select(table))), key=repr)
            for name, table in meta.tables.items()
        }


def _deliver(harness: Harness, kind: str, payload: dict[str, Any]) -> None:
    """Send one request as this mode does and wait for its acknowledgement."""
    if harness.mode == "socket":
        socket_type = {"event": "events_api", "command": "slash_commands"}.get(kind, "interactive")
        harness.fake.wait_ack(harness.fake.push(socket_type, payload))
        return
    body = {"event": event_body, "command": command_body}.get(kind, interactive_body)(payload)
    status, _ = harness.post(body)
    assert status == 200


@pytest.mark.parametrize("foreign", [OTHER_TEAM, OTHER_APP], ids=["other-team", "other-app"])
def test_foreign_requests_store_and_answer_nothing(
    harness: Harness, foreign: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    ts, value = harness.daily_post()
    before = _snapshot(harness)
    updates = len(harness.fake.calls("chat.update"))
    url = harness.fake.new_response_url()
    team = foreign.get("team_id", "T0001")
    events = [
        message_event(channel=CHANNEL, user=MEMBER, text="forged", thread_ts=ts, team=team),
        reaction_event(user=MEMBER, reaction="+1", channel=CHANNEL, item_ts=ts),
    ]
    with caplog.at_level(logging.WARNING, logger="bot.slack.listeners.guard"):
        for event in events:
            _deliver(harness, "event", event_envelope_payload(event, **foreign))
        _deliver(
            harness,
            "click",
            block_actions_payload(
                ids.VOTE_UP, value, user_id=MEMBER, message_ts=ts, response_url=url, **foreign
            ),
        )
        for text in ("schedule C0NEW 08:00", "add https://example.org/forged Forged", "skip"):
            payload = slash_command_payload(
                text=text, user_id=MEMBER, response_url=url, channel_id="C0NEW", **foreign
            )
            _deliver(harness, "command", payload)
    assert _snapshot(harness) == before
    assert harness.fake.responses(url) == []
    assert len(harness.fake.calls("chat.update")) == updates
    assert harness.fake.calls("chat.postEphemeral") == []
    ignored = [r for r in caplog.records if r.getMessage().startswith("ignored a")]
    assert len(ignored) == 6, [r.getMessage() for r in caplog.records]
    assert all(f"team {team}," in r.getMessage() for r in ignored)
