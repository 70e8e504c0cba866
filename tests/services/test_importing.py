"""Importing drafts: new ones join the end of the queue, known ones are reported, nothing is
lost to a column's limit, and batches commit as they go."""

from __future__ import annotations

import pytest

from bot.db.database import Database
from bot.domain import PaperDraft, Rejection, WorkspaceKey
from bot.services import importing, listing
from bot.services.workspaces import WorkspaceUnknown
from tests.services.conftest import key
from tests.services.support import HOSTILE, MONDAY, follow_key

T1 = key("C1").workspace_key


def _draft(n: int, **fields: object) -> PaperDraft:
    """Draft n of list.txt, its fields as given."""
    return PaperDraft(
        title=str(fields.pop("title", f"Paper {n}")),
        abstract=f"Abstract {n}.",
        origin=f"list.txt:{n}",
        **fields,  # type: ignore[arg-type]
    )


def _titles(database: Database, workspace: WorkspaceKey = T1) -> list[str]:
    """The workspace's shared queue, in order."""
    [view] = listing.queues(uow=database, workspace=workspace, limit=100)
    return [paper.title for paper in view.papers]


def test_new_drafts_join_the_end_known_ones_are_reported(database: Database) -> None:
    first = importing.import_drafts(
        uow=database, drafts=[_draft(1), _draft(2)], now=MONDAY, workspace=T1
    )
    assert (first.added, first.known, first.rejected) == (2, 0, ())
    again = importing.import_drafts(
        uow=database,
        drafts=[_draft(3), _draft(1), _draft(4, title="paper 2")],  # 2's title, other case
        now=MONDAY,
        workspace=T1,
    )
    assert (again.added, again.known) == (2, 1)
    assert again.known_origins == ("list.txt:1",)
    assert _titles(database) == ["Paper 1", "Paper 2", "Paper 3", "paper 2"]


def test_duplicates_within_one_import_and_by_id(database: Database) -> None:
    report = importing.import_drafts(
        uow=database,
        drafts=[
            _draft(1, arxiv_id="2104.04473"),
            _draft(2, arxiv_id="2104.04473"),  # another title, the same paper
            _draft(3),
            _draft(3),
        ],
        now=MONDAY,
        workspace=T1,
    )
    assert (report.added, report.known) == (2, 2)
    assert report.known_origins == ("list.txt:2", "list.txt:3")


def test_rejections_are_reported_with_their_origin(database: Database) -> None:
    earlier = Rejection(origin="list.txt:9", reason="unreadable")
    report = importing.import_drafts(
        uow=database,
        drafts=[PaperDraft(title="  ", origin="list.txt:1"), _draft(2)],
        now=MONDAY,
        rejected=[earlier],
        workspace=T1,
    )
    assert report.added == 1
    assert report.rejected == (
        earlier,
        Rejection(origin="list.txt:1", reason="no title or abstract"),
    )


def test_over_long_fields_are_clipped_not_lost(database: Database) -> None:
    long = _draft(
        1, title="T" * 400, url="https://example.org/" + "u" * 3000, doi="10.1/" + "d" * 400
    )
    report = importing.import_drafts(uow=database, drafts=[long], now=MONDAY, workspace=T1)
    assert report.added == 1
    [record] = listing.records(uow=database, workspace=T1)
    assert len(record.paper.title) == importing.TITLE_MAX and record.paper.title.endswith("…")
    assert record.paper.url is None and record.paper.doi is None


def test_hostile_titles_are_kept_as_text(database: Database) -> None:
    drafts = [_draft(n, title=text) for n, text in enumerate(HOSTILE[:2])]
    importing.import_drafts(uow=database, drafts=drafts, now=MONDAY, workspace=T1)
    assert _titles(database) == list(HOSTILE[:2])


def test_small_batches_report_progress_and_add_everything(database: Database) -> None:
    seen: list[tuple[int, int]] = []
    report = importing.import_drafts(
        uow=database,
        drafts=[_draft(n) for n in range(7)],
        now=MONDAY,
        batch_size=3,
        progress=lambda done, total: seen.append((done, total)),
        workspace=T1,
    )
    assert report.added == 7 and seen == [(n, 7) for n in range(1, 8)]
    assert _titles(database) == [f"Paper {n}" for n in range(7)]


def test_the_workspace_is_the_only_one_unless_named(database: Database) -> None:
    importing.import_drafts(uow=database, drafts=[_draft(1)], now=MONDAY)  # new: unclaimed
    follow_key(database, key("C1"))  # T1 takes it over
    follow_key(database, key("C1", workspace="T2"))
    with pytest.raises(WorkspaceUnknown, match="say which with --workspace"):
        importing.import_drafts(uow=database, drafts=[_draft(2)], now=MONDAY)
    other = key("C1", workspace="T2").workspace_key
    importing.import_drafts(uow=database, drafts=[_draft(1)], now=MONDAY, workspace=other)
    assert _titles(database) == ["Paper 1"] and _titles(database, other) == ["Paper 1"]
