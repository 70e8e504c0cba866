"""Reading `/paperclub watch zotero connect ...`: libraries as typed or as zotero.org addresses,
collections of several words, `into`, and errors that never repeat what was typed."""

from __future__ import annotations

import pytest

from bot.ports.zotero_desk import LibraryWanted
from bot.services.zotero_text import ConnectText, ConnectTextError, read_connect, read_library

KEY = "P9NiFoyLeZu2bZNvvuQPDWsd"


@pytest.mark.parametrize(
    ("typed", "library", "collection"),
    [
        ("groups/123", LibraryWanted(kind="groups", id=123), None),
        ("/users/456", LibraryWanted(kind="users", id=456), None),
        ("Groups/7/", LibraryWanted(kind="groups", id=7), None),
        ("https://www.zotero.org/groups/123/our-lab", LibraryWanted(kind="groups", id=123), None),
        (
            "https://www.zotero.org/groups/123/our-lab/collections/ABCD2345",
            LibraryWanted(kind="groups", id=123),
            "ABCD2345",
        ),
        ("zotero.org/groups/99/items", LibraryWanted(kind="groups", id=99), None),
        ("https://api.zotero.org/users/5", LibraryWanted(kind="users", id=5), None),
        ("https://www.zotero.org/ada_l", LibraryWanted(kind="username", username="ada_l"), None),
        (
            "https://www.zotero.org/ada.l/collections/WXYZ6789",
            LibraryWanted(kind="username", username="ada.l"),
            "WXYZ6789",
        ),
    ],
)
def test_libraries_as_typed_or_as_addresses(
    typed: str, library: LibraryWanted, collection: str | None
) -> None:
    assert read_library(text=typed) == (library, collection)


@pytest.mark.parametrize(
    "typed",
    [
        "group/123",
        "123",
        "https://evil.example/groups/1",
        "https://www.zotero.org/",
        "https://www.zotero.org/settings/keys",
        "groups/12345678901234",
    ],
)
def test_what_is_no_library_is_refused(typed: str) -> None:
    with pytest.raises(ConnectTextError):
        read_library(text=typed)


def test_a_collection_of_several_words_and_where_it_goes() -> None:
    words = ["groups/1", KEY, "from", "Reading", "list", "into", "QUEUE"]
    assert read_connect(words=words) == ConnectText(
        library=LibraryWanted(kind="groups", id=1),
        api_key=KEY,
        collection="Reading list",
        into="queue",
    )
    quoted = read_connect(words=["groups/1", KEY, "from", "“Into", "the", "wild”"])
    assert (quoted.collection, quoted.into) == ("Into the wild", "tray")
    plain = read_connect(words=["users/2", KEY])
    assert (plain.collection, plain.into) == (None, "tray")
    named = read_connect(words=["groups/1", KEY, "from", "Way", "into", "Fog", "into", "tray"])
    assert (named.collection, named.into) == ("Way into Fog", "tray")
    in_url = read_connect(words=["zotero.org/groups/1/x/collections/ABCD2345", KEY])
    assert in_url.collection == "ABCD2345"


@pytest.mark.parametrize(
    "words",
    [
        [],
        ["groups/1"],
        [KEY, "groups/1"],  # the wrong way round
        ["groups/1", "not-a-key!"],
        ["groups/1", KEY, "Reading", "list"],
        ["groups/1", KEY, "from"],
        ["groups/1", KEY, "into", "queue"],
        ["groups/1", KEY, "from", "“”"],
    ],
)
def test_bad_commands_say_what_is_wrong_without_repeating_it(words: list[str]) -> None:
    with pytest.raises(ConnectTextError) as wrong:
        read_connect(words=words)
    assert KEY not in str(wrong.value)
    assert all(word not in str(wrong.value) for word in words if len(word) > 6)


def test_the_key_is_not_in_the_repr() -> None:
    assert KEY not in repr(read_connect(words=["groups/1", KEY]))
