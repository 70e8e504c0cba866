"""The client's writes against the fake: collections found or made once, items and child notes
created once (a dropped answer, a crash and a lost token included), updates and deletes under a
version with one re-read on 412."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bot.zotero import VersionConflict, WriteFailed, new_object_key, new_write_token
from tests.fakezotero import Answer, FakeZotero

from .conftest import KEY, USER, Setup, Waits, collection, make_client


def _paper(title: str = "A paper", **more: Any) -> dict[str, Any]:
    return {"itemType": "preprint", "title": title, **more}


def test_a_collection_is_made_once_under_its_key(zotero: Setup) -> None:
    key, other = new_object_key(), new_object_key()
    assert zotero.client.make_collection(key=key, name="#journal-club")
    assert zotero.client.make_collection(key=key, name="#journal-club")  # a replay: found
    assert zotero.client.make_collection(key=other, name="#journal-club")  # another channel's
    stored = zotero.fake.library(kind="users", id=USER).live(kind="collections")
    assert sorted(c["key"] for c in stored) == sorted([key, other])
    assert {c["name"] for c in stored} == {"#journal-club"}


def test_two_replicas_make_one_collection() -> None:
    with FakeZotero() as fake:
        fake.add_key(key=KEY, user_id=USER)
        start = threading.Barrier(2)
        made: list[bool] = []
        key = new_object_key()

        def replica() -> None:
            client = make_client(fake=fake, waits=Waits())
            start.wait()
            made.append(client.make_collection(key=key, name="#papers"))

        threads = [threading.Thread(target=replica) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stored = fake.library(kind="users", id=USER).live(kind="collections")
    assert made == [True, True] and [c["key"] for c in stored] == [key]


def test_a_replay_the_token_check_let_through_finds_the_collection(zotero: Setup) -> None:
    key = new_object_key()
    assert zotero.client.make_collection(key=key, name="#papers")
    zotero.fake.forget_write_tokens()  # the second request started before the first committed
    assert zotero.client.make_collection(key=key, name="#papers")
    # Its object refused (the key taken, 428), then looked up by key.
    replay, look_up = zotero.fake.requests[-2:]
    assert (replay.method, replay.status, look_up.method) == ("POST", 200, "GET")
    assert look_up.path == f"/users/{USER}/collections/{key}"
    stored = zotero.fake.library(kind="users", id=USER).live(kind="collections")
    assert [c["key"] for c in stored] == [key]


def test_a_collection_deleted_by_its_owner_is_not_there_under_its_key(zotero: Setup) -> None:
    first = collection(client=zotero.client, name="#papers")
    library = zotero.fake.library(kind="users", id=USER)
    library.delete(kind="collections", key=first)
    assert zotero.client.make_collection(key=first, name="#papers") is False
    assert library.live(kind="collections") == []


def test_a_collection_in_the_trash_is_not_there(zotero: Setup) -> None:
    first = collection(client=zotero.client, name="#papers")
    library = zotero.fake.library(kind="users", id=USER)
    assert zotero.client.has_collection(key=first)
    library.replace(kind="collections", key=first, data={"deleted": True}, patch=True)
    assert not zotero.client.has_collection(key=first)  # trashed in Zotero 7: out of sight


def test_an_item_and_its_note_are_created_in_one_write(zotero: Setup) -> None:
    into = collection(client=zotero.client, name="#papers")
    parent = new_object_key()
    created = zotero.client.create_items(
        items=[
            _paper(key=parent, collections=[into], tags=[{"tag": "2024-05-01"}]),
            {"itemType": "note", "parentItem": parent, "note": "<p>Said</p>"},
            {"itemType": "note", "parentItem": "NNNN2345", "note": "orphan"},
        ]
    )
    stored = zotero.fake.library(kind="users", id=USER).get(kind="items", key=parent)
    assert created.keys[0] == parent and set(created.keys) == {0, 1}
    assert created.failed[2][0] == 400 and created.version == 2
    assert stored is not None and stored["collections"] == [into]
    assert zotero.titles() == ["A paper", f"note:{parent}"]
    post = next(r for r in zotero.fake.requests if r.method == "POST" and "/items" in r.path)
    assert len(post.header("Zotero-Write-Token") or "") == 32


def test_more_than_fifty_items_are_refused_before_sending(zotero: Setup) -> None:
    with pytest.raises(ValueError, match="50"):
        zotero.client.create_items(items=[_paper(str(i)) for i in range(51)])
    assert zotero.fake.requests == []


def test_a_create_whose_answer_is_lost_is_not_doubled(zotero: Setup) -> None:
    zotero.fake.drop_next()
    created = zotero.client.create_items(items=[_paper("Once"), _paper("Twice?")])
    posts = [r for r in zotero.fake.requests if r.method == "POST"]
    assert zotero.titles() == ["Once", "Twice?"] and sorted(created.keys) == [0, 1]
    assert [p.status for p in posts] == [0, 412] and created.failed == {}
    assert created.found == frozenset({0, 1}) and zotero.waits.slept == [1.0]


def test_a_create_replayed_after_a_crash_with_the_kept_token_is_not_doubled(zotero: Setup) -> None:
    items = [_paper("Kept", key=new_object_key())]
    token = new_write_token()
    zotero.fake.drop_next()  # the first run dies here: stored, never answered
    with pytest.raises(Exception):
        zotero.client_for().session.send(
            method="POST",
            url=zotero.fake.url + f"/users/{USER}/items",
            headers={"Zotero-Write-Token": token},
            payload=[{**items[0], "version": 0}],  # as create_items sends a chosen key
            replay=False,
        )
    resumed = zotero.client_for().create_items(items=items, token=token)
    lost_token = zotero.client_for().create_items(items=items)  # the token was not kept
    assert zotero.titles() == ["Kept"]
    assert resumed.keys == lost_token.keys == {0: items[0]["key"]}
    assert resumed.failed == lost_token.failed == {}
    # Both found by look-up (412 for the token, 428 for the key), at the object's own version.
    assert resumed.found == lost_token.found == frozenset({0})
    assert resumed.versions == lost_token.versions == {0: 1}


def test_an_update_on_a_stale_version_rereads_and_keeps_the_owners_edit(zotero: Setup) -> None:
    created = zotero.client.create_items(items=[_paper("Ours", abstractNote="old")])
    key = created.keys[0]
    other = zotero.client_for()
    changed = other.update_item(
        key=key, changes={"title": "Owner's title"}, version=created.version
    )
    version = zotero.client.update_item(
        key=key, changes={"abstractNote": "new"}, version=created.version
    )
    stored = zotero.fake.library(kind="users", id=USER).get(kind="items", key=key)
    assert stored is not None and (stored["title"], stored["abstractNote"]) == (
        "Owner's title",
        "new",
    )
    assert version == changed + 1 == stored["version"]
    patches = [r for r in zotero.fake.requests if r.method == "PATCH"]
    assert [p.status for p in patches] == [204, 412, 204]


def test_a_note_deleted_by_its_owner_is_reported_not_recreated(zotero: Setup) -> None:
    created = zotero.client.create_items(items=[_paper()])
    zotero.client.delete_item(key=created.keys[0], version=created.version)
    with pytest.raises(WriteFailed) as failed:
        zotero.client.update_item(key=created.keys[0], changes={"title": "x"}, version=1)
    assert failed.value.status == 404 and zotero.titles() == []


class _Meddler(FakeZotero):
    """A fake where someone edits the item just before each PATCH or DELETE arrives."""

    def answer(
        self, *, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> Answer:
        if method in ("PATCH", "DELETE"):
            library = self.library(kind="users", id=USER)
            key = path.rsplit("/", 1)[1]
            library.replace(
                kind="items", key=key, data={"title": f"edit {library.version}"}, patch=True
            )
        return super().answer(method=method, path=path, query=query, headers=headers, body=body)


def test_an_object_that_keeps_changing_is_a_version_conflict() -> None:
    with _Meddler() as fake:
        fake.add_key(key=KEY, user_id=USER)
        client = make_client(fake=fake, waits=Waits())
        created = client.create_items(items=[_paper()])
        with pytest.raises(VersionConflict):
            client.update_item(key=created.keys[0], changes={"abstractNote": "x"}, version=1)
        with pytest.raises(VersionConflict):
            client.delete_item(key=created.keys[0], version=created.version)
    assert [r.status for r in fake.requests if r.method == "PATCH"] == [412, 412]


def test_a_patch_whose_answer_is_lost_is_applied_once(zotero: Setup) -> None:
    created = zotero.client.create_items(items=[_paper()])
    key = created.keys[0]
    zotero.fake.drop_next()
    version = zotero.client.update_item(key=key, changes={"abstractNote": "new"}, version=1)
    stored = zotero.fake.library(kind="users", id=USER).get(kind="items", key=key)
    assert stored is not None and stored["abstractNote"] == "new" and version == stored["version"]
    assert [r.status for r in zotero.fake.requests if r.method == "PATCH"] == [0, 412, 204]


def test_deletes_survive_a_stale_version_a_lost_answer_and_a_repeat(zotero: Setup) -> None:
    created = zotero.client.create_items(items=[_paper("One"), _paper("Two")])
    zotero.client.update_item(key=created.keys[0], changes={"title": "One!"}, version=1)
    zotero.client.delete_item(key=created.keys[0], version=1)  # stale: re-read, then deleted
    zotero.fake.drop_next()
    zotero.client.delete_item(key=created.keys[1], version=1)  # lost answer: replay finds none
    zotero.client.delete_item(key=created.keys[1], version=1)  # again: nothing to do
    deletes = [r.status for r in zotero.fake.requests if r.method == "DELETE"]
    assert zotero.titles() == [] and deletes == [412, 204, 0, 404, 404]


def test_the_key_goes_only_to_the_apis_own_urls(zotero: Setup) -> None:
    sent = zotero.client.session
    assert sent.owns(url=zotero.fake.url + "/users/1/items")
    assert not sent.owns(url="https://elsewhere.example/users/1/items")
    assert not sent.owns(url=zotero.fake.url + ".evil.example/users/1/items")


def test_deletions_since_a_version_are_listed(zotero: Setup) -> None:
    created = zotero.client.create_items(items=[_paper("One"), _paper("Two")])
    zotero.client.delete_item(key=created.keys[1], version=created.version)
    keys, version = zotero.client.deleted_items(since=created.version)
    none, _ = zotero.client.deleted_items(since=version)
    assert keys == (created.keys[1],) and version == created.version + 1 and none == ()


def test_a_replayed_create_reports_the_library_version(zotero: Setup) -> None:
    zotero.fake.drop_next()
    created = zotero.client.create_items(items=[_paper("Once")])
    assert created.version == zotero.fake.library(kind="users", id=USER).version == 1
