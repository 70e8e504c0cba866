"""Injected failures, as slack_sdk's clients and retry handlers experience them."""

from __future__ import annotations

from http.client import RemoteDisconnected
from types import SimpleNamespace

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry import (
    ConnectionErrorRetryHandler,
    FixedValueRetryIntervalCalculator,
    RateLimitErrorRetryHandler,
    builtin_handlers,
)
from slack_sdk.http_retry.builtin_handlers import ServerErrorRetryHandler
from slack_sdk.webhook import WebhookClient

from tests.fakeslack import RESPONSE_URL, FakeSlack

NO_WAIT = FixedValueRetryIntervalCalculator(0.0)  # its keyword is misspelled


def test_429_carries_retry_after_and_stores_nothing(fake: FakeSlack) -> None:
    fake.fail_next("chat.postMessage", status=429, retry_after=7)
    with pytest.raises(SlackApiError) as info:
        fake.client().chat_postMessage(channel="C0001", text="x")
    assert info.value.response.status_code == 429
    assert info.value.response["error"] == "ratelimited"
    assert info.value.response.headers["Retry-After"] == "7"
    assert fake.messages("C0001") == []
    # The next call goes through: the failure was for one call only.
    fake.client().chat_postMessage(channel="C0001", text="x")
    assert len(fake.messages("C0001")) == 1


def test_rate_limit_retry_handler_really_retries(
    fake: FakeSlack, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.fail_next("chat.postMessage", status=429, retry_after=0)
    client = fake.client(retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=1)])
    waits: list[float] = []
    # Only the handler's own clock is replaced: the waits it would make are recorded.
    monkeypatch.setattr(builtin_handlers, "time", SimpleNamespace(sleep=waits.append))
    response = client.chat_postMessage(channel="C0001", text="x")
    assert response["ok"] is True
    # The handler waits Retry-After (0 here) plus up to 1 s of random() jitter.
    assert len(waits) == 1 and waits[0] < 1, waits
    assert [r.status for r in fake.requests("chat.postMessage")] == [429, 200]
    assert len(fake.messages("C0001")) == 1


def test_server_errors_and_the_server_error_retry_handler(fake: FakeSlack) -> None:
    fake.fail_next("conversations.history", status=503)
    with pytest.raises(SlackApiError) as info:
        fake.client().conversations_history(channel="C0001")
    assert info.value.response.status_code == 503
    fake.fail_next("conversations.history", status=500, times=2)
    handler = ServerErrorRetryHandler(max_retry_count=2, interval_calculator=NO_WAIT)
    assert fake.client(retry_handlers=[handler]).conversations_history(channel="C0001")["ok"]
    assert [r.status for r in fake.requests("conversations.history")] == [503, 500, 500, 200]


def test_error_code_answer_is_http_200(fake: FakeSlack) -> None:
    fake.fail_next("users.info", error="fatal_error")
    with pytest.raises(SlackApiError) as info:
        fake.client().users_info(user="U0001")
    assert info.value.response.status_code == 200
    assert info.value.response["error"] == "fatal_error"


def test_failure_after_effect_stores_the_message(fake: FakeSlack) -> None:
    fake.fail_next("chat.postMessage", status=500, after_effect=True)
    with pytest.raises(SlackApiError):
        fake.client().chat_postMessage(channel="C0001", text="posted anyway")
    assert [m["text"] for m in fake.messages("C0001")] == ["posted anyway"]


def test_dropped_connection_after_effect_doubles_a_naive_retry(fake: FakeSlack) -> None:
    # slack_sdk retries connection errors by default; a post whose answer was lost is sent
    # again and Slack stores it twice. This is what exactly-once code must survive.
    fake.fail_next("chat.postMessage", drop=True, after_effect=True)
    retrying = [ConnectionErrorRetryHandler(interval_calculator=NO_WAIT)]
    fake.client(retry_handlers=retrying).chat_postMessage(channel="C0001", text="daily paper")
    assert [m["text"] for m in fake.messages("C0001")] == ["daily paper", "daily paper"]
    assert [r.status for r in fake.requests("chat.postMessage")] == [0, 200]


def test_dropped_connection_without_retries_raises(fake: FakeSlack) -> None:
    fake.fail_next("chat.postMessage", drop=True)
    with pytest.raises(RemoteDisconnected):
        fake.client(retry_handlers=[]).chat_postMessage(channel="C0001", text="x")
    assert fake.messages("C0001") == []


def test_delay_makes_the_client_time_out(fake: FakeSlack) -> None:
    fake.delay_next("chat.postMessage", 5)
    # The answer would come after 5 s: a TimeoutError means the client gave up before it.
    with pytest.raises(TimeoutError):
        fake.client(timeout=0.3, retry_handlers=[]).chat_postMessage(channel="C0001", text="x")
    # stop() cuts the pending delay short: the fixture's teardown stays fast.


def test_response_url_failures(fake: FakeSlack) -> None:
    url = fake.new_response_url()
    fake.fail_next(RESPONSE_URL, status=500)
    assert WebhookClient(url).send(text="first").status_code == 500
    assert WebhookClient(url).send(text="second").status_code == 200
    assert fake.responses(url) == [{"text": "second"}]
    assert WebhookClient(url + "x").send(text="lost").status_code == 404
