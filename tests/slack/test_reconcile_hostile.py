"""Issue 31 on Slack: hostile text read back after downtime is stored as a live comment's is
and shown inert; a private channel's reconciled comments stay out of the public archive."""

from __future__ import annotations

from flask.testing import FlaskClient

from bot.config.settings import Settings
from bot.db.database import Database
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive import archive_app
from tests.fakeslack import FakeSlack
from tests.services.conftest import load_sample
from tests.slack.conftest import CHANNEL, MONDAY_9
from tests.slack.reconcile_support import (
    PEOPLE,
    TickingClock,
    add_people,
    comments_of,
    daily_post,
    export_post,
    origins,
    reconciled_since,
    rows,
    running,
    wait_until,
)

U1, U2 = PEOPLE[:2]

HOSTILE = (
    "quokka <!channel> <!here> @everyone <@U0ADMIN> <#C0001> *b* _i_ `c` ~s~ "
    "<https://evil.example|click> [x](https://evil.example) <script>alert(1)</script> &amp; 💥👍🏽 "
)
HOSTILE = (HOSTILE * (10_000 // len(HOSTILE) + 1))[:10_000]


def _as_slack_sends(text: str) -> str:
    """How Slack sends text a person typed: & < > as entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _archive(database: Database) -> FlaskClient:
    """The web archive's pages, as `paperclub web` serves them."""
    app = archive_app(
        uow=database,
        today=lambda: MONDAY_9.date(),
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    return app.test_client()


def _page(client: FlaskClient, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, path
    return answer.get_data(as_text=True)


def _stored(url: str, ts: str) -> str:
    [(text,)] = rows(url, "SELECT text FROM comments WHERE message_id = ?", ts)
    return str(text)


def test_hostile_text_read_back_is_stored_and_shown_like_a_live_comment(
    fake: FakeSlack, settings: Settings, sqlite_url: str
) -> None:
    add_people(fake)
    database = Database(url=sqlite_url)
    load_sample(database)
    database.dispose()
    clock = TickingClock(MONDAY_9)
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode="socket") as s:
        ts, _ = daily_post(fake, sqlite_url)
        heard = fake.people.reply(U1, CHANNEL, ts, _as_slack_sends(HOSTILE)).ts
        wait_until(lambda: rows(sqlite_url, "SELECT 1 FROM comments"), timeout=10, what="heard")
        assert s.bot.coalescer.drain()
    unheard = fake.people.reply(U2, CHANNEL, ts, _as_slack_sends(HOSTILE)).ts
    restarted = clock.now()
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode="socket") as s:
        wait_until(lambda: reconciled_since(s.bot, restarted), timeout=15, what="the read-back")
        assert s.bot.coalescer.drain()
        client = _archive(s.bot.database)
        [(paper_id,)] = rows(sqlite_url, "SELECT paper_id FROM posts WHERE message_id = ?", ts)
        page = _page(client, f"/paper/{paper_id}")
        twin = client.get(f"/api/paper/{paper_id}").get_json()
    # The same words reach the archive the same way, heard or read back.
    assert _stored(sqlite_url, unheard) == _stored(sqlite_url, heard)
    assert origins(sqlite_url, ts)[1] == {heard: "live", unheard: "reconciled"}
    assert len(_stored(sqlite_url, unheard)) >= 9_000 and "💥👍🏽" in _stored(sqlite_url, unheard)
    # Shown inert: no element, no ping, no link to evil.example; the words are there.
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<!channel>" not in page and 'href="https://evil.example' not in page
    assert page.count("quokka") >= 2
    assert str(twin).count("quokka") >= 2
    # Nothing the bot sent since pings anyone.
    for call in fake.calls("chat.update") + fake.calls("chat.postMessage"):
        assert "<!channel>" not in str(call) and "<@U0ADMIN>" not in str(call)


def test_a_private_channels_reconciled_comments_stay_private(
    fake: FakeSlack, settings: Settings, sqlite_url: str
) -> None:
    add_people(fake)
    fake.add_channel(CHANNEL, "general", is_private=True)
    database = Database(url=sqlite_url)
    load_sample(database)
    database.dispose()
    clock = TickingClock(MONDAY_9)
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode="socket") as s:
        ts, _ = daily_post(fake, sqlite_url)
        assert s.bot.coalescer.drain()
    fake.people.reply(U1, CHANNEL, ts, "secretreconciledword among friends")
    restarted = clock.now()
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode="socket") as s:
        wait_until(lambda: reconciled_since(s.bot, restarted), timeout=15, what="the read-back")
        post = export_post(s.bot.database, ts)
        client = _archive(s.bot.database)
        [(paper_id,)] = rows(sqlite_url, "SELECT paper_id FROM posts WHERE message_id = ?", ts)
        bodies = [
            _page(client, path)
            for path in ("/", "/search?q=secretreconciledword", "/top/week", "/feed.atom")
        ]
        found = client.get("/api/search?q=secretreconciledword").get_json()
        direct = client.get(f"/paper/{paper_id}")
    # Kept in the archive (the export is the admins'), marked private, shown on no page.
    assert post["private"] is True
    assert [c["text"] for c in comments_of(post)] == ["secretreconciledword among friends"]
    assert not [b for b in bodies if "among friends" in b]  # a search page echoes its query
    assert found["total"] == 0
    assert direct.status_code == 404 or "secretreconciledword" not in direct.get_data(True)
