"""Discord misbehaving at the daily post: 429s and 5xx on message create (before the message is
made, or after it, with the answer lost), cut connections, a failing history check; refusals;
a refused thread. The post lands exactly once (the nonce makes Discord answer a retry with the
first message; after an unknown outcome history is checked first), a refusal puts the paper
back in the queue with a hint in the log, and a post without its thread stands.

The real wiring with the Discord plug-in runs in-process on a FakeClock against FakeDiscord;
REST goes through a lossy loopback hop (discord_support.LossyProxy) where the effect must
happen and the answer be lost, which FakeDiscord.fail_next cannot do (it answers first)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

from bot.discord.chat import nonce
from bot.discord.errors import HINTS
from bot.domain import PaperDraft, PaperStatus, PostState
from bot.services import importing, posting
from tests.discord.conftest import DiscordHarness, no_thread_leaks
from tests.fakediscord import FakeDiscord
from tests.faults.discord_support import LossyProxy, Trap, discord_bot, discord_key, trapped
from tests.faults.support import scaled, seed_for

__all__ = ["no_thread_leaks"]  # the Discord suite's autouse check: every thread ends

THREADS = "/channels/{id}/messages/{id}/threads"
Out = posting.Outcome
DONE = (Out.POSTED, Out.RECOVERED)


@dataclass
class Rig:
    """The bot on the fake, its REST through the lossy hop."""

    harness: DiscordHarness
    fake: FakeDiscord
    proxy: LossyProxy

    def post(self, channel_id: str) -> posting.PostResult:
        """What the channel's post job does at the test's time."""
        poster = self.harness.wiring.posters["discord"]
        key = discord_key(self.fake, channel_id)
        return posting.post_today(poster=poster, channel=key, now=self.harness.clock.now())

    def later(self) -> None:
        """Past the lease: a post whose outcome stayed unknown is resolved on the next try."""
        self.harness.clock.at += posting.LEASE + timedelta(minutes=1)


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    """A fake guild with #general."""
    with FakeDiscord() as discord_fake:
        yield discord_fake


@contextlib.contextmanager
def rig_on(fake: FakeDiscord, folder: Path, *, follow: Sequence[str] = ()) -> Iterator[Rig]:
    """The bot connected, following #general and `follow`, REST through a lossy hop."""
    with (
        LossyProxy(upstream=fake.http_url) as proxy,
        discord_bot(fake, db=folder / "club.db", follow=follow, api_url=proxy.api_url) as harness,
    ):
        yield Rig(harness=harness, fake=fake, proxy=proxy)


@pytest.fixture
def rig(fake: FakeDiscord, tmp_path: Path) -> Iterator[Rig]:
    """The bot following #general only."""
    with rig_on(fake, tmp_path) as made:
        yield made


def _post_until_done(rig: Rig, channel_id: str, *, tries: int = 4) -> list[posting.Outcome]:
    """Post, and try again past the lease while the post is not done; the outcomes."""
    outcomes = []
    for _ in range(tries):
        outcomes.append(rig.post(channel_id).outcome)
        if outcomes[-1] in DONE:
            break
        rig.later()
    return outcomes


def _assert_posted_once(rig: Rig, channel_id: str) -> int:
    """One daily post in Discord, with its thread; one posted row naming it; the post id."""
    harness = rig.harness
    messages = harness.posts(channel_id)
    assert len(messages) == 1, f"{len(messages)} daily posts in {channel_id}"
    [message] = messages
    with harness.database(write=False) as store:
        channel = store.channel(key=discord_key(rig.fake, channel_id))
        assert channel is not None
        post = store.post_on(channel=channel, local_date=harness.clock.now().date())
        assert post is not None and post.state is PostState.POSTED
        assert post.message_id == message["id"]
        paper = store.paper(paper_id=post.paper_id)
        assert paper is not None and paper.status is PaperStatus.POSTED
    assert rig.fake.message(message["id"]).get("thread"), "the post has no thread"
    # Every create the fake saw carried the post's nonce, enforced.
    creates = rig.fake.requests("POST", f"/channels/{channel_id}/messages")
    assert {(c.json["nonce"], c.json["enforce_nonce"]) for c in creates} == {
        (nonce(post_id=post.id), True)
    }
    # Later that day nothing more is posted.
    rig.later()
    assert rig.post(channel_id).outcome is Out.ALREADY
    assert len(harness.posts(channel_id)) == 1
    return post.id


# -- faults on message create -----------------------------------------------------------------

Inject = Callable[[Rig, str], None]


def fail(status: int, *, times: int = 1) -> Inject:
    """The fake answers `status` before making the message (429: Discord's body, headers)."""
    return lambda rig, path: rig.fake.fail_next("POST", path, status=status, times=times)


def lose(status: int | None, *, before: bool = False) -> Inject:
    """The hop gives the client `status` (None: a cut connection) after (or before) the fake."""
    return lambda rig, path: rig.proxy.lose_next("POST", path, status=status, before=before)


