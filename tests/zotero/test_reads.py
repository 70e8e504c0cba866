"""The client's reads against the fake: the key check, a collection's items since a version over
every page, 304, a library changing between pages, the headers every request carries."""

from __future__ import annotations

from typing import Any

import pytest

from bot.zotero import AccessDenied, KeyRevoked, LibraryRef, Missing, ZoteroError
from tests.fakezotero import Answer, FakeZotero

from .conftest import KEY, USER, Setup, Waits, collection, make_client


def _papers(n: int, *, collection: str | None = None, start: int = 0) -> list[dict[str, Any]]:
    extra = {"collections": [collection]} if collection else {}
    return [{"itemType": "preprint", "title": f"Paper {start + i}", **extra} for i in range(n)]


def test_the_key_check_says_whose_key_and_what_it_may_do(zotero: Setup) -> None:
    zotero.fake.add_key(key="G" * 24, user_id=9, write=False, groups={42: True, 43: False})
    mine = zotero.client.check_key()
    other = zotero.client_for(key="G" * 24).check_key()
    assert (mine.user_id, mine.user_write) == (USER, True)
    assert mine.may_write(library=LibraryRef(kind="groups", id=5))  # "all" groups
    assert not other.may_write(library=LibraryRef(kind="users", id=9))
    assert other.may_write(library=LibraryRef(kind="groups", id=42))
    assert not other.may_write(library=LibraryRef(kind="groups", id=43))
    sent = zotero.fake.requests[0]
    assert sent.header("Zotero-API-Version") == "3" and sent.header("Zotero-API-Key") == KEY
    assert "PaperClub" in (sent.header("User-Agent") or "")


def test_a_revoked_key_is_its_own_error_and_a_read_only_key_another(zotero: Setup) -> None:
    zotero.fake.add_key(key="R" * 24, user_id=7, write=False)
    read_only = zotero.client_for(key="R" * 24, library=LibraryRef(kind="users", id=7))
    with pytest.raises(AccessDenied):
        read_only.create_items(items=_papers(1))
    zotero.fake.revoke(key=KEY)
    with pytest.raises(KeyRevoked):
        zotero.client.check_key()
    with pytest.raises(KeyRevoked):
        zotero.client.changed_items(since=0)
    assert not issubclass(KeyRevoked, AccessDenied) and not issubclass(AccessDenied, KeyRevoked)


def test_a_collections_items_since_a_version_over_every_page(zotero: Setup) -> None:
    key = collection(client=zotero.client, name="Reading group")
    for start in range(0, 230, 50):
        zotero.fake.seed(
            kind="users",
            id=USER,
            objects="items",
            data=_papers(50 if start < 200 else 30, collection=key, start=start),
        )
    zotero.fake.seed(kind="users", id=USER, objects="items", data=_papers(3, start=900))
    before = len(zotero.fake.requests)
    first = zotero.client.changed_items(since=0, collection=key)
    pages = len(zotero.fake.requests) - before
    again = zotero.client.changed_items(since=first.version, collection=key)
    zotero.fake.seed(
        kind="users", id=USER, objects="items", data=_papers(1, collection=key, start=500)
    )
    later = zotero.client.changed_items(since=first.version, collection=key)
    assert len({o["key"] for o in first.objects}) == 230 and pages == 3
    assert first.version == zotero.fake.library(kind="users", id=USER).version - 1
    assert again.objects == () and again.version == first.version
    assert zotero.fake.requests[-2].status == 304
    assert [o["data"]["title"] for o in later.objects] == ["Paper 500"]
    assert later.version == first.version + 1


def test_a_group_library_is_read_under_its_prefix(zotero: Setup) -> None:
    zotero.fake.seed(kind="groups", id=77, objects="items", data=_papers(2))
    group = zotero.client_for(library=LibraryRef(kind="groups", id=77))
    changes = group.changed_items(since=0)
    assert len(changes.objects) == 2 and changes.version == 1
    assert zotero.fake.requests[-1].path.startswith("/groups/77/items/top?")


class _Writer(FakeZotero):
    """A fake where another client adds an item after the first page of each of the first
    `times` listings (the library moves while it is read)."""

    times = 1

    def answer(
        self, *, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> Answer:
        answer = super().answer(method=method, path=path, query=query, headers=headers, body=body)
        if method == "GET" and "start=" not in query and self.times > 0:
            self.times -= 1
            self.seed(kind="users", id=USER, objects="items", data=_papers(1, start=700))
        return answer


def test_a_library_changing_between_pages_is_read_again_from_the_start() -> None:
    with _Writer() as fake:
        fake.add_key(key=KEY, user_id=USER)
        fake.seed(kind="users", id=USER, objects="items", data=_papers(50))
        fake.seed(kind="users", id=USER, objects="items", data=_papers(50, start=50))
        fake.seed(kind="users", id=USER, objects="items", data=_papers(50, start=100))
        client = make_client(fake=fake, waits=Waits())
        changes = client.changed_items(since=0)
        fake.times = 5
        with pytest.raises(ZoteroError, match="kept changing"):
            client.changed_items(since=0)
    assert len(changes.objects) == 151 and changes.version == 4


def test_a_link_outside_the_api_is_not_followed(zotero: Setup) -> None:
    zotero.fake.seed(kind="users", id=USER, objects="items", data=_papers(1))
    zotero.fake.answer_next(
        Answer(
            200,
            b"[]",
            {
                "Last-Modified-Version": "1",
                "Content-Type": "application/json",
                "Link": '<https://elsewhere.example/users/1/items?start=100>; rel="next"',
            },
        )
    )
    with pytest.raises(ZoteroError, match="outside the API"):
        zotero.client.changed_items(since=0)
    assert all(r.path.startswith("/users/") for r in zotero.fake.requests)


def test_a_collection_deleted_in_zotero_is_reported_missing(zotero: Setup) -> None:
    key = collection(client=zotero.client, name="#gone")
    zotero.fake.library(kind="users", id=USER).delete(kind="collections", key=key)
    with pytest.raises(Missing):
        zotero.client.changed_items(since=0, collection=key)
    assert zotero.fake.requests[-1].status == 404
