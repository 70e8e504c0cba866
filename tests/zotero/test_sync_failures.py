"""Failures: a server asking to wait (429 with Retry-After, a Backoff) sets the link's retry
time and is never reported; a revoked key is reported once however many passes fail, and a
success clears it; a transient failure backs off, growing, and is reported once it lasts a
day; a paused link is not synced."""

from __future__ import annotations

from datetime import timedelta

from cryptography.fernet import Fernet

from bot.sealing import TokenCipher
from bot.zotero.sync import sync_due
from bot.zotero.sync_link import REVOKED, UNEXPECTED, UNREADABLE, LinkFailure
from tests.fakezotero import Answer
from tests.services.conftest import key
from tests.services.support import vote
from tests.zotero.conftest import KEY, USER
from tests.zotero.sync_support import C1, NOW, World, month_of_posts

LIBRARY = f"users/{USER}"


def test_429_with_retry_after_sets_the_retry_time_and_is_not_reported(world: World) -> None:
    month_of_posts(world)
    world.connect()
    world.fake.fail_next(status=429, retry_after=3600)
    busy = world.sync()
    assert (busy.synced, busy.failures) == (0, ())
    link = world.link()
    assert link.retry_at == NOW + timedelta(hours=1)
    assert (link.failures, link.reported, link.failing_since) == (0, False, None)
    asked = len(world.fake.requests)

    early = world.sync(now=NOW + timedelta(minutes=59))
    assert early.synced == 0 and len(world.fake.requests) == asked  # not due: not asked

    later = world.sync(now=NOW + timedelta(hours=1))
    assert (later.synced, later.created) == (1, 20)
    assert world.link().retry_at is None


def test_a_backoff_sets_the_retry_time_and_is_not_reported(world: World) -> None:
    month_of_posts(world)
    world.connect()
    world.fake.backoff_next(seconds=900)  # the first answer is good, but says to pause
    busy = world.sync()
    assert (busy.synced, busy.failures) == (0, ())
    assert world.link().retry_at == NOW + timedelta(seconds=900)
    assert world.waits.slept == []  # handed back to the scheduler, not slept through
    assert world.sync(now=NOW + timedelta(seconds=900)).synced == 1


def test_a_revoked_key_is_reported_once_and_cleared_by_a_success(world: World) -> None:
    posts = month_of_posts(world)
    world.connect()
    world.fake.revoke(key=KEY)
    first = world.sync()
    assert first.failures == (LinkFailure(channel=C1, library=LIBRARY, reason=REVOKED),)
    link = world.link()
    assert (link.failures, link.reported, link.failing_since) == (1, True, NOW)
    assert link.retry_at == NOW + timedelta(days=1)

    for day in (1, 2, 3):  # tried daily, failing, never reported again
        again = world.sync(now=NOW + timedelta(days=day))
        assert (again.synced, again.failures) == (0, ())
    assert world.link().failures == 4

    world.fake.grants[KEY].revoked = False  # a working key again
    mended = world.sync(now=NOW + timedelta(days=4))
    assert (mended.synced, mended.created, mended.failures) == (1, 20, ())
    link = world.link()
    assert (link.failures, link.reported, link.failing_since, link.last_error) == (
        0,
        False,
        None,
        "",
    )

    world.fake.revoke(key=KEY)  # a new run of failures: reported again, once
    vote(world.database, posts[0], user="U3", value=1, event="new-run", now=NOW)  # to write
    assert world.sync(now=NOW + timedelta(days=5)).failures == (LinkFailure(C1, LIBRARY, REVOKED),)


def test_a_key_no_secret_opens_is_reported(world: World) -> None:
    world.connect()
    world.cipher = TokenCipher(keys=[Fernet.generate_key().decode("ascii")])
    failed = world.sync()
    assert failed.failures == (LinkFailure(channel=C1, library=LIBRARY, reason=UNREADABLE),)
    assert world.fake.requests == []


def test_a_server_that_keeps_failing_backs_off_and_is_reported_after_a_day(
    world: World,
) -> None:
    month_of_posts(world)  # each pass has a create to send, after the collection's first
    world.connect()
    waits: list[timedelta] = []
    now = NOW
    for _ in range(3):
        world.fake.fail_next(status=500, times=4)  # every try of the pass's first request
        failed = world.sync(now=now)
        assert (failed.synced, failed.failures) == (0, ())
        link = world.link()
        assert link.retry_at is not None
        waits.append(link.retry_at - now)
        now = link.retry_at
    assert waits == [timedelta(minutes=5), timedelta(minutes=10), timedelta(minutes=20)]
    assert world.link().failing_since == NOW and not world.link().reported

    world.fake.fail_next(status=500, times=4)
    late = world.sync(now=NOW + timedelta(days=1))
    assert len(late.failures) == 1 and "HTTP 500" in late.failures[0].reason
    world.fake.fail_next(status=500, times=4)
    assert world.sync(now=NOW + timedelta(days=2)).failures == ()  # once a run
    assert world.sync(now=NOW + timedelta(days=3)).synced == 1
    assert not world.link().reported


def test_a_paused_link_is_not_synced(world: World) -> None:
    month_of_posts(world)
    world.connect()
    world.change_link(paused=True)
    assert world.sync().synced == 0
    assert world.fake.requests == []
    world.change_link(paused=False)
    assert world.sync().created == 20


def test_only_the_channels_asked_for_are_synced(world: World) -> None:
    world.connect()
    world.connect(channel=key("C2"))
    done = sync_due(
        uow=world.database,
        cipher=world.cipher,
        session_for=world.session_for,
        now=NOW,
        channels=[key("C2")],
    )
    assert done.synced == 1
    assert world.link(channel=key("C2")).synced_at == NOW
    assert world.link().synced_at is None


def test_an_unexpected_error_fails_its_link_alone(world: World) -> None:
    month_of_posts(world)
    world.connect()
    world.connect(channel=key("C2"))
    world.fake.seed(
        kind="users", id=USER, objects="collections", data=[{"key": "PAPR2345", "name": "PC"}]
    )
    world.change_link(destination="PAPR2345")  # the first link's first request: its creates
    odd = b'{"success": {"zero": "ABCD2345"}}'  # not an index: a ValueError in the client
    headers = {"Content-Type": "application/json", "Last-Modified-Version": "1"}
    world.fake.answer_next(Answer(200, odd, headers))
    done = world.sync()
    assert (done.synced, done.created, done.failures) == (1, 0, ())
    assert world.link(channel=key("C2")).synced_at == NOW
    failing = world.link()
    assert (failing.failures, failing.last_error, failing.reported) == (1, UNEXPECTED, False)
    assert failing.retry_at == NOW + timedelta(minutes=5)
    assert world.sync(now=NOW + timedelta(minutes=5)).created == 20
