"""`/paperclub watch zotero` on the console, Slack and Discord, through each platform's real
command path to the fake Zotero: a key is checked before it is kept, kept only sealed, never
shown or logged; keys that will not do are refused with the reason; pause, resume, test and
disconnect do what they say."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import text

from bot.sealing import TokenCipher
from tests.fakezotero import FakeZotero
from tests.zotero.command_rooms import (
    GOOD,
    GROUP,
    MONDAY,
    READ_ONLY,
    READING,
    SEALING_KEY,
    USER,
    Room,
)

CONNECT = f"watch zotero connect groups/{GROUP} {GOOD} from reading list into queue"


def _hear_everything_we_log(caplog: pytest.LogCaptureFixture) -> None:
    """The bot's own loggers at DEBUG, the rest at INFO, the bot's default level (at DEBUG,
    discord.py and the Slack SDK may log whole payloads, typed commands included)."""
    caplog.set_level(logging.INFO)
    for ours in ("paperclub", "bot"):
        caplog.set_level(logging.DEBUG, logger=ours)


def _stored_keys(room: Room) -> list[str]:
    """The sealed_key column as the database holds it."""
    with room.database.engine.connect() as connection:
        rows = connection.execute(text("SELECT sealed_key FROM zotero_links"))
        return [str(row[0]) for row in rows]


def test_a_key_that_may_write_is_kept_sealed_and_never_shown(
    room: Room, caplog: pytest.LogCaptureFixture
) -> None:
    _hear_everything_we_log(caplog)
    said = room.say(CONNECT)
    assert "Connected this channel to" in said.text and f"groups/{GROUP}" in said.text
    assert "Reading List" in said.text and "queue" in said.text
    link = room.link()
    assert link is not None
    assert (link.library, link.source, link.source_name, link.into, link.paused) == (
        f"groups/{GROUP}",
        READING,
        "Reading List",
        "queue",
        False,
    )
    [sealed] = _stored_keys(room)
    assert GOOD not in sealed and sealed == link.sealed_key
    assert TokenCipher(keys=(SEALING_KEY,)).open(value=sealed) == GOOD
    status = room.say("watch zotero")
    assert "connected to" in status.text and f"groups/{GROUP}" in status.text
    assert "Reading List" in status.text and "running" in status.text
    assert "not yet" in status.text  # no sync has run
    for answer in (said, status):
        assert GOOD not in answer.text and GOOD not in str(answer.payload)
        assert answer.private
    assert GOOD not in caplog.text


def test_keys_that_will_not_do_are_refused_and_nothing_is_kept(
    room: Room, zotero: FakeZotero, caplog: pytest.LogCaptureFixture
) -> None:
    _hear_everything_we_log(caplog)
    read_only = room.say(f"watch zotero connect groups/{GROUP} {READ_ONLY}")
    assert "may read the library but not write to it" in read_only.text
    zotero.add_key(key="Rev0kedKeyRev0kedKey0000", user_id=1).revoked = True
    revoked = room.say(f"watch zotero connect groups/{GROUP} Rev0kedKeyRev0kedKey0000")
    assert "Zotero refuses that API key" in revoked.text
    unknown = room.say(f"watch zotero connect groups/{GROUP} {GOOD} from Nowhere Land")
    assert "no collection named or keyed" in unknown.text and "Nowhere Land" in unknown.text
    elsewhere = room.say(f"watch zotero connect groups/999 {GOOD}")
    assert "may not read that library" in elsewhere.text
    swapped = room.say(f"watch zotero connect {GOOD} groups/{GROUP}")
    assert "cannot be connected" in swapped.text and "groups/123" in swapped.text  # the usage
    nothing = room.say("watch zotero connect")
    assert "cannot be connected" in nothing.text
    unheard = room.say("watch zotero frobnicate")
    assert "Usage" in unheard.text
    assert room.link() is None and _stored_keys(room) == []
    answers = (read_only, revoked, unknown, elsewhere, swapped, nothing, unheard)
    for answer in answers:
        assert GOOD not in answer.text and READ_ONLY not in answer.text
    assert GOOD not in caplog.text and READ_ONLY not in caplog.text


def test_pause_resume_test_and_disconnect(room: Room, zotero: FakeZotero) -> None:
    room.say(CONNECT)
    assert "Paused syncing" in room.say("watch zotero pause").text
    paused = room.link()
    assert paused is not None and paused.paused
    assert "paused" in room.say("watch zotero").text
    listed = room.say("watch").text  # the watch list names the link too, never the key
    assert "Zotero" in listed and f"groups/{GROUP}" in listed and "paused" in listed
    assert "Reading List" in listed and GOOD not in listed
    assert "already paused" in room.say("watch zotero pause").text
    assert "Resumed syncing" in room.say("watch zotero resume").text
    link = room.link()
    assert link is not None and not link.paused
    failing_since = MONDAY - timedelta(days=2)
    room.save(
        replace(
            link,
            failures=3,
            failing_since=failing_since,
            retry_at=MONDAY + timedelta(hours=3, minutes=17),
            last_error="the API key may not do this",
            reported=True,
        )
    )
    status = room.say("watch zotero").text
    assert "Failing since" in status and "the API key may not do this" in status
    assert "Next try" in status and "11:17 UTC" in status
    tested = room.say("watch zotero test").text
    assert "The kept key works" in tested and "failing state is cleared" in tested
    cleared = room.link()
    assert cleared is not None
    assert (cleared.failures, cleared.failing_since, cleared.retry_at, cleared.last_error) == (
        0,
        None,
        None,
        "",
    )
    assert not cleared.reported and cleared.sealed_key == link.sealed_key
    assert "Next try" not in room.say("watch zotero").text
    zotero.revoke(key=GOOD)
    assert "Zotero refuses that API key" in room.say("watch zotero test").text
    gone = room.say("watch zotero disconnect").text
    assert "Disconnected from Zotero" in gone and "the key is forgotten" in gone
    assert room.link() is None and _stored_keys(room) == []
    assert "not connected to Zotero" in room.say("watch zotero").text
    assert "not connected to Zotero" in room.say("watch zotero disconnect").text
    assert "not connected to Zotero" in room.say("watch zotero test").text


def test_a_user_library_key_without_notes_access_is_refused(room: Room, zotero: FakeZotero) -> None:
    """Zotero hides a user library's notes from such a key: every note would fail later."""
    mine = f"watch zotero connect users/{USER} {GOOD}"
    zotero.grants[GOOD].notes = False
    refused = room.say(mine)
    assert "notes" in refused.text and "Allow notes access" in refused.text
    assert room.link() is None
    zotero.grants[GOOD].notes = True
    assert "Connected this channel to" in room.say(mine).text
    zotero.grants[GOOD].notes = False  # unticked on zotero.org since
    tested = room.say("watch zotero test").text
    assert "Allow notes access" in tested and "works" not in tested
