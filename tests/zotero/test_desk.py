"""The Zotero commands' desk against the fake API: what a key may do is asked of /keys/current
and the library read once; the source collection is found by name or key; keys are sealed
with PAPERCLUB_SECRET_KEY and opened again only with it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from bot.config.settings import Settings
from bot.config.sources import SourcesSettings
from bot.ports.zotero_desk import DeskRefused, KeyChecked, LibraryWanted
from bot.sealing import new_key
from bot.zotero.desk import Desk, make_desk
from bot.zotero.session import ZoteroSession
from tests.fakezotero import FakeZotero

KEY = "P9NiFoyLeZu2bZNvvuQPDWsd"
READ_ONLY = "R3adOnlyKeyR3adOnlyKey00"
GROUP_KEY = "Gr0upKeyGr0upKeyGr0upKey"
USER, GROUP, OTHER_GROUP = 123456, 4242, 5151
READING = "ABCD2345"  # the key of the group's "Reading list"


@pytest.fixture
def fake() -> Iterator[FakeZotero]:
    """USER's full key, a read-only key of theirs, and a key for one group (read/write)."""
    with FakeZotero() as zotero:
        zotero.add_key(key=KEY, user_id=USER)
        zotero.add_key(key=READ_ONLY, user_id=USER, write=False, groups={GROUP: False})
        zotero.add_key(key=GROUP_KEY, user_id=777, groups={GROUP: True})
        zotero.seed(
            kind="groups",
            id=GROUP,
            objects="collections",
            data=[{"key": READING, "name": "Reading  List"}, {"name": "<!channel> @everyone"}],
        )
        yield zotero


@pytest.fixture
def desk(fake: FakeZotero) -> Desk:
    """The desk as the wiring makes it, on the fake (its pauses not slept)."""
    settings = Settings(
        secret_keys=(new_key(),),
        zotero_api=fake.url,
        sources=SourcesSettings(allow_private=True),
    )
    made = make_desk(settings=settings)
    assert made is not None

    def quiet(api_key: str) -> ZoteroSession:
        """The wiring's session, its retry pauses recorded instead of slept."""
        return replace(made.session_for(api_key), sleep=lambda seconds: None)

    return replace(made, session_for=quiet)


def _refused(desk: Desk, *, key: str, library: LibraryWanted, collection: str | None) -> str:
    with pytest.raises(DeskRefused) as refused:
        desk.check(api_key=key, library=library, collection=collection)
    assert key not in str(refused.value)
    return refused.value.problem


def test_a_key_that_writes_the_library_is_taken_with_its_collection(desk: Desk) -> None:
    group = LibraryWanted(kind="groups", id=GROUP)
    by_name = desk.check(api_key=GROUP_KEY, library=group, collection="reading list")
    assert by_name == KeyChecked(
        library_kind="groups", library_id=GROUP, source=READING, source_name="Reading  List"
    )
    assert desk.check(api_key=GROUP_KEY, library=group, collection=READING) == by_name
    assert desk.check(api_key=GROUP_KEY, library=group, collection=READING.lower()) == by_name
    mine = desk.check(api_key=KEY, library=LibraryWanted(kind="users", id=USER), collection=None)
    assert mine == KeyChecked(library_kind="users", library_id=USER)


def test_a_profile_address_is_the_keys_own_library(desk: Desk) -> None:
    own = LibraryWanted(kind="username", username=f"USER{USER}")
    assert desk.check(api_key=KEY, library=own, collection=None).library_id == USER
    someone = LibraryWanted(kind="username", username="someone-else")
    assert _refused(desk, key=KEY, library=someone, collection=None) == "no_access"


def test_what_will_not_do_is_refused_with_its_reason(desk: Desk, fake: FakeZotero) -> None:
    group = LibraryWanted(kind="groups", id=GROUP)
    assert _refused(desk, key=READ_ONLY, library=group, collection=None) == "read_only"
    mine = LibraryWanted(kind="users", id=USER)
    assert _refused(desk, key=READ_ONLY, library=mine, collection=None) == "read_only"
    other = LibraryWanted(kind="groups", id=OTHER_GROUP)
    assert _refused(desk, key=GROUP_KEY, library=other, collection=None) == "no_access"
    theirs = LibraryWanted(kind="users", id=USER)
    assert _refused(desk, key=GROUP_KEY, library=theirs, collection=None) == "no_access"
    assert _refused(desk, key=GROUP_KEY, library=group, collection="Nope") == "no_collection"
    unknown = "Unkn0wnKeyUnkn0wnKeyUnkn"
    assert _refused(desk, key=unknown, library=group, collection=None) == "revoked"
    fake.revoke(key=GROUP_KEY)
    assert _refused(desk, key=GROUP_KEY, library=group, collection=READING) == "revoked"


def test_a_user_library_needs_notes_access_a_group_does_not(desk: Desk, fake: FakeZotero) -> None:
    """The server hides a user library's notes from a key without "Allow notes access", so
    the discussion notes could not be written; a group's Read/Write covers its notes."""
    blind = "N0tesN0tesN0tesN0tesN0te"
    fake.add_key(key=blind, user_id=USER, notes=False, groups={GROUP: True})
    mine = LibraryWanted(kind="users", id=USER)
    assert _refused(desk, key=blind, library=mine, collection=None) == "no_notes"
    group = LibraryWanted(kind="groups", id=GROUP)
    assert desk.check(api_key=blind, library=group, collection=None).library_id == GROUP


def test_zotero_down_is_unavailable_not_a_bad_key(desk: Desk, fake: FakeZotero) -> None:
    fake.fail_next(status=500, times=2)
    group = LibraryWanted(kind="groups", id=GROUP)
    assert _refused(desk, key=GROUP_KEY, library=group, collection=None) == "unavailable"
    fake.fail_next(status=429, retry_after=3600)
    assert _refused(desk, key=GROUP_KEY, library=group, collection=None) == "unavailable"


def test_the_key_goes_to_zotero_in_a_header_only(desk: Desk, fake: FakeZotero) -> None:
    group = LibraryWanted(kind="groups", id=GROUP)
    assert desk.check(api_key=GROUP_KEY, library=group, collection=READING).source == READING
    assert fake.requests
    for request in fake.requests:
        assert GROUP_KEY not in request.path
        assert request.header("Zotero-API-Key") == GROUP_KEY


def test_keys_are_sealed_and_open_only_with_the_secret(fake: FakeZotero) -> None:
    old, new = new_key(), new_key()
    before = make_desk(settings=Settings(secret_keys=(old,), zotero_api=fake.url))
    rotated = make_desk(settings=Settings(secret_keys=(new, old), zotero_api=fake.url))
    stranger = make_desk(settings=Settings(secret_keys=(new,), zotero_api=fake.url))
    assert before is not None and rotated is not None and stranger is not None
    sealed = before.seal(api_key=GROUP_KEY)
    assert GROUP_KEY not in sealed and sealed != before.seal(api_key=GROUP_KEY)  # fresh IVs
    assert before.open(sealed_key=sealed) == GROUP_KEY
    assert rotated.open(sealed_key=sealed) == GROUP_KEY
    with pytest.raises(DeskRefused) as refused:
        stranger.open(sealed_key=sealed)
    assert refused.value.problem == "unreadable"


def test_no_secret_no_desk() -> None:
    assert make_desk(settings=Settings()) is None
