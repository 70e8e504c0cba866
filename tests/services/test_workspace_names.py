"""Which workspace a command means (services/workspaces.py): named, or the only one, or the
unclaimed archive on a new install. (test_workspaces.py covers keeping workspaces apart.)"""

from __future__ import annotations

import pytest

from bot.db.database import Database
from bot.domain import LOCAL, WorkspaceKey
from bot.services.workspaces import WorkspaceUnknown, parse_workspace, resolve
from tests.services.conftest import follow, key, load_sample
from tests.services.support import follow_key

T1 = WorkspaceKey(platform="slack", id="T1")


@pytest.mark.parametrize(
    ("text", "workspace"),
    [
        ("slack:T01", WorkspaceKey(platform="slack", id="T01")),
        ("  Discord:123 ", WorkspaceKey(platform="discord", id="123")),
        ("console", WorkspaceKey(platform="console", id="")),
        ("local", LOCAL),
        ("LOCAL", LOCAL),
    ],
)
def test_parse_workspace(text: str, workspace: WorkspaceKey) -> None:
    assert parse_workspace(text=text) == workspace


@pytest.mark.parametrize("text", ["", "   ", ":T01", "slack:T 01", "slack:\tT1", "x" * 30 + " y"])
def test_parse_workspace_refuses_what_is_no_workspace(text: str) -> None:
    with pytest.raises(WorkspaceUnknown, match="is not a workspace"):
        parse_workspace(text=text)


def test_a_new_archive_is_the_unclaimed_one(database: Database) -> None:
    assert resolve(uow=database, named=None) == LOCAL
    assert resolve(uow=database, named="local") == LOCAL
    with pytest.raises(WorkspaceUnknown, match="The archive has none yet"):
        resolve(uow=database, named="slack:T1")
    # An import may fill a workspace before it first starts.
    assert resolve(uow=database, named="slack:T1", new=True) == T1


def test_the_only_workspace_is_meant_when_none_is_named(database: Database) -> None:
    load_sample(database)
    follow(database)  # slack:T1 takes the unclaimed archive over
    assert resolve(uow=database, named=None) == T1
    assert resolve(uow=database, named="slack:T1") == T1
    with pytest.raises(WorkspaceUnknown, match=r"There is no workspace local\. Choose one of"):
        resolve(uow=database, named="local")


def test_several_workspaces_must_be_named(database: Database) -> None:
    follow(database)
    follow_key(database, key("C1", workspace="T2"))
    with pytest.raises(WorkspaceUnknown) as raised:
        resolve(uow=database, named=None)
    said = str(raised.value)
    assert "holds 2 workspaces" in said and "slack:T1, slack:T2" in said
    assert resolve(uow=database, named="slack:T2") == WorkspaceKey(platform="slack", id="T2")
