"""`/paperclub watch zotero` guarded: members see the link and change nothing; collection names
written to hurt a chat stay words; without PAPERCLUB_SECRET_KEY nothing is asked of Zotero, the
answer says how to make one, and a link kept from before can still be paused and disconnected;
connecting the same library again keeps its place."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

import pytest

from bot.ports.zotero import ZoteroLink
from tests.fakezotero import FakeZotero
from tests.zotero.command_rooms import (
    GOOD,
    GROUP,
    HOSTILE,
    HOSTILE_NAME,
    MONDAY,
    OTHER_GROUP,
    READING,
    ROOMS,
    SEALING_KEY,
    Room,
    console_room,
)

CONNECT = f"watch zotero connect groups/{GROUP} {GOOD}"


@pytest.fixture(params=("slack", "discord"))
def crowd(request: pytest.FixtureRequest, zotero: FakeZotero, sqlite_url: str) -> Iterator[Room]:
    """A platform where someone who is no admin can type."""
    with ROOMS[request.param](url=sqlite_url, zotero_url=zotero.url, secret=SEALING_KEY) as made:
        yield made


@pytest.fixture
def console(zotero: FakeZotero, sqlite_url: str) -> Iterator[Room]:
    with console_room(url=sqlite_url, zotero_url=zotero.url, secret=SEALING_KEY) as made:
        yield made


def test_members_see_the_link_and_change_nothing(crowd: Room, zotero: FakeZotero) -> None:
    refused = crowd.say(CONNECT, member=True)
    assert "Only admins connect" in refused.text and GOOD not in refused.text
    assert crowd.link() is None and zotero.requests == []  # the key was not even tried
    assert "not connected to Zotero" in crowd.say("watch zotero", member=True).text
    crowd.say(CONNECT)
    for verb in ("pause", "test", "disconnect", "resume"):
        assert "Only admins" in crowd.say(f"watch zotero {verb}", member=True).text
    link = crowd.link()
    assert link is not None and not link.paused
    seen = crowd.say("watch zotero", member=True).text
    assert f"groups/{GROUP}" in seen and "running" in seen and GOOD not in seen


def test_hostile_collection_names_stay_words(room: Room) -> None:
    said = room.say(f"watch zotero connect groups/{GROUP} {GOOD} from {HOSTILE_NAME}")
    assert "Connected" in said.text
    link = room.link()
    assert link is not None and (link.source, link.source_name) == (HOSTILE, HOSTILE_NAME)
    assert said.harmful(typed=HOSTILE_NAME) == []
    status = room.say("watch zotero")
    assert status.harmful(typed=HOSTILE_NAME) == []
    missing = "<@U0ADMIN> @here <#C0001> nowhere"
    unknown = room.say(f"watch zotero connect groups/{GROUP} {GOOD} from {missing}")
    assert "no collection named or keyed" in unknown.text
    assert unknown.harmful(typed=missing) == []
    error = "<!channel> the API key may not do this"
    room.save(replace(link, failing_since=MONDAY, failures=1, last_error=error))
    assert room.say("watch zotero").harmful(typed=error) == []


def test_without_a_secret_nothing_is_asked_and_the_answer_says_how(
    zotero: FakeZotero, sqlite_url: str
) -> None:
    with console_room(url=sqlite_url, zotero_url=zotero.url, secret=None) as bare:
        said = bare.say(CONNECT).text
        assert "PAPERCLUB_SECRET_KEY" in said and "paperclub secrets new-key" in said
        assert GOOD not in said
        assert "paperclub secrets new-key" in bare.say("watch zotero").text
        assert "paperclub secrets new-key" in bare.say("watch zotero test").text
        assert bare.link() is None
        kept = ZoteroLink(
            channel=bare.key,
            library_kind="groups",
            library_id=GROUP,
            sealed_key="fernet:sealed-when-the-secret-was-set",
            connected_by="someone",
            connected_at=MONDAY,
        )
        bare.save(kept)  # connected before the secret was dropped
        status = bare.say("watch zotero").text
        assert f"groups/{GROUP}" in status and "paperclub secrets new-key" in status
        assert "Paused" in bare.say("watch zotero pause").text
        assert "Disconnected" in bare.say("watch zotero disconnect").text
        assert bare.link() is None
    assert zotero.requests == []


def test_connecting_the_same_library_again_keeps_its_place(console: Room) -> None:
    console.say(f"{CONNECT} from {READING}")
    first = console.link()
    assert first is not None
    synced = first.connected_at + timedelta(hours=1)
    console.save(
        replace(
            first,
            source_version=41,
            destination="DEST2345",
            synced_at=synced,
            failures=2,
            failing_since=synced,
            last_error="busy",
        )
    )
    again = console.say(f"{CONNECT} from Reading List")
    assert "Connected again" in again.text
    kept = console.link()
    assert kept is not None
    assert (kept.source_version, kept.destination, kept.synced_at) == (41, "DEST2345", synced)
    assert (kept.failures, kept.failing_since, kept.last_error) == (0, None, "")
    assert kept.sealed_key != first.sealed_key  # sealed anew (a fresh IV)
    console.say(f"{CONNECT} from {HOSTILE}")
    other_source = console.link()
    assert other_source is not None
    assert (other_source.source, other_source.source_version) == (HOSTILE, 0)
    assert other_source.destination == "DEST2345"
    console.say(f"watch zotero connect groups/{OTHER_GROUP} {GOOD}")
    elsewhere = console.link()
    assert elsewhere is not None and elsewhere.library == f"groups/{OTHER_GROUP}"
    assert (elsewhere.destination, elsewhere.source, elsewhere.synced_at) == (None, None, None)


def test_a_paused_link_connected_again_runs(console: Room) -> None:
    console.say(CONNECT)
    console.say("watch zotero pause")
    console.say(CONNECT)
    link = console.link()
    assert link is not None and not link.paused
