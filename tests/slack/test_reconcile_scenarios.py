"""Issue 31's "Done when" on Slack, over Socket Mode and HTTP: what people did while the bot was
stopped is read back when it starts again, so the export and the post's counts equal what
Slack shows, nothing doubled, the reconciled rows marked, the post redrawn once; events that
arrive during the read are neither lost nor doubled."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from bot.config.settings import Settings
from bot.db.database import Database
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.slack import ids
from bot.web.archive import archive_app
from tests.fakeslack import FakeSlack, block_actions_payload, interactive_body, signed_request
from tests.services.conftest import load_sample
from tests.slack.conftest import CHANNEL, MEMBER, MONDAY_9, SECRET
from tests.slack.reconcile_support import (
    Served,
    TickingClock,
    export_post,
    origins,
    reconciled_since,
    redraws,
    rows,
    running,
    shown_counts,
    shown_thread,
    shown_votes,
    wait_until,
)
from tests.wired import SlackBot

MODES = pytest.mark.parametrize("mode", ["socket", "http"])
U1, U2, U3, U4, U5, U6 = (f"U0P{n}" for n in range(1, 7))


def _people(fake: FakeSlack) -> None:
    """The workspace's people who act in these scenarios."""
    for n, user in enumerate((U1, U2, U3, U4, U5, U6), start=1):
        fake.add_user(user, f"person{n}")


def _click_up(fake: FakeSlack, served: Served, *, ts: str, value: str) -> None:
    """MEMBER clicks 👍 on the post (a button's vote: acknowledged, kept as stored)."""
    payload = block_actions_payload(
        ids.VOTE_UP, value, user_id=MEMBER, message_ts=ts, channel_id=CHANNEL
    )
    if served.events_url is None:
        fake.wait_ack(fake.push("interactive", payload))
    else:
        status, _ = signed_request(served.events_url, interactive_body(payload), SECRET)
        assert status == 200


def _daily_post(fake: FakeSlack, url: str) -> tuple[str, str]:
    """The post the scheduler made at start, once the archive knows its ts (a reaction to a
    ts it does not know yet is nobody's vote): its ts and its buttons' value."""
    wait_until(
        lambda: rows(url, "SELECT 1 FROM posts WHERE state = 'posted' AND message_id IS NOT NULL"),
        timeout=10,
        what="the daily post",
    )
    [message] = [m for m in fake.messages(CHANNEL) if m.get("metadata")]
    actions = next(b for b in message["blocks"] if b["type"] == "actions")
    return str(message["ts"]), str(actions["elements"][0]["value"])


def _live(fake: FakeSlack, served: Served) -> tuple[str, dict[str, str]]:
    """The first run: the post, three reactions, a click and three replies, all heard."""
    ts, value = _daily_post(fake, served.bot.database.url)
    for user, name in ((U1, "+1"), (U2, "-1"), (U3, "thumbsup")):
        act = fake.people.react(user, CHANNEL, ts, name)
        assert act is not None and act.via is not None
    _click_up(fake, served, ts=ts, value=value)
    replies = {u: fake.people.reply(u, CHANNEL, ts, f"live from {u}").ts for u in (U1, U2, U3)}
    wait_until(
        lambda: (
            (post := export_post(served.bot.database, ts))["votes"] == {"up": 3, "down": 1}
            and len(post["comments"]) == 3
        ),
        timeout=10,
        what="the live votes and replies stored",
    )
    return ts, replies


def _while_down(fake: FakeSlack, *, ts: str, live: dict[str, str]) -> None:
    """Reactions added and removed, replies posted, edited and deleted, none delivered."""
    acts = [
        fake.people.unreact(U1, CHANNEL, ts, "+1"),  # a vote withdrawn
        fake.people.unreact(U2, CHANNEL, ts, "-1"),  # a vote changed ...
        fake.people.react(U2, CHANNEL, ts, "+1"),  # ... to 👍
        fake.people.react(U4, CHANNEL, ts, "+1::skin-tone-3"),  # new
        fake.people.react(U5, CHANNEL, ts, "thumbsdown"),  # new
        fake.people.react(U6, CHANNEL, ts, "tada"),  # no vote
        fake.people.react(MEMBER, CHANNEL, ts, "+1"),  # beside their button's 👍: one vote
    ]
    new = fake.people.reply(U4, CHANNEL, ts, "written while down")
    edited = fake.people.reply(U5, CHANNEL, ts, "first words")
    gone = fake.people.reply(U6, CHANNEL, ts, "said and taken back")
    acts += [
        new,
        edited,
        gone,
        fake.people.edit(CHANNEL, edited.ts, "second words"),
        fake.people.edit(CHANNEL, live[U1], "live, then edited while down"),
        fake.people.delete(CHANNEL, live[U2]),
        fake.people.delete(CHANNEL, gone.ts),
    ]
    assert all(a is not None and a.via is None for a in acts), "delivered while stopped"


def _matches_platform(
    fake: FakeSlack, database: Database, settings: Settings, *, ts: str
) -> dict[str, object]:
    """Assert the export equals what Slack shows, nothing doubled; the export's post."""
    post = export_post(database, ts)
    votes = shown_votes(fake, ts, settings)
    votes[MEMBER] = 1  # the button's vote stands (no reaction speaks for or against it)
    up, down = sum(v > 0 for v in votes.values()), sum(v < 0 for v in votes.values())
    assert post["votes"] == {"up": up, "down": down}
    comments = {c["message_id"]: c["text"] for c in post["comments"]}
    assert len(comments) == len(post["comments"]), "a comment doubled"
    assert comments == shown_thread(fake, ts)
    assert shown_counts(fake, ts) == (f"👍 {up}", f"👎 {down}")
    return post


