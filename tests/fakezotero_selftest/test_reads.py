"""The fake's reads against the samples: envelopes, /keys/current, format=versions, paging with
Total-Results and Link, since and If-Modified-Since-Version, authentication."""

from __future__ import annotations

import json
import re

from tests.fakezotero import FakeZotero

from .helpers import KEY, USER, call, sample, shape

PREFIX = f"/users/{USER}"


def _fake_with() -> FakeZotero:
    """A fake with the docs' key for USER's library."""
    fake = FakeZotero()
    fake.add_key(key=KEY, user_id=USER)
    return fake


def _links(header: str) -> dict[str, str]:
    return {rel: url for url, rel in re.findall(r'<([^>]*)>; rel="(\w+)"', header)}


def test_an_item_has_the_envelope_of_the_real_answer() -> None:
    real = sample("pyzotero_item_doc.json")
    docs = sample("docs_webpage_data.json")
    with _fake_with() as fake:
        given = {k: v for k, v in docs.items() if k not in ("key", "version")}
        fake.seed(kind="users", id=USER, objects="items", data=[given])
        status, headers, body = call(fake.url + PREFIX + "/items")
    got = json.loads(body)[0]
    assert status == 200 and headers["Zotero-API-Version"] == "3"
    assert set(got) == set(real) and set(got["library"]) == set(real["library"])
    assert set(got["links"]) == {"self", "alternate"} == set(real["links"])
    assert shape(got["library"]) == shape(real["library"])
    assert set(got["meta"]) <= set(real["meta"]) and "numChildren" in got["meta"]
    assert set(got["data"]) == set(docs)  # every documented field, dateAdded etc. filled in
    assert {k: got["data"][k] for k in given if k not in ("dateAdded", "dateModified")} == {
        k: v for k, v in given.items() if k not in ("dateAdded", "dateModified")
    }
    assert got["key"] == got["data"]["key"] and got["version"] == got["data"]["version"] == 1


def test_a_collection_and_versions_have_the_real_shapes() -> None:
    real = sample("pyzotero_collection_doc.json")
    with _fake_with() as fake:
        fake.seed(kind="users", id=USER, objects="collections", data=[{"name": "LoC"}])
        _, headers, body = call(fake.url + PREFIX + "/collections")
        _, _, versions = call(fake.url + PREFIX + "/collections?format=versions")
    got = json.loads(body)[0]
    assert set(got) == set(real) and set(got["data"]) == set(real["data"])
    assert set(got["meta"]) == set(real["meta"]) and got["data"]["parentCollection"] is False
    assert shape(json.loads(versions)) == {got["key"]: "int"}
    assert shape(sample("pyzotero_collection_versions.json")).popitem()[1] == "int"
    assert headers["Last-Modified-Version"] == "1"


def test_keys_current_answers_as_documented_and_refuses_a_revoked_key() -> None:
    docs = sample("docs_key_current.json")
    with _fake_with() as fake:
        status, _, body = call(fake.url + "/keys/current")
        fake.revoke(key=KEY)
        revoked = call(fake.url + "/keys/current")
        listing = call(fake.url + PREFIX + "/items")
    assert status == 200 and shape(json.loads(body)) == shape(docs)
    assert json.loads(body)["userID"] == USER
    assert revoked[0] == listing[0] == 403 and listing[2] == b"Invalid key"


def test_a_key_without_notes_access_is_shown_no_note_of_the_users_library() -> None:
    """As dataserver: /keys/current leaves `notes` out, listings leave the notes out, and one
    note is 404 whatever the method; a group's access covers its notes."""
    blind = "N0tesN0tesN0tesN0tesN0te"
    with _fake_with() as fake:
        fake.add_key(key=blind, user_id=USER, notes=False, groups={9: True})
        for kind, lib in (("users", USER), ("groups", 9)):
            fake.seed(
                kind=kind, id=lib, objects="items", data=[{"itemType": "book", "key": "BKBK2345"}]
            )
            fake.seed(
                kind=kind,
                id=lib,
                objects="items",
                data=[
                    {"itemType": "note", "key": "NTNT2345", "parentItem": "BKBK2345", "note": "x"}
                ],
            )
        access = json.loads(call(fake.url + "/keys/current", key=blind)[2])["access"]
        listed = json.loads(call(fake.url + PREFIX + "/items", key=blind)[2])
        children = json.loads(call(fake.url + PREFIX + "/items/BKBK2345/children", key=blind)[2])
        one = call(fake.url + PREFIX + "/items/NTNT2345", key=blind)
        patch = call(
            fake.url + PREFIX + "/items/NTNT2345",
            method="PATCH",
            body={"note": "y"},
            key=blind,
            If_Unmodified_Since_Version="2",
        )
        group = json.loads(call(fake.url + "/groups/9/items", key=blind)[2])
        owner = json.loads(call(fake.url + PREFIX + "/items")[2])
    assert "notes" not in access["user"] and access["user"]["library"] is True
    assert [o["key"] for o in listed] == ["BKBK2345"] and children == []
    assert one[0] == patch[0] == 404
    assert (
        sorted(o["key"] for o in group)
        == sorted(o["key"] for o in owner)
        == [
            "BKBK2345",
            "NTNT2345",
        ]
    )


