"""Backoff, Retry-After and server errors: the client waits as asked (on the injected clock, so
nothing here sleeps), hands long waits back as ZoteroBusy, and gives up after its tries."""

from __future__ import annotations

import pytest

from bot.zotero import ZoteroBusy, ZoteroUnavailable

from .conftest import KEY, USER, Setup


def test_a_backoff_pauses_the_next_request_not_the_answer_it_came_with(zotero: Setup) -> None:
    zotero.fake.backoff_next(seconds=30)
    first = zotero.client.check_key()
    assert zotero.waits.slept == []  # the answer carrying Backoff is good and used
    zotero.client.check_key()
    assert first.user_id == USER and zotero.waits.slept == [30.0]
    zotero.client.check_key()
    assert zotero.waits.slept == [30.0]  # the pause is over


def test_a_429_with_retry_after_is_waited_out_and_sent_again(zotero: Setup) -> None:
    zotero.fake.fail_next(status=429, retry_after=7)
    access = zotero.client.check_key()
    assert access.user_id == USER and zotero.waits.slept == [7.0]
    assert [r.status for r in zotero.fake.requests] == [429, 200]


def test_a_long_retry_after_goes_back_to_the_caller(zotero: Setup) -> None:
    zotero.fake.fail_next(status=503, retry_after=3600)
    with pytest.raises(ZoteroBusy) as busy:
        zotero.client.changed_items(since=0)
    assert busy.value.retry_in == 3600 and zotero.waits.slept == []


def test_a_long_backoff_makes_the_next_call_busy_without_sending(zotero: Setup) -> None:
    zotero.fake.backoff_next(seconds=900)
    zotero.client.check_key()
    with pytest.raises(ZoteroBusy) as busy:
        zotero.client.check_key()
    assert busy.value.retry_in == 900 and len(zotero.fake.requests) == 1
    zotero.waits.now += 900
    assert zotero.client.check_key().user_id == USER


def test_server_errors_are_retried_with_growing_pauses_then_given_up(zotero: Setup) -> None:
    zotero.fake.fail_next(status=500, times=2)
    assert zotero.client.check_key().user_id == USER
    assert zotero.waits.slept == [1.0, 2.0]
    zotero.fake.fail_next(status=502, times=4)
    with pytest.raises(ZoteroUnavailable, match="4 tries"):
        zotero.client.check_key()
    assert zotero.waits.slept == [1.0, 2.0, 1.0, 2.0, 4.0]
    zotero.client.check_key()  # the pause after the last failure still holds the next call
    assert zotero.waits.slept == [1.0, 2.0, 1.0, 2.0, 4.0, 8.0]


def test_a_dropped_read_is_retried(zotero: Setup) -> None:
    zotero.fake.drop_next()
    assert zotero.client.check_key().user_id == USER
    assert [r.status for r in zotero.fake.requests] == [0, 200] and zotero.waits.slept == [1.0]


def test_a_429_without_retry_after_is_retried_after_a_pause(zotero: Setup) -> None:
    zotero.fake.fail_next(status=429)
    assert zotero.client.check_key().user_id == USER
    assert zotero.waits.slept == [1.0]


def test_a_sessions_repr_never_shows_its_key(zotero: Setup) -> None:
    shown = repr(zotero.client.session) + repr(zotero.client)
    assert KEY not in shown and "ZoteroSession(" in shown
