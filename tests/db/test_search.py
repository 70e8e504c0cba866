"""Search against real migrated databases: ranking over the sample list, snippets, comments,
filters, paging, and arbitrary text that never breaks the query."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from bot import ingest
from bot.db import search as search_module
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.db.schema import ChannelRow, CommentRow, PaperRow, PostRow, VoteRow
from bot.db.search import search
from bot.domain import HIGHLIGHT_CLOSE as CLOSE
from bot.domain import HIGHLIGHT_OPEN as OPEN
from bot.domain import ChannelKey, PaperDraft, SearchPage, VoteCount, WorkspaceKey
from bot.search_query import parse_query
from bot.services.importing import import_drafts
from tests.conftest import SAMPLE, throwaway_postgres
from tests.test_search_query import NASTY

NOW = datetime(2026, 1, 1, tzinfo=UTC)
# The workspace of every channel here (CHANNEL below): the papers are imported into it.
TEAM = WorkspaceKey(platform="slack", id="T1")
TITLES = {
    "homology": "Persistent homology is a crucial invariant",
    "dlrm": "The increasing complexity of deep learning recommendation",
    "pipeline": "To train modern large DNN models, pipeline parallelism",
    "tensor": "Tensor parallelism is an essential technique",
    "mmt": "Large language models have significantly advanced Multilingual",
    "mobile": "Deploying Large Language Models on mobile devices",
    "slicing": "Performing efficient data slicing and parallelization",
    "gpus": "The sizes of GPU applications are rapidly growing",
}


def load(database: Database, drafts: tuple[PaperDraft, ...] = ()) -> dict[str, int]:
    """Import the sample reading list (and extra drafts); paper ids by title prefix."""
    parsed, _ = ingest.parse(path=str(SAMPLE), text=SAMPLE.read_text(), fmt="auto")
    import_drafts(uow=database, drafts=[*parsed, *drafts], now=NOW, workspace=TEAM)
    with database(write=False) as store:
        rows = store.session.execute(PaperRow.__table__.select()).all()
    return {key: row.id for row in rows for key, t in TITLES.items() if row.title.startswith(t)}


def find(database: Database, text: str, limit: int = 5, offset: int = 0) -> SearchPage:
    """Run one search in a read-only unit of work."""
    with database(write=False) as store:
        return search(
            session=store.session,
            query=parse_query(text=text),
            limit=limit,
            offset=offset,
            workspace=TEAM,
        )


CHANNEL = {
    "platform": "slack",
    "workspace": "T1",
    "post_time": "09:00",
    "timezone": "UTC",
    "weekdays": "mon-fri",
    "paused": False,
    "empty_notice_sent": False,
}


def post(database: Database, paper_id: int, day: date, channel: str = "C1") -> int:
    """Post a paper to a channel (created if new) on a day; the post's id."""
    with database() as store:
        session = store.session
        row = session.query(ChannelRow).filter_by(external_id=channel).one_or_none()
        if row is None:
            session.add(row := ChannelRow(external_id=channel, **CHANNEL))
            session.flush()
        link = f"https://x/{channel}/{day}"
        session.add(
            posted := PostRow(
                paper_id=paper_id,
                channel_id=row.id,
                local_date=day,
                state="posted",
                message_id=f"{day.toordinal()}.1",
                permalink=link,
                created_at=NOW,
            )
        )
        session.execute(update(PaperRow).where(PaperRow.id == paper_id).values(status="posted"))
        session.flush()
        return posted.id


def comment(database: Database, post_id: int, user: str, text: str, deleted: bool = False) -> None:
    """A reply in a post's thread."""
    with database() as store:
        channel = store.session.get_one(PostRow, post_id).channel_id
        ts = f"9{store.session.query(CommentRow).count()}.1"
        store.session.add(
            CommentRow(
                post_id=post_id,
                channel_id=channel,
                user_id=user,
                message_id=ts,
                text=text,
                created_at=NOW,
                deleted=deleted,
            )
        )


def vote(database: Database, post_id: int, user: str, value: int) -> None:
    """One person's vote on a post."""
    with database() as store:
        store.session.add(VoteRow(post_id=post_id, user_id=user, value=value, updated_at=NOW))


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def sample(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Database, dict[str, int]]]:
    """The sample list in a migrated database, shared by the read-only tests of a module."""
    with contextlib.ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path_factory.mktemp('sample') / 'paperclub.db'}"
        else:
            server = str(request.getfixturevalue("postgres_server"))
            url = stack.enter_context(throwaway_postgres(server=server, prefix="search"))
        upgrade_url(url=url)
        database = Database(url=url)
        yield database, load(database)
        database.dispose()


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("persistent homology", "homology"),
        ("recommendation embedding", "dlrm"),
        ("pipeline parallelism stragglers", "pipeline"),
        ("tensor parallel strategy", "tensor"),
        ("multilingual translation", "mmt"),
        ('"mobile devices" NPUs', "mobile"),
    ],
)
def test_ranking_over_the_sample_list(
    sample: tuple[Database, dict[str, int]], query: str, first: str
) -> None:
    """Hand-written queries put the paper they are about first, on SQLite and PostgreSQL."""
    database, ids = sample
    page = find(database, query)
    assert page.hits and page.hits[0].paper.id == ids[first]


