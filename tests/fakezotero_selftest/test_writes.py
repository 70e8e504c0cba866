"""The fake's writes as the docs and dataserver's tests say: the write report, write tokens,
versions on POST/PATCH/PUT/DELETE, key-based writes, limits, and the queued faults."""

from __future__ import annotations

import http.client
import json
import urllib.error

import pytest

from tests.fakezotero import TOKEN_LIFE_S, FakeZotero

from .helpers import KEY, USER, call, sample, shape

ITEMS = f"/users/{USER}/items"
TOKEN = "19a4f01ad623aa7214f82347e3711f56"  # the docs' example token


def _fake(*, clock: list[float] | None = None) -> FakeZotero:
    fake = FakeZotero(clock=(lambda: clock[0]) if clock else FakeZotero().clock)
    fake.add_key(key=KEY, user_id=USER)
    return fake


def test_a_write_report_has_the_documented_shape() -> None:
    docs = sample("docs_write_report.json")
    with _fake() as fake:
        fake.seed(
            kind="users",
            id=USER,
            objects="items",
            data=[{"key": "SAME2345", "itemType": "book", "title": "S"}],
        )
        objects = [
            {"itemType": "preprint", "title": "New"},
            {"key": "SAME2345", "version": 1},  # nothing changed
            {"key": "SAME2345", "version": 0, "title": "Clash"},
            {"title": "no type"},
        ]
        status, headers, body = call(fake.url + ITEMS, method="POST", body=objects)
    report = json.loads(body)
    assert status == 200 and set(report) == set(docs) and headers["Last-Modified-Version"] == "2"
    assert set(report["successful"]) == set(report["success"]) == {"0"}
    assert set(report["successful"]["0"]) == set(docs["successful"]["0"])
    assert report["unchanged"] == {"1": "SAME2345"}
    assert shape(report["failed"]["2"]) == shape(docs["failed"]["2"])
    assert report["failed"]["2"]["code"] == 412
    assert report["failed"]["3"]["code"] == 400


def test_a_write_token_is_used_once_per_key_for_twelve_hours() -> None:
    now = [1000.0]
    with _fake(clock=now) as fake:
        first = call(
            fake.url + ITEMS,
            method="POST",
            body=[{"itemType": "book", "title": "A"}],
            Zotero_Write_Token=TOKEN,
        )
        again = call(
            fake.url + ITEMS,
            method="POST",
            body=[{"itemType": "book", "title": "A"}],
            Zotero_Write_Token=TOKEN,
        )
        other = call(
            fake.url + ITEMS,
            method="POST",
            body=[{"itemType": "book", "title": "B"}],
            Zotero_Write_Token=TOKEN,
        )
        short = call(fake.url + ITEMS, method="POST", body=[], Zotero_Write_Token="abcd")
        now[0] += TOKEN_LIFE_S
        later = call(
            fake.url + ITEMS,
            method="POST",
            body=[{"itemType": "book", "title": "C"}],
            Zotero_Write_Token=TOKEN,
        )
        count = len(json.loads(call(fake.url + ITEMS)[2]))
    assert first[0] == 200 and (again[0], again[2]) == (412, b"Write token already used")
    assert other[0] == 412 and short[0] == 400 and later[0] == 200 and count == 2


def test_a_failed_request_does_not_store_its_token() -> None:
    with _fake() as fake:
        too_many = [{"itemType": "book", "title": str(i)} for i in range(51)]
        refused = call(fake.url + ITEMS, method="POST", body=too_many, Zotero_Write_Token=TOKEN)
        stale = call(
            fake.url + ITEMS,
            method="POST",
            body=too_many[:1],
            Zotero_Write_Token=TOKEN,
            If_Unmodified_Since_Version="7",
        )
        ok = call(
            fake.url + ITEMS,
            method="POST",
            body=too_many[:1],
            Zotero_Write_Token=TOKEN,
            If_Unmodified_Since_Version="0",
        )
    assert refused[0] == 413 and stale[0] == 412 and b"expected 7, found 0" in stale[2]
    assert ok[0] == 200 and ok[1]["Last-Modified-Version"] == "1"


def test_key_based_writes_need_the_right_version() -> None:
    with _fake() as fake:
        fake.seed(
            kind="users",
            id=USER,
            objects="items",
            data=[{"key": "HERE2345", "itemType": "book", "title": "T"}],
        )
        objects = [
            {"key": "HERE2345", "title": "no version"},
            {"key": "HERE2345", "version": 0},
            {"key": "GANE2345", "version": 5, "itemType": "book"},
            {"key": "NEWK2345", "version": 0, "itemType": "book", "title": "made with our key"},
            # A new object under a chosen key needs version 0 too (dataserver's
            # checkJSONObjectVersion: 428 for any key-based write without a version).
            {"key": "NVRS2345", "itemType": "book", "title": "no version, new key"},
        ]
        report = json.loads(call(fake.url + ITEMS, method="POST", body=objects)[2])
        # With the library's version as If-Unmodified-Since-Version, no object needs its own.
        headed = call(
            fake.url + ITEMS,
            method="POST",
            body=[{"key": "HERE2345", "title": "changed under the header"}],
            If_Unmodified_Since_Version="2",
        )
    codes = {i: f["code"] for i, f in report["failed"].items()}
    assert codes == {"0": 428, "1": 412, "2": 404, "4": 428}
    assert report["success"] == {"3": "NEWK2345"}
    assert headed[0] == 200 and json.loads(headed[2])["success"] == {"0": "HERE2345"}