def test_authentication_by_header_bearer_and_nothing() -> None:
    with _fake_with() as fake:
        read_only = "R" * 24
        fake.add_key(key=read_only, user_id=7, write=False)
        bearer = call(fake.url + PREFIX + "/items", key=None, Authorization=f"Bearer {KEY}")
        anonymous = call(fake.url + PREFIX + "/items", key=None)
        elsewhere = call(fake.url + "/users/7/items")
        write = call(fake.url + "/users/7/items", method="POST", body=[{}], key=read_only)
    assert bearer[0] == 200 and anonymous[0] == 403 and elsewhere[0] == 403
    assert write[0] == 403 and write[2] == b"Write access denied"


def test_paging_by_limit_with_total_results_and_link_headers() -> None:
    with _fake_with() as fake:
        data = [{"itemType": "preprint", "title": f"Paper {i}"} for i in range(230)]
        for start in range(0, 230, 50):
            fake.seed(kind="users", id=USER, objects="items", data=data[start : start + 50])
        first = call(fake.url + PREFIX + "/items?limit=100")
        links = _links(first[1]["Link"])
        second = call(links["next"])
        second_links = _links(second[1]["Link"])
        last = call(links["last"])
        capped = call(fake.url + PREFIX + "/items?limit=500")
        default = call(fake.url + PREFIX + "/items")
    assert first[1]["Total-Results"] == "230" and len(json.loads(first[2])) == 100
    assert links["next"].endswith("start=100") and links["last"].endswith("start=200")
    assert links["alternate"].startswith("https://www.zotero.org/") and "first" not in links
    assert {"first", "prev", "next", "last"} <= set(second_links)
    assert len(json.loads(last[2])) == 30 and "next" not in _links(last[1]["Link"])
    assert len(json.loads(capped[2])) == 100 and len(json.loads(default[2])) == 25
    keys = [o["key"] for page in (first, second, last) for o in json.loads(page[2])]
    assert len(set(keys)) == 230


def test_since_and_if_modified_since_version() -> None:
    with _fake_with() as fake:
        v1 = fake.seed(
            kind="users", id=USER, objects="items", data=[{"itemType": "book", "title": "A"}]
        )
        v2 = fake.seed(
            kind="users", id=USER, objects="items", data=[{"itemType": "book", "title": "B"}]
        )
        since = call(fake.url + PREFIX + f"/items?since={v1}")
        not_modified = call(fake.url + PREFIX + "/items", If_Modified_Since_Version=str(v2))
        modified = call(fake.url + PREFIX + "/items", If_Modified_Since_Version=str(v1))
        versions = call(fake.url + PREFIX + "/items?format=versions&since=0")
    assert [o["data"]["title"] for o in json.loads(since[2])] == ["B"]
    assert since[1]["Last-Modified-Version"] == str(v2) == "2"
    assert not_modified[0] == 304 and not_modified[1]["Last-Modified-Version"] == "2"
    assert modified[0] == 200 and sorted(json.loads(versions[2]).values()) == [1, 2]


def test_a_collections_items_and_an_items_children() -> None:
    with _fake_with() as fake:
        fake.seed(
            kind="users", id=USER, objects="collections", data=[{"key": "CLLX2345", "name": "C"}]
        )
        fake.seed(
            kind="users",
            id=USER,
            objects="items",
            data=[
                {"key": "ITEM2345", "itemType": "book", "title": "In", "collections": ["CLLX2345"]},
                {"key": "UTTS2345", "itemType": "book", "title": "Out"},
            ],
        )
        fake.seed(
            kind="users",
            id=USER,
            objects="items",
            data=[
                {
                    "key": "NTTE2345",
                    "itemType": "note",
                    "parentItem": "ITEM2345",
                    "note": "<p>x</p>",
                }
            ],
        )
        inside = call(fake.url + PREFIX + "/collections/CLLX2345/items/top")
        children = call(fake.url + PREFIX + "/items/ITEM2345/children")
        parent = call(fake.url + PREFIX + "/items/ITEM2345")
    assert [o["key"] for o in json.loads(inside[2])] == ["ITEM2345"]
    note = json.loads(children[2])[0]
    assert note["data"]["parentItem"] == "ITEM2345" and "collections" not in note["data"]
    assert note["links"]["up"]["href"].endswith("/items/ITEM2345")
    assert json.loads(parent[2])["meta"]["numChildren"] == 1
    assert parent[1]["Last-Modified-Version"] == "2"  # the item's own version