def test_title_outweighs_one_mention_in_an_abstract(any_database: Database) -> None:
    """A paper with the word in its title beats one mentioning it once in its abstract."""
    mention = PaperDraft(
        title="A survey of decentralized optimization",
        abstract="Workers exchange models; one baseline is gossip among peers, "
        "next to many other methods from distributed systems.",
    )
    titled = PaperDraft(title="Gossip protocols for averaging", abstract="We study workers.")
    load(any_database, drafts=(mention, titled))
    hits = find(any_database, "gossip").hits
    assert [hit.paper.title for hit in hits] == [titled.title, mention.title]


def test_snippets_by_rowid_seek_match_snippets_by_walking(
    sample: tuple[Database, dict[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both ways of reaching the page's rows for their snippets give the same page."""
    walked = find(sample[0], "parallel models", limit=8)
    monkeypatch.setattr(search_module, "WALK_PER_HIT", 0)
    assert find(sample[0], "parallel models", limit=8) == walked and walked.hits


def test_stemming_and_highlighted_snippet(sample: tuple[Database, dict[str, int]]) -> None:
    """Porter stemming: parallelize finds parallelization; the snippet marks the match."""
    database, ids = sample
    page = find(database, "parallelize", limit=20)
    assert ids["slicing"] in [hit.paper.id for hit in page.hits]
    homology = find(database, "homology").hits[0]
    assert f"{OPEN}homology{CLOSE}" in homology.snippet and not homology.from_comment


def test_comment_matches_carry_the_comment_post_and_counts(any_database: Database) -> None:
    """A word only a comment has finds its paper, with the comment's snippet and author."""
    ids = load(any_database)
    post_id = post(any_database, ids["gpus"], date(2026, 2, 3))
    comment(any_database, post_id, "U_ANA", "The wombat schedule hides the pipeline bubbles")
    comment(any_database, post_id, "U_BO", "A kangaroo said this first", deleted=True)
    vote(any_database, post_id, "U1", 1), vote(any_database, post_id, "U2", 1)
    vote(any_database, post_id, "U3", -1)
    page = find(any_database, "wombat")
    assert page.total == 1
    hit = page.hits[0]
    assert (hit.paper.id, hit.from_comment, hit.comment_user) == (ids["gpus"], True, "U_ANA")
    assert f"{OPEN}wombat{CLOSE}" in hit.snippet
    assert (str(hit.channel), hit.post_date, hit.permalink) == (
        "slack:T1:C1",
        date(2026, 2, 3),
        "https://x/C1/2026-02-03",
    )
    assert (hit.votes, hit.comments) == (VoteCount(up=2, down=1), 1)
    assert find(any_database, "kangaroo").total == 0


def test_matching_in_text_and_comment_ranks_higher(database: Database) -> None:
    """A comment adds to a paper's own text score; the page counts each paper once."""
    ids = load(database)
    before = {hit.paper.id: hit.score for hit in find(database, "parallelism", limit=20).hits}
    post_id = post(database, ids["tensor"], date(2026, 2, 3))
    comment(database, post_id, "U_ANA", "Tensor parallelism, again: parallelism everywhere")
    page = find(database, "parallelism", limit=20)
    after = {hit.paper.id: hit.score for hit in page.hits}
    assert after[ids["tensor"]] > before[ids["tensor"]]
    assert page.total == len(before) == len(after)


def test_filters(database: Database) -> None:
    """Status, channel (id, #id, #name once known, unknown #name) and dates against the post
    date."""
    ids = load(database)
    post(database, ids["homology"], date(2026, 1, 10), channel="C1")
    post(database, ids["tensor"], date(2026, 2, 10), channel="C2")
    assert find(database, "is:queued").total == 18  # 21, less 2 posted and the reference
    assert {h.paper.id for h in find(database, "is:posted").hits} == {
        ids["homology"],
        ids["tensor"],
    }
    assert [h.paper.id for h in find(database, "in:C2").hits] == [ids["tensor"]]
    assert [h.paper.id for h in find(database, "in:#C1").hits] == [ids["homology"]]
    assert find(database, "in:#general").total == 0
    # Once the platform named C2 #General (the running bot records names), the name finds it,
    # in any case; an unknown name still finds nothing.
    with database() as store:
        store.record_names(workspace=TEAM, kind="channel", names={"C2": "General"}, now=NOW)
    assert [h.paper.id for h in find(database, "in:#general").hits] == [ids["tensor"]]
    assert [h.paper.id for h in find(database, "in:GENERAL").hits] == [ids["tensor"]]
    assert find(database, "in:#random").total == 0
    assert [h.paper.id for h in find(database, "after:2026-01-31").hits] == [ids["tensor"]]
    assert [h.paper.id for h in find(database, "before:2026-01-31 data").hits] == [ids["homology"]]
    assert find(database, "after:2026-02-10").total == 0  # after is exclusive
    assert [h.paper.id for h in find(database, "tensor is:posted").hits] == [ids["tensor"]]
    latest = find(database, "").hits
    assert [h.paper.id for h in latest[:2]] == [ids["tensor"], ids["homology"]]


def test_author_filter_and_exclusions(any_database: Database) -> None:
    """author: matches in the authors column, as a phrase; -word alone lists the rest."""
    drafts = (
        PaperDraft(
            title="Wombat scheduling", abstract="Silva is a word here.", authors=("Bo Kim",)
        ),
        PaperDraft(title="Wombat routing", abstract="Routing.", authors=("Ana Silva", "Li Wu")),
    )
    load(any_database, drafts=drafts)
    assert [h.paper.title for h in find(any_database, "author:silva").hits] == ["Wombat routing"]
    assert find(any_database, 'wombat author:"Ana Silva" author:wu').total == 1
    assert find(any_database, 'author:"Silva Ana"').total == 0
    rest = find(any_database, "-language", limit=50)
    assert rest.total == 13 and all("language" not in h.paper.abstract.lower() for h in rest.hits)


def test_paging(database: Database) -> None:
    """Pages of a ranking join up without gaps or repeats; past the end is empty."""
    load(database)
    everything = find(database, "models", limit=50)
    assert everything.total == len(everything.hits) > 6
    pages = [find(database, "models", limit=2, offset=offset) for offset in range(0, 50, 2)]
    assert [h.paper.id for p in pages for h in p.hits] == [h.paper.id for h in everything.hits]
    assert {p.total for p in pages} == {everything.total}
    assert pages[-1].hits == () and pages[-1].offset == 48


ODD = [
    '"',
    "(",
    "*",
    "^",
    ":",
    "NEAR(a b)",
    "title:x",
    "a OR b NOT c",
    "🚀",
    "שלום عالم",
    "",
    "x" * 10_000,
    "-",
    '-"',
    "author:",
    "in:<#",
    "{title}: gpu",
    "\x00gpu",
    "gpu*",
    "^gpu",
]


@pytest.mark.parametrize("query", ODD)
def test_odd_input_gives_an_answer(sample: tuple[Database, dict[str, int]], query: str) -> None:
    """Syntax characters, emoji, RTL, empty and huge input: a page, never an error."""
    page = find(sample[0], query)
    assert page.total >= len(page.hits)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """One migrated SQLite file with the sample list and a discussed post, for many examples."""
    path: Path = tmp_path_factory.mktemp("search") / "paperclub.db"
    upgrade_url(url=f"sqlite:///{path}")
    database = Database(url=f"sqlite:///{path}")
    ids = load(database)
    comment(database, post(database, ids["pipeline"], date(2026, 3, 1)), "U1", "bubbles (again)")
    yield database
    database.dispose()


@settings(
    max_examples=300, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(text=st.text() | NASTY)
def test_arbitrary_text_never_raises(archive: Database, text: str) -> None:
    """Whatever a user types goes through parse and search on SQLite without an exception."""
    page = find(archive, text)
    assert page.total >= len(page.hits) and page.offset == 0


def test_a_viewer_who_may_see_every_channel_gets_the_operators_page(
    any_database: Database,
) -> None:
    """With no channel hidden from the viewer no privacy condition is added; once another
    workspace's channel exists, its comments stay out of the viewer's page."""
    ids = load(any_database)
    comment(any_database, post(any_database, ids["gpus"], date(2026, 2, 3)), "U1", "wombat talk")
    viewer = ChannelKey(platform="slack", workspace="T1", channel="C1")

    def page(who: ChannelKey | None) -> SearchPage:
        """'wombat' as `who` sees it."""
        with any_database(write=False) as store:
            query = parse_query(text="wombat")
            return search(session=store.session, query=query, limit=10, viewer=who, workspace=TEAM)

    assert page(viewer) == page(None) and page(viewer).total > 0
    other = post(any_database, ids["tensor"], date(2026, 2, 4), channel="C9")
    with any_database() as store:
        store.session.execute(
            update(ChannelRow).where(ChannelRow.external_id == "C9").values(workspace="T2")
        )
    comment(any_database, other, "U2", "wombat elsewhere")
    assert [hit.paper.id for hit in page(viewer).hits] == [ids["gpus"]]
    assert {hit.paper.id for hit in page(None).hits} == {ids["gpus"], ids["tensor"]}
