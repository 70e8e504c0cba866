"""Injected faults as discord.py lives through them: 429s, 5xx, dropped gateway connections."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.client import running

Run = Callable[[Coroutine[Any, Any, None]], None]
MakeClient = Callable[..., discord.Client]
MESSAGES = "/channels/{id}/messages"


def test_a_429_on_message_create_is_retried_and_succeeds(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    fake.fail_next("POST", MESSAGES, status=429, retry_after=0.05)

    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            sent = await client.get_partial_messageable(int(fake.channel_id)).send("after a wait")
            assert sent.content == "after a wait"

    run(scenario())
    limited, created = fake.requests("POST", MESSAGES)
    assert (limited.status, created.status) == (429, 200)
    assert limited.response == {
        "message": "You are being rate limited.",
        "retry_after": 0.05,
        "global": False,
    }
    assert limited.json == created.json  # the same body, sent again
    assert [m["content"] for m in fake.messages()] == ["after a wait"]


def test_the_429_answer_carries_discords_headers(fake: FakeDiscord, run: Run) -> None:
    fake.fail_next("GET", "/gateway/bot", status=429, retry_after=2.5, is_global=True)

    async def scenario() -> None:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{fake.api_url}/gateway/bot", headers=headers) as got,
        ):
            assert got.status == 429 and got.headers["Content-Type"] == "application/json"
            assert got.headers["Retry-After"] == "3"
            assert got.headers["X-RateLimit-Remaining"] == "0"
            assert got.headers["X-RateLimit-Reset-After"] == "2.500"
            assert got.headers["X-RateLimit-Global"] == "true"
            # discord.py retries a 429 only when Via is set (no Via: "banned by Cloudflare").
            assert got.headers["Via"] == "1.1 google"
            assert (await got.json())["global"] is True

    run(scenario())


def test_server_errors_500_is_retried_503_is_raised(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    fake.fail_next("POST", MESSAGES, status=500)

    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            channel = client.get_partial_messageable(int(fake.channel_id))
            await channel.send("retried")  # discord.py sleeps 1 s, then retries a 500
            fake.fail_next("POST", MESSAGES, status=503)
            with pytest.raises(discord.DiscordServerError) as failed:
                await channel.send("not retried")
            assert failed.value.status == 503

    run(scenario())
    assert [r.status for r in fake.requests("POST", MESSAGES)] == [500, 200, 503]
    assert [m["content"] for m in fake.messages()] == ["retried"]


@pytest.mark.parametrize("abrupt", [False, True], ids=["close-4000", "tcp-reset"])
def test_a_dropped_connection_is_resumed_and_the_missed_event_replayed(
    fake: FakeDiscord, run: Run, make_client: MakeClient, abrupt: bool
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            fake.user_says(text="before the drop")
            await client.wait_for("message", timeout=5)
            with fake.disconnected(code=4000, abrupt=abrupt):
                missed = fake.user_says(text="while you were away")
            replayed = await client.wait_for("message", timeout=5)
            assert (replayed.id, replayed.content) == (int(missed["id"]), "while you were away")
            await fake.wait_resumed_async()
            fake.user_says(text="after the resume")
            assert (await client.wait_for("message", timeout=5)).content == "after the resume"

    run(scenario())
    counts = fake.counts
    assert (counts["identifies"], counts["resumes"], counts["replayed"]) == (1, 1, 1)
    first, second = fake.connections()
    # The RESUME went to READY's resume_gateway_url, not to DEFAULT_GATEWAY.
    assert (first["path"], second["path"]) == ("/gateway", "/gateway-resume")
    resume = fake.gateway_frames(op=6)[0]["d"]
    assert resume["session_id"] == fake.session_id and resume["token"] == fake.token
    # READY was 1, GUILD_CREATE 2, the first message 3: the client had seen up to 3.
    assert resume["seq"] == 3


def test_op7_reconnect_makes_the_client_resume(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            resumed = client.wait_for("resumed", timeout=5)
            fake.send_reconnect()
            await resumed
            fake.user_says(text="still here")
            assert (await client.wait_for("message", timeout=5)).content == "still here"

    run(scenario())
    assert fake.counts["resumes"] == 1 and fake.counts["identifies"] == 1
