"""Smoke test of the Discord event-ingestion benchmark: a short run stores exactly what the mix
says, its check catches an archive that differs, and its mix keeps the rules it relies on."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from bench import discord_events as bench
from bench.event_mix import Action
from bench.events import template
from bench.targets import judged
from bot.db.database import Database


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's migrated SQLite file with the sample reading list, made once."""
    return template(folder=tmp_path_factory.mktemp("discord-bench"))


@pytest.fixture
def database(source: Path, tmp_path: Path) -> Iterator[Database]:
    """A copy of it for one test."""
    path = shutil.copyfile(source, tmp_path / "run.db")
    db = Database(url=f"sqlite:///{path}")
    yield db
    db.dispose()


def test_short_run_matches_the_mix_and_is_judged_as_event_ingestion() -> None:
    [row] = bench.run(events=40, repeats=1)
    assert row["counts_match"], row["check"]
    assert row["median"] > 0 and row["baseline_median"] > 0 and row["ratio"] > 0
    assert row["min"] <= row["median"] <= row["max"] and row["events"] == 40
    assert judged(row=row)["target"] == "≥ 0.3x"  # the "event ingestion" prefix, like Slack's


def test_the_check_catches_a_wrong_vote_a_lost_vote_and_a_wrong_comment(
    database: Database,
) -> None:
    mix = bench.make_mix(rounds=2, size=30)
    _, check, player = bench.ours(mix=mix, database=database)
    assert check == "OK"
    edits = [
        "UPDATE votes SET value = -value WHERE id = (SELECT MIN(id) FROM votes)",
        "DELETE FROM votes WHERE id = (SELECT MAX(id) FROM votes)",
        "UPDATE comments SET text = 'forged' WHERE id = (SELECT MIN(id) FROM comments)",
    ]
    for count, sql in enumerate(edits, start=1):  # each edit adds one difference
        with database.engine.begin() as conn:
            conn.execute(text(sql))
        found = bench.compare(mix=mix, player=player, database=database)
        assert found.startswith(f"MISMATCH: {count} differ; "), found


def test_mix_is_deterministic_and_each_round_is_free_of_order() -> None:
    mix = bench.make_mix(rounds=6, size=200)
    assert mix == bench.make_mix(rounds=6, size=200)
    kinds = Counter(action.kind for actions in mix for action in actions)
    assert set(kinds) == {"click", "react", "unreact", "reply", "edit", "delete"}
    assert 0.45 < kinds["click"] / kinds.total() < 0.55
    for actions in mix:
        assert len(actions) == 200
        votes = Counter(a.user for a in actions if a.kind in ("click", "react", "unreact"))
        assert max(votes.values()) == 1  # one vote action a person a round
        changes = Counter(a.ts for a in actions if a.kind in ("reply", "edit", "delete"))
        assert max(changes.values()) == 1  # one change a comment a round


def _back_to_back(*, users: int) -> list[list[Action]]:
    """A warm-up reply, then one burst in which each person reacts 👍 and takes it back, and
    clicks 👍 then 👎: by the rules nobody keeps a reaction vote and everybody votes 👎."""
    burst: list[Action] = []
    for n, user in enumerate(bench.USERS[:users]):
        burst += [
            Action("react", 4 * n, user, name="+1"),
            Action("unreact", 4 * n + 1, user, name="+1"),
            Action("click", 4 * n + 2, user, value=1),
            Action("click", 4 * n + 3, user, value=-1),
        ]
    return [[Action("reply", -1, bench.USERS[0], ts="c", text="warm-up")], burst]


def test_one_persons_events_back_to_back_keep_their_order(database: Database) -> None:
    _, check, _ = bench.ours(mix=_back_to_back(users=100), database=database)
    assert check == "OK"
