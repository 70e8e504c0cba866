"""What the sources storage tests share: channels, candidates as sources make them, papers in
an archive, and hostile text."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.db.database import Database
from bot.domain import ChannelKey, NewPaper, PaperDraft
from bot.ingest.keys import fingerprint
from bot.ports.sources import WatchSpec
from bot.sources.candidates import Candidate, make_candidate

NOW = datetime(2026, 12, 8, 6, 0, tzinfo=UTC)
DAY = date(2026, 12, 8)
HERE = ChannelKey(platform="slack", workspace="T1", channel="C1")
NEXT_DOOR = ChannelKey(platform="slack", workspace="T1", channel="C2")
ELSEWHERE = ChannelKey(platform="slack", workspace="T2", channel="C1")
ON_DISCORD = ChannelKey(platform="discord", workspace="G1", channel="D1")
ARXIV = WatchSpec(kind="arxiv", target="cs.LG+cs.CL")
HOSTILE = (
    "<!channel> @everyone <@U123> <#C1|general> *bold* `code` 🧪📄 &amp; <b>x</b> " + "ж" * 10_000
)


def candidate(n: int, **fields: object) -> Candidate:
    """Candidate number n as arXiv announces one (fields override)."""
    given: dict[str, object] = {
        "source": "arxiv:cs.LG",
        "title": f"Sparse attention study number {n}",
        "abstract": f"We study sparse attention, variant {n}, at length.",
        "authors": [f"Ada Lovelace {n}", "Grace Hopper"],
        "arxiv_id": f"2412.{n:05d}",
        "version": 1,
        "announced": DAY,
        "categories": ["cs.LG", "cs.CL"],
        "announce": "new",
    }
    given.update(fields)
    made = make_candidate(**given)  # type: ignore[arg-type]
    assert made is not None
    return made


def add_paper(
    database: Database,
    *,
    title: str,
    abstract: str,
    arxiv_id: str | None = None,
    doi: str | None = None,
    workspace: ChannelKey = HERE,
) -> None:
    """A paper in the archive of `workspace`'s workspace."""
    with database() as store:
        workspace_id = store.workspace_id(workspace=workspace.workspace_key)
        draft = PaperDraft(title=title, abstract=abstract, origin="t:1", arxiv_id=arxiv_id, doi=doi)
        paper = NewPaper(
            draft=draft,
            fingerprint=fingerprint(title=title, abstract=abstract),
            source="t:1",
            added_by="U1",
            added_at=NOW,
            position=store.max_position(workspace=workspace.workspace_key) + 1,
            workspace_id=workspace_id,
        )
        assert store.insert_papers(papers=[paper]) == 1


def watch(database: Database, *, channel: ChannelKey = HERE, spec: WatchSpec = ARXIV) -> int:
    """A watch of the channel (its row made when missing)."""
    with database() as store:
        return store.add_watch(channel=channel, spec=spec, user="U1", now=NOW)