@MODES
def test_stopped_then_started_reads_back_what_was_missed(
    mode: str, fake: FakeSlack, settings: Settings, sqlite_url: str
) -> None:
    _people(fake)
    database = Database(url=sqlite_url)
    load_sample(database)
    database.dispose()
    clock = TickingClock(MONDAY_9)
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode=mode) as served:
        ts, live = _live(fake, served)
        assert served.bot.coalescer.drain()
    _while_down(fake, ts=ts, live=live)
    before = redraws(fake, ts)
    restarted = clock.now()
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode=mode) as served:
        bot = served.bot
        wait_until(lambda: reconciled_since(bot, restarted), timeout=15, what="the read-back")
        assert bot.coalescer.drain()
        post = _matches_platform(fake, bot.database, settings, ts=ts)
        assert post["votes"] == {"up": 4, "down": 1}
        assert redraws(fake, ts) == before + 1, "the post is redrawn once"
    votes, comments = origins(sqlite_url, ts)
    assert votes == {
        U2: "reconciled",
        U3: "live",
        U4: "reconciled",
        U5: "reconciled",
        MEMBER: "live",
    }
    assert comments == {
        live[U1]: "reconciled",  # its edit was read back
        live[U3]: "live",
        **{t: "reconciled" for t in shown_thread(fake, ts) if t not in live.values()},
    }
    assert len(comments) == 4


@MODES
def test_events_during_the_read_back_are_neither_lost_nor_doubled(
    mode: str, fake: FakeSlack, settings: Settings, sqlite_url: str
) -> None:
    _people(fake)
    database = Database(url=sqlite_url)
    load_sample(database)
    database.dispose()
    clock = TickingClock(MONDAY_9)
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode=mode) as served:
        ts, live = _live(fake, served)
        assert served.bot.coalescer.drain()
    _while_down(fake, ts=ts, live=live)
    written_while_down = next(t for t, text in shown_thread(fake, ts).items() if "down" in text)
    # Slack is slow to answer the thread: people act between the reactions read and the thread.
    fake.delay_next("conversations.replies", 4.0)
    reads, threads = len(fake.calls("reactions.get")), len(fake.calls("conversations.replies"))
    restarted = clock.now()
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode=mode) as served:
        bot = served.bot
        wait_until(
            lambda: len(fake.calls("reactions.get")) > reads, timeout=10, what="the read begun"
        )
        during = [
            fake.people.unreact(U4, CHANNEL, ts, "+1::skin-tone-3"),  # the read saw it
            fake.people.react(U6, CHANNEL, ts, "-1"),  # the read did not
            fake.people.react(U1, CHANNEL, ts, "+1"),  # back, after a withdrawal unheard
            fake.people.reply(U3, CHANNEL, ts, "said during the read"),
            fake.people.edit(CHANNEL, written_while_down, "edited during the read"),
        ]
        assert all(a is not None and a.via is not None for a in during)
        wait_until(
            lambda: (
                rows(sqlite_url, "SELECT value FROM votes WHERE user_id = ?", U6) == [(-1,)]
                and "said during the read" in {c["text"] for c in _comments(bot, ts)}
            ),
            timeout=10,
            what="the live events stored",
        )
        assert len(fake.calls("conversations.replies")) == threads, "not during the read"
        wait_until(lambda: reconciled_since(bot, restarted), timeout=15, what="the read-back")
        assert bot.coalescer.drain()
        post = _matches_platform(fake, bot.database, settings, ts=ts)
    assert post["votes"] == {"up": 4, "down": 2}  # U1, U2, U3, MEMBER; U5, U6
    texts = [c["text"] for c in _comments_of(post)]
    assert texts.count("said during the read") == 1
    assert "edited during the read" in texts
    votes, _ = origins(sqlite_url, ts)
    assert votes[U6] == "live" and U4 not in votes


def _comments(bot: SlackBot, ts: str) -> list[dict[str, object]]:
    """The export's comments on the post."""
    return _comments_of(export_post(bot.database, ts))


def _comments_of(post: dict[str, object]) -> list[dict[str, object]]:
    """A post's comments from its export entry."""
    comments = post["comments"]
    assert isinstance(comments, list)
    return comments


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
    _people(fake)
    database = Database(url=sqlite_url)
    load_sample(database)
    database.dispose()
    clock = TickingClock(MONDAY_9)
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode="socket") as s:
        ts, _ = _daily_post(fake, sqlite_url)
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
    _people(fake)
    fake.add_channel(CHANNEL, "general", is_private=True)
    database = Database(url=sqlite_url)
    load_sample(database)
    database.dispose()
    clock = TickingClock(MONDAY_9)
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode="socket") as s:
        ts, _ = _daily_post(fake, sqlite_url)
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
    assert [c["text"] for c in _comments_of(post)] == ["secretreconciledword among friends"]
    assert not [b for b in bodies if "among friends" in b]  # a search page echoes its query
    assert found["total"] == 0
    assert direct.status_code == 404 or "secretreconciledword" not in direct.get_data(True)
