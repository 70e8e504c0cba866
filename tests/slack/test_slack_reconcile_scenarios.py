"""Issue 31's "Done when" on Slack, over Socket Mode and HTTP: what people did while the bot was
stopped is read back when it starts again, so the export and the post's counts equal what
Slack shows, nothing doubled, the reconciled rows marked, the post redrawn once; events that
arrive during the read are neither lost nor doubled."""

from __future__ import annotations

import pytest

from bot.config.settings import Settings
from bot.db.database import Database
from bot.slack import ids
from tests.fakeslack import FakeSlack, block_actions_payload, interactive_body, signed_request
from tests.services.conftest import load_sample
from tests.slack.conftest import CHANNEL, MEMBER, MONDAY_9, SECRET
from tests.slack.reconcile_support import (
    PEOPLE,
    Served,
    TickingClock,
    add_people,
    comments_of,
    daily_post,
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
U1, U2, U3, U4, U5, U6 = PEOPLE


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


def _live(fake: FakeSlack, served: Served) -> tuple[str, dict[str, str]]:
    """The first run: the post, three reactions, a click and three replies, all heard."""
    ts, value = daily_post(fake, served.bot.database.url)
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


def _heard_then_down(
    fake: FakeSlack, settings: Settings, sqlite_url: str, mode: str
) -> tuple[TickingClock, str, dict[str, str]]:
    """The bot hears today's post's votes and replies live, stops, and people go on: the
    clock, the post's ts and the live replies' ts by person."""
    add_people(fake)
    database = Database(url=sqlite_url)
    load_sample(database)
    database.dispose()
    clock = TickingClock(MONDAY_9)
    with running(fake=fake, settings=settings, url=sqlite_url, clock=clock, mode=mode) as served:
        ts, live = _live(fake, served)
        assert served.bot.coalescer.drain()
    _while_down(fake, ts=ts, live=live)
    return clock, ts, live


@MODES
def test_stopped_then_started_reads_back_what_was_missed(
    mode: str, fake: FakeSlack, settings: Settings, sqlite_url: str
) -> None:
    clock, ts, live = _heard_then_down(fake, settings, sqlite_url, mode)
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
    clock, ts, _live_replies = _heard_then_down(fake, settings, sqlite_url, mode)
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
    texts = [c["text"] for c in comments_of(post)]
    assert texts.count("said during the read") == 1
    assert "edited during the read" in texts
    votes, _ = origins(sqlite_url, ts)
    assert votes[U6] == "live" and U4 not in votes


def _comments(bot: SlackBot, ts: str) -> list[dict[str, object]]:
    """The export's comments on the post."""
    return comments_of(export_post(bot.database, ts))