@pytest.mark.parametrize("method", ["PATCH", "PUT", "DELETE"])
def test_single_object_writes_need_the_current_version(method: str) -> None:
    with _fake() as fake:
        fake.seed(
            kind="users",
            id=USER,
            objects="items",
            data=[{"key": "LNLY2345", "itemType": "book", "title": "T"}],
        )
        url = fake.url + ITEMS + "/LNLY2345"
        body = None if method == "DELETE" else {"itemType": "book", "title": "U"}
        missing = call(url, method=method, body=body)
        stale = call(url, method=method, body=body, If_Unmodified_Since_Version="0")
        done = call(url, method=method, body=body, If_Unmodified_Since_Version="1")
        nowhere = call(
            fake.url + ITEMS + "/NNNE2345",
            method=method,
            body=body,
            If_Unmodified_Since_Version="1",
        )
        after = call(url)
        deleted = call(fake.url + f"/users/{USER}/deleted?since=1")
    assert missing[0] == 428 and stale[0] == 412 and stale[1]["Last-Modified-Version"] == "1"
    assert done[0] == 204 and done[1]["Last-Modified-Version"] == "2" and nowhere[0] == 404
    if method == "DELETE":
        assert after[0] == 404 and json.loads(deleted[2])["items"] == ["LNLY2345"]
    else:
        assert json.loads(after[2])["data"]["title"] == "U" and json.loads(after[2])["version"] == 2


def test_a_note_needs_its_parent_and_an_item_a_known_collection() -> None:
    with _fake() as fake:
        objects = [
            {"key": "PRNT2345", "version": 0, "itemType": "journalArticle", "title": "P"},
            {"itemType": "note", "parentItem": "PRNT2345", "note": "<p>after its parent</p>"},
            {"itemType": "note", "parentItem": "NNNE2345", "note": "orphan"},
            {"itemType": "book", "title": "B", "collections": ["NNNE2345"]},
        ]
        report = json.loads(call(fake.url + ITEMS, method="POST", body=objects)[2])
    assert set(report["success"]) == {"0", "1"}
    assert {i: f["code"] for i, f in report["failed"].items()} == {"2": 400, "3": 409}


def test_queued_faults_answer_as_the_server_would() -> None:
    with _fake() as fake:
        fake.fail_next(status=429, retry_after=7)
        fake.backoff_next(seconds=30)
        limited = call(fake.url + ITEMS)
        backed = call(fake.url + ITEMS)
        fake.drop_next()
        with pytest.raises(
            (http.client.RemoteDisconnected, urllib.error.URLError, ConnectionError)
        ):
            call(fake.url + ITEMS, method="POST", body=[{"itemType": "book", "title": "kept"}])
        stored = json.loads(call(fake.url + ITEMS)[2])
    assert limited[0] == 429 and limited[1]["Retry-After"] == "7"
    assert backed[0] == 200 and backed[1]["Backoff"] == "30"
    assert [o["data"]["title"] for o in stored] == ["kept"]
    assert [r.status for r in fake.requests] == [429, 200, 0, 200]


def test_control_characters_are_stripped_as_dataserver_does() -> None:
    # dataserver's GeneralTest::testInvalidCharacters: "A\x00A" is stored "AA", and so on
    with _fake() as fake:
        item = {
            "itemType": "book",
            "title": "A\x00A",
            "creators": [{"creatorType": "author", "name": "B\x01B"}],
            "tags": [{"tag": "C\x02C"}],
            "abstractNote": "tab\tand\nline\r",
        }
        report = json.loads(call(fake.url + ITEMS, method="POST", body=[item])[2])
    data = report["successful"]["0"]["data"]
    assert (data["title"], data["creators"][0]["name"], data["tags"][0]["tag"]) == (
        "AA",
        "BB",
        "CC",
    )
    assert data["abstractNote"] == "tab\tand\nline"


def test_values_over_the_servers_limits_are_refused_per_object() -> None:
    with _fake() as fake:
        objects = [
            {"itemType": "book", "title": "é" * 40_000},  # 80,000 bytes
            {
                "itemType": "book",
                "title": "ok",
                "creators": [{"creatorType": "author", "name": "n" * 256}],
            },
            {"itemType": "book", "title": "ok", "tags": [{"tag": "t" * 256}]},
            {"itemType": "note", "note": "n" * 500_001},
            {"itemType": "book", "title": "é" * 30_000, "tags": [{"tag": "t" * 255}]},
        ]
        report = json.loads(call(fake.url + ITEMS, method="POST", body=objects)[2])
        long_name = call(
            fake.url + f"/users/{USER}/collections", method="POST", body=[{"name": "c" * 256}]
        )
    assert {i: f["code"] for i, f in report["failed"].items()} == {
        "0": 413,
        "1": 413,
        "2": 413,
        "3": 413,
    }
    assert set(report["success"]) == {"4"}
    assert json.loads(long_name[2])["failed"]["0"]["code"] == 413
