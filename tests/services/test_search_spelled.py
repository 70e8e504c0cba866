"""Search that forgives a misspelling, on SQLite and PostgreSQL: nothing found runs the
corrected query and says so; little found offers it as a 'Did you mean' button that runs it;
corrections come from the asker's own workspace's papers; hostile text stays inert."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.db.database import Database
from bot.domain import PaperDraft
from bot.messages import Buttons
from bot.runtime.metrics import PrometheusTelemetry, exposition
from bot.services import importing, search
from bot.services.commands import more_results
from bot.services.embedding import NO_SEMANTIC
from bot.services.search_spelled import forgiving_search
from bot.services.telemetry import Telemetry
from bot.wording import archive
from tests.services.conftest import key, load_sample
from tests.services.support import HOSTILE, follow_key, plain

C1 = key("C1")
OTHER = key("C9", workspace="T9")


@pytest.fixture
def sample(any_database: Database) -> Database:
    """C1 follows the sample list; another workspace has a paper about wombats."""
    follow_key(any_database, C1)
    follow_key(any_database, OTHER)
    load_sample(any_database, workspace=C1.workspace_key)
    wombats = PaperDraft(title="Wombat burrows", abstract="Wombats dig.", origin="t:wombat")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    importing.import_drafts(
        uow=any_database, drafts=[wombats], now=now, workspace=OTHER.workspace_key
    )
    return any_database


def find(database: Database, text: str) -> search.SearchResult:
    """The forgiving search as C1 asks."""
    return forgiving_search(
        uow=database, text=text, viewer=C1, semantic_extra=NO_SEMANTIC, telemetry=Telemetry()
    )


def test_nothing_found_runs_the_corrected_query_and_says_so(sample: Database) -> None:
    found = find(sample, "pipline paralelism")
    assert (found.typed, found.text) == ("pipline paralelism", "pipeline parallelism")
    assert found.page.hits and not found.suggestion
    said = plain(search.page_message(result=found))
    assert said.startswith("Showing results for “pipeline parallelism” (no match for “pipline")
    # Paging on goes on with the corrected query.
    assert archive.read_more_value(value=archive.more_value(text=found.text, offset=5))


def test_little_found_offers_did_you_mean_and_the_button_runs_it(sample: Database) -> None:
    found = find(sample, "homology pipline")
    assert found.page.total in (1, 2) and not found.typed
    assert found.suggestion == "homology pipeline"
    [row] = [b for b in search.page_message(result=found).blocks if isinstance(b, Buttons)]
    [button] = [b for b in row.buttons if b.action == archive.SEARCH_SPELLED]
    assert button.label == "Did you mean “homology pipeline”?"
    pressed = more_results(
        uow=sample,
        value=button.value,
        viewer=C1,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    assert pressed is not None
    assert "for “homology pipeline”" in plain(pressed.message)
    assert "Results 1–" in plain(pressed.message)


def test_known_words_and_enough_hits_are_left_alone(sample: Database) -> None:
    for text in ("persistent homology", "training", "zzzzqqqq", "tensor", "is:queued"):
        found = find(sample, text)
        assert (found.typed, found.suggestion, found.text) == ("", "", text)


def test_another_workspaces_words_are_never_offered(sample: Database) -> None:
    found = find(sample, "wombta")
    assert (found.typed, found.suggestion, found.page.total) == ("", "", 0)


def test_hostile_queries_stay_inert(sample: Database) -> None:
    for text in (*HOSTILE, '"pipline', "pipline)", "pipline* OR", "pipline'; DROP TABLE papers"):
        found = find(sample, text)
        said = plain(search.page_message(result=found))
        assert "Traceback" not in said
    found = find(sample, "<!channel> pipline @everyone")
    assert found.typed == "<!channel> pipline @everyone"
    assert found.text == "<!channel> pipeline @everyone"  # the rest as typed, rendered escaped
    assert find(sample, "pipeline").page.total > 0  # the papers are all still there


def _searches_counted(*, platform: str) -> float:
    """How many searches of `platform` the process's metrics page counts so far."""
    line = f'paperclub_search_seconds_count{{platform="{platform}"}} '
    page = exposition().decode()
    return sum(float(row[len(line) :]) for row in page.splitlines() if row.startswith(line))


def test_a_corrected_search_is_counted_once_in_the_metrics(sample: Database) -> None:
    """Two queries ran (the typed one found nothing, the corrected one ran instead), but the
    member searched once: the metrics page counts one search."""
    before = _searches_counted(platform=C1.platform)
    found = forgiving_search(
        uow=sample,
        text="pipline paralelism",
        viewer=C1,
        semantic_extra=NO_SEMANTIC,
        telemetry=PrometheusTelemetry(),
    )
    assert found.typed  # corrected: two queries ran
    assert _searches_counted(platform=C1.platform) == before + 1


def test_one_misspelt_word_among_words_that_found_papers_is_offered(sample: Database) -> None:
    """ "training" alone finds many papers (related ones, with some of the words), so the page is
    full; but no paper has every word, so the spelling is tried, and the corrected query, which
    has papers with every word, is offered."""
    found = find(sample, "training pipline")
    assert found.page.total >= 3 and found.page.relaxed and not found.typed
    assert found.suggestion == "training pipeline"
    assert find(sample, "training pipeline").every_word
