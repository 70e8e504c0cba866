"""Issue 31 on Discord, end to end: the real wiring (discord.py, the reconciliation worker, a
real SQLite file) against the fake Discord, whose people go on reacting, replying, editing
and deleting while the bot is stopped or between two gateway sessions. After the read-back
the archive, the export and the post's counts equal what Discord shows, nothing twice."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import time as clock_time
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.db.database import Database
from bot.discord.embeds import vote_custom_id
from tests.discord.conftest import DiscordHarness
from tests.discord.reconcile_support import (
    DOWN,
    UP,
    ShiftedClock,
    archived,
    bot,
    counted,
    exported,
    labels,
    reconciled,
    redraws,
    shown_replies,
    shown_votes,
)
from tests.fakediscord import FakeDiscord
from tests.services.conftest import load_sample

THREAD_PAGE = "/channels/{c}/messages"


@dataclass
class Club:
    """One archive file the bot is started on again and again."""

    fake: FakeDiscord
    settings: Settings
    database: Database
    clock: ShiftedClock
    path: str

    def bot(self) -> Iterator[DiscordHarness]:
        """The bot on this archive (a context manager)."""
        return bot(fake=self.fake, settings=self.settings, database=self.database, clock=self.clock)  # type: ignore[return-value]

    def check(self, *, post: str, buttons: dict[str, int]) -> None:
        """The archive, the export and the drawn counts equal what Discord shows, once each."""
        shown = shown_votes(self.fake, post=post, buttons=buttons)
        stored = archived(self.path, post=post)
        assert stored.live_votes() == shown
        assert stored.live_comments() == shown_replies(self.fake, post=post)
        assert labels(self.fake, post=post) == counted(shown)
        export = exported(self.database, fake=self.fake, post=post)
        assert (export["up"], export["down"]) == (
            sum(1 for v in shown.values() if v > 0),
            sum(1 for v in shown.values() if v < 0),
        )
        assert export["comments"] == sorted(shown_replies(self.fake, post=post).values())


@pytest.fixture
def club(fake: FakeDiscord, settings: Settings, tmp_path: Path) -> Iterator[Club]:
    """The sample list in a migrated file, a post due at once every day (the clock is real)."""
    from bot.db.migrate import upgrade_url

    path = str(tmp_path / "club.db")
    upgrade_url(url=f"sqlite:///{path}")
    database = Database(url=f"sqlite:///{path}")
    load_sample(database)
    every_day = replace(
        settings,
        database_url=f"sqlite:///{path}",
        days=frozenset(range(1, 8)),
        post_time=clock_time(0, 0),
        timezone="UTC",
    )
    try:
        yield Club(
            fake=fake, settings=every_day, database=database, clock=ShiftedClock(), path=path
        )
    finally:
        database.dispose()


def _live_start(harness: DiscordHarness, people: list[str]) -> tuple[str, dict[str, str]]:
    """Post; carol clicks 👍, six people react 👍 and one 👎, three replies: all heard live.
    The post's id and the replies' ids by name."""
    fake = harness.fake
    post = harness.daily_post()["id"]
    post_id = int(
        fake.message(post)["components"][0]["components"][0]["custom_id"].rsplit(":", 1)[1]
    )
    fake.wait_callback(
        fake.click(post, vote_custom_id(post_id=post_id, up=True), user=people[-1]).id
    )
    harness.events(
        lambda: (
            [fake.people.react(post, UP, user=p) for p in people[:6]]
            + [fake.people.react(post, DOWN, user=people[6])]
        ),
        count=7,
    )
    said: dict[str, str] = {}

    def reply() -> None:
        fake.people.start_thread(post, "thread", user=fake.alice_id) if not fake.messages(
            post
        ) else None
        for name, user in (("alice", fake.alice_id), ("bob", fake.bob_id), ("p0", people[0])):
            said[name] = fake.people.say(post, f"{name} live", user=user)["id"]

    harness.events(reply, count=3)
    harness.redrawn()
    return post, said


def test_what_people_did_while_the_bot_was_stopped_is_reconciled_once(club: Club) -> None:
    fake = club.fake
    people = [fake.add_member(f"p{i}") for i in range(10)] + [fake.add_member("carol")]
    carol = people[-1]
    with club.bot() as first:
        post, said = _live_start(first, people)
        club.check(post=post, buttons={carol: 1})
    # Stopped: Discord keeps all of this and tells no one.
    fake.people.unreact(post, UP, user=people[0])  # withdrawn
    fake.people.unreact(post, UP, user=people[1])
    fake.people.react(post, DOWN, user=people[1])  # changed their mind
    for person in people[7:10]:
        fake.people.react(post, UP, user=person)  # new
    away = fake.people.say(post, "written while away", user=people[2])["id"]
    fake.people.edit(said["alice"], "alice, edited while away")
    fake.people.delete(said["bob"])
    twice = fake.people.say(post, "first draft", user=people[3])["id"]
    fake.people.edit(twice, "second draft")
    gone = fake.people.say(post, "never seen", user=people[4])["id"]
    fake.people.delete(gone)
    before = redraws(fake, post=post)
    since = club.clock.now()
    with club.bot() as second:
        changes = reconciled(second, after=since)
        second.redrawn()
        assert changes == 5 + 2 + 1 + 1  # votes; new replies; the edit; the delete
        club.check(post=post, buttons={carol: 1})
        assert redraws(fake, post=post) == before + 1
    stored = archived(club.path, post=post)
    assert {u for u, (_, origin) in stored.votes.items() if origin == "reconciled"} >= {
        people[1],
        *people[7:10],
    }
    assert stored.votes[carol] == (1, "live") and stored.votes[people[3]] == (1, "live")
    assert stored.comments[away][3] == "reconciled" and stored.comments[twice][1:] == (
        "second draft",
        False,
        "reconciled",
    )
    assert stored.comments[said["alice"]][1:] == ("alice, edited while away", False, "reconciled")
    assert stored.comments[said["bob"]][2:] == (True, "reconciled")
    assert stored.comments[said["p0"]][3] == "live" and gone not in stored.comments
    assert stored.comment_rows == len(stored.comments) == 5


def test_a_new_gateway_session_reads_back_what_the_gap_missed(club: Club) -> None:
    fake = club.fake
    people = [fake.add_member(f"p{i}") for i in range(10)] + [fake.add_member("carol")]
    with club.bot() as harness:
        post, said = _live_start(harness, people)
        since = club.clock.now()
        fake.invalidate_session()  # not resumable: discord.py IDENTIFYs, Discord replays nothing
        for person in people[7:10]:
            fake.people.react(post, DOWN, user=person)
        fake.people.unreact(post, UP, user=people[2])
        fake.people.say(post, "said in the gap", user=people[5])
        fake.people.edit(said["p0"], "p0, edited in the gap")
        fake.wait_until(lambda: fake.counts["identifies"] == 2, timeout=10)
        reconciled(harness, after=since)
        harness.redrawn()
        club.check(post=post, buttons={people[-1]: 1})
        assert fake.counts["resumes"] == 0


def test_events_during_the_read_back_are_neither_lost_nor_doubled(club: Club) -> None:
    fake = club.fake
    people = [fake.add_member(f"p{i}") for i in range(12)] + [fake.add_member("carol")]
    with club.bot() as first:
        post, said = _live_start(first, people)
    for i in range(230):  # three pages of thread: the read takes a while under the limit
        fake.people.say(post, f"away {i}", user=people[i % 5])
    fake.people.react(post, UP, user=people[8])
    fake.limit_rate("GET", THREAD_PAGE, limit=1, per=0.4)
    since = club.clock.now()
    with club.bot() as second:
        fake.wait_request("GET", f"/channels/{post}/messages", timeout=10)
        # The read-back is under way: people go on, and the bot hears them live.
        second.events(
            lambda: [
                fake.people.react(post, UP, user=people[9]),
                fake.people.react(post, DOWN, user=people[10]),
                fake.people.unreact(post, UP, user=people[1]),
                fake.people.say(post, "during the read", user=people[11]),
                fake.people.edit(said["alice"], "alice, edited during the read"),
                fake.people.delete(said["bob"]),
            ],
            count=6,
        )
        reconciled(second, after=since, timeout=20)
        second.redrawn()
        club.check(post=post, buttons={people[-1]: 1})
    stored = archived(club.path, post=post)
    assert stored.votes[people[9]] == (1, "live") and stored.votes[people[8]] == (1, "reconciled")
    assert stored.comment_rows == len(stored.comments) == 3 + 230 + 1


HOSTILE = (
    "@everyone <@&1100000000000000777> **bold** `code` [click](https://evil.example) ||spoiler||",
    "🦘🧪 wombat ∑ naïve — “quoted” <script>alert(1)</script>",
    "x" * 2000,  # Discord's own limit for one message
)


def test_hostile_text_read_back_is_stored_as_the_live_listener_stores_it(club: Club) -> None:
    """The same words said live and said while the bot was stopped end up the same in the
    archive: the read-back takes them through the listener's own rules."""
    fake = club.fake
    people = [fake.add_member(f"p{i}") for i in range(10)] + [fake.add_member("carol")]
    with club.bot() as first:
        post, _ = _live_start(first, people)
        heard: list[str] = []
        first.events(
            lambda: heard.extend(
                fake.people.say(post, text, user=people[0])["id"] for text in HOSTILE
            ),
            count=len(HOSTILE),
        )
    away = [fake.people.say(post, text, user=people[1])["id"] for text in HOSTILE]
    before, since = redraws(fake, post=post), club.clock.now()
    with club.bot() as second:
        reconciled(second, after=since)
        second.redrawn()
    stored = archived(club.path, post=post)
    assert [stored.comments[m][1] for m in away] == [stored.comments[m][1] for m in heard]
    assert all(stored.comments[m][3] == "reconciled" for m in away)
    # Counted and redrawn once, like any change the read-back finds.
    assert redraws(fake, post=post) == before + 1