def both(*faults: Inject) -> Inject:
    """Several faults queued at once."""

    def inject(rig: Rig, path: str) -> None:
        """Queue each fault."""
        for fault in faults:
            fault(rig, path)

    return inject


def history(status: int | None, *, times: int = 1) -> Inject:
    """The history look-up after an unknown outcome fails too (the hop: 5xx or a cut)."""
    return lambda rig, path: rig.proxy.lose_next("GET", path, status=status, times=times)


@dataclass(frozen=True)
class Case:
    """A fault, the outcomes of the tries it takes, how many creates reach the fake, and
    whether the bot had to look in history."""

    label: str
    inject: Inject
    outcomes: tuple[posting.Outcome, ...]
    creates: int
    history: bool


def _label(case: Case) -> str:
    """The test id."""
    return case.label


CASES = [
    # discord.py waits out a 429 itself (retry_after, with Via set) and sends the same body.
    Case("429", fail(429), (Out.POSTED,), creates=2, history=False),
    # discord.py retries a 500 and a 502 itself after a second, with the same nonce.
    Case("500", fail(500), (Out.POSTED,), creates=2, history=False),
    Case("502", fail(502), (Out.POSTED,), creates=2, history=False),
    # The message was made but the answer lost: the retry's nonce gets the same message back.
    Case("500 after the effect", lose(500), (Out.POSTED,), creates=2, history=False),
    Case("502 after the effect", lose(502), (Out.POSTED,), creates=2, history=False),
    # A 503 reaches the bot: the outcome is unknown, history says nothing landed, it posts.
    Case("503", fail(503), (Out.POSTED,), creates=2, history=True),
    # ... or history finds the message: it is recorded, never sent again.
    Case("503 after the effect", lose(503), (Out.POSTED,), creates=1, history=True),
    Case("cut before the fake", lose(None, before=True), (Out.POSTED,), creates=1, history=True),
    Case("cut after the effect", lose(None), (Out.POSTED,), creates=1, history=True),
    # Every attempt fails: the claim is kept (unknown outcome) and resolved after the lease.
    Case(
        "503 on all three attempts",
        fail(503, times=3),
        (Out.FAILED, Out.POSTED),
        creates=4,
        history=True,
    ),
    # The post landed and history cannot be read: pending; past the lease it is found. (A cut
    # GET is retried once by aiohttp on a kept-alive connection: cut it twice.)
    # (A recovered post gets its thread then too.)
    Case(
        "503 after the effect, history 503",
        both(lose(503), history(503)),
        (Out.FAILED, Out.RECOVERED),
        creates=1,
        history=True,
    ),
    Case(
        "cut after the effect, history cut",
        both(lose(None), history(None, times=2)),
        (Out.FAILED, Out.RECOVERED),
        creates=1,
        history=True,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=_label)
def test_a_failed_message_create_posts_exactly_once(rig: Rig, case: Case) -> None:
    channel_id = rig.fake.channel_id
    path = f"/channels/{channel_id}/messages"
    case.inject(rig, path)
    with trapped() as trap:
        outcomes = _post_until_done(rig, channel_id)
        _assert_posted_once(rig, channel_id)
    assert tuple(outcomes) == case.outcomes, (outcomes, rig.proxy.applied)
    assert len(rig.fake.requests("POST", path)) == case.creates
    assert bool(rig.fake.requests("GET", path)) == case.history
    if case.history:
        assert any("checking history" in m for m in trap.messages()), trap.messages()
    assert not trap.tracebacks(), trap.tracebacks()[0]


# Quick faults (no 500/502: discord.py sleeps a second before retrying those).
POOL: list[tuple[str, Inject]] = [
    ("429", fail(429)),
    ("503", fail(503)),
    ("503 after", lose(503)),
    ("cut before", lose(None, before=True)),
    ("cut after", lose(None)),
    ("history 503", history(503)),
    ("history cut twice", history(None, times=2)),
]


def test_channels_with_mixed_faults_each_get_one_post(fake: FakeDiscord, tmp_path: Path) -> None:
    rng = random.Random(seed_for("discord errors: channels"))
    channels = [fake.add_channel(f"club-{n}") for n in range(scaled(6, 30))]
    injected: dict[str, list[str]] = {}
    with rig_on(fake, tmp_path, follow=channels) as rig, trapped() as trap:
        # A paper for every channel: the slow variant's 31 channels outnumber the sample list.
        extra = [
            PaperDraft(title=f"Made-up paper {n}", abstract=f"The abstract of paper {n}.")
            for n in range(len(channels) + 1)
        ]
        importing.import_drafts(uow=rig.harness.database, drafts=extra, now=rig.harness.clock.now())
        for channel_id in channels:
            picked = rng.sample(POOL, k=rng.randint(0, 3))
            injected[channel_id] = [label for label, _ in picked]
            for _, inject in picked:
                inject(rig, f"/channels/{channel_id}/messages")
        for _ in range(4):
            results = rig.harness.sweep()
            if all(results[discord_key(fake, c)].outcome in (*DONE, Out.ALREADY) for c in channels):
                break
            rig.later()
        for channel_id in [fake.channel_id, *channels]:
            _assert_posted_once(rig, channel_id)
    print(f"faults: {injected}\napplied by the hop: {rig.proxy.applied}")
    assert sum(map(len, injected.values())) >= 3, "too few faults to prove anything"
    assert not trap.tracebacks(), trap.tracebacks()[0]


# -- refusals ---------------------------------------------------------------------------------


def _hinted(trap: Trap, code: int) -> bool:
    """Whether the log says what to do about Discord's error `code`."""
    return any(HINTS[code] in m for m in trap.messages(level=40))


@pytest.mark.parametrize(
    ("label", "code", "again"),
    [
        ("refused channel", 50001, False),  # the bot's role cannot see it: every day again
        ("unknown channel", 10003, False),
        ("missing permission", 50013, True),  # once: the next try goes through
        ("invalid form", 50035, True),
    ],
)
def test_a_refusal_puts_the_paper_back_with_a_hint(
    fake: FakeDiscord, tmp_path: Path, label: str, code: int, again: bool
) -> None:
    if label == "refused channel":
        channel_id = fake.add_channel("secret", refused=True)
    elif label == "unknown channel":
        channel_id = "1100000000000099999"  # followed in the archive, gone from Discord
    else:
        channel_id = fake.add_channel("club")
    with rig_on(fake, tmp_path, follow=[channel_id]) as rig, trapped() as trap:
        path = f"/channels/{channel_id}/messages"
        if again:
            message = "Missing Permissions" if code == 50013 else "Invalid Form Body"
            status = 403 if code == 50013 else 400
            rig.fake.fail_next("POST", path, status=status, code=code, message=message)
        result = rig.post(channel_id)
        assert result.outcome is Out.FAILED and result.error is not None and result.post
        assert result.error.posted_nothing, result.error
        assert _hinted(trap, code), trap.messages()
        key = discord_key(fake, channel_id)
        with rig.harness.database(write=False) as store:
            channel = store.channel(key=key)
            assert channel is not None
            assert store.post_on(channel=channel, local_date=result.post.local_date) is None
            paper = store.paper(paper_id=result.post.paper_id)
            assert paper is not None and paper.status is PaperStatus.QUEUED
            # Back at the head of the queue: the next try posts this same paper.
            assert (
                store.queued(workspace=key.workspace_key, channel=channel, limit=1)[0].id
                == paper.id
            )
        retry = rig.post(channel_id)
        if again:
            assert retry.outcome is Out.POSTED and retry.post is not None
            assert retry.post.paper_id == result.post.paper_id
            _assert_posted_once(rig, channel_id)
        else:
            assert retry.outcome is Out.FAILED and retry.error is not None
            assert retry.error.posted_nothing
        # The other channel is not held up by this one.
        assert rig.post(fake.channel_id).outcome is Out.POSTED
        _assert_posted_once(rig, fake.channel_id)
    assert not trap.tracebacks(), trap.tracebacks()[0]


# -- the thread -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "code"),
    [("missing permission", 50013), ("server error", None), ("cut after the effect", None)],
)
def test_a_refused_thread_leaves_the_post_standing(rig: Rig, label: str, code: int | None) -> None:
    channel_id = rig.fake.channel_id
    if label == "missing permission":
        rig.fake.fail_next("POST", THREADS, status=403, code=50013, message="Missing Permissions")
    elif label == "server error":
        rig.fake.fail_next("POST", THREADS, status=503)
    else:
        rig.proxy.lose_next("POST", THREADS, status=None)
    with trapped() as trap:
        result = rig.post(channel_id)
    assert result.outcome is Out.POSTED, result
    [message] = rig.harness.posts(channel_id)
    with rig.harness.database(write=False) as store:
        post = store.post_by_message(channel=rig.harness.key, message_id=message["id"])
    assert post is not None and post.state is PostState.POSTED
    [attempt] = rig.fake.requests("POST", THREADS)
    warnings = [m for m in trap.messages() if m.startswith("no thread for the post")]
    assert len(warnings) == 1, trap.messages()
    if code is not None:
        assert attempt.status == 403 and HINTS[code] in warnings[0]
        assert rig.fake.message(message["id"]).get("thread") is None
    elif label == "server error":
        assert attempt.status == 503 and "503" in warnings[0]
    else:  # the thread was made; only the answer was lost
        assert rig.fake.channel(message["id"])["parent_id"] == channel_id
    # Votes still work on a post without its thread.
    click = rig.fake.click(message["id"], message["components"][0]["components"][0]["custom_id"])
    rig.fake.wait_callback(click.id)
    with rig.harness.database(write=False) as store:
        assert store.vote_count(post_id=post.id).up == 1
    rig.later()
    assert rig.post(channel_id).outcome is Out.ALREADY
    assert not trap.tracebacks(), trap.tracebacks()[0]
