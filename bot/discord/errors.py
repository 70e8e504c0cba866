"""Discord's refusals and failures as the core's ChatError, with a hint for the operator."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import aiohttp
import discord

from bot.ports import ChatError
from bot.services.telemetry import Telemetry

# bot.discord.deps.PLATFORM, which imports this module (through chat.py): named again here.
PLATFORM = "discord"

# Discord's JSON error codes that an operator can fix, with what to do.
HINTS = {
    10003: "the channel is gone, or the id is wrong",
    10008: "the message is gone (deleted in Discord)",
    50001: "the bot cannot see this channel: give its role View Channel there",
    50013: (
        "the bot's role lacks a permission in this channel: it needs View Channel, Send "
        "Messages, Embed Links, Create Public Threads and Send Messages in Threads"
    ),
    10013: "no such Discord user (the id is wrong, or the account is gone)",
    50007: "the member does not take direct messages from the bot (their privacy settings, "
    "or no server in common)",
    50035: "Discord refused the message's shape (a bug in Paper Club: please report it)",
    40001: "the bot token was refused: copy it again from the developer portal",
}


def chat_error(*, error: Exception) -> ChatError:
    """The ChatError for what discord.py raised; `posted_nothing` only when Discord surely
    refused (a 4xx answer), never for a server error or a lost connection."""
    if isinstance(error, discord.RateLimited):
        return ChatError(
            code="rate_limited",
            hint=f"Discord asks to wait {error.retry_after:.0f}s; it is tried again later",
            posted_nothing=True,
        )
    if isinstance(error, discord.HTTPException):
        status = error.status
        code = f"{status}/{error.code}" if error.code else str(status)
        if status >= 500:
            hint = "Discord had a server error; history is checked before any retry"
            return ChatError(code=code, hint=hint, posted_nothing=False)
        hint = HINTS.get(error.code) or (error.text or "Discord refused the request")[:200]
        return ChatError(code=code, hint=hint, posted_nothing=True)
    return connection_error(error=error)


def connection_error(*, error: BaseException) -> ChatError:
    """A lost connection or a timeout: the call may or may not have reached Discord."""
    name = "timeout" if isinstance(error, asyncio.TimeoutError | TimeoutError) else "connection"
    return ChatError(code=name, hint=f"Discord could not be reached: {error}", posted_nothing=False)


# What a REST call can raise besides an answer: these are turned into ChatError.
FAILURES = (
    discord.HTTPException,
    discord.RateLimited,
    aiohttp.ClientError,
    OSError,
    asyncio.TimeoutError,
)


def error_trace(*, telemetry: Telemetry) -> aiohttp.TraceConfig:
    """A trace for discord.py's HTTP session that counts every error answer into `telemetry`:
    REST calls and interaction answers (which go by webhook, past discord.py's request()) alike,
    and the 429s and 5xx discord.py retries by itself."""

    async def count_error(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        """An answer's headers came: count it when it is an error."""
        if params.response.status >= 400:
            code = await answer_code(response=params.response)
            telemetry.api_error(platform=PLATFORM, code=code)

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(count_error)
    return trace


async def answer_code(*, response: aiohttp.ClientResponse) -> str:
    """Discord's JSON error code of an error answer (50013, ...), else its HTTP status (a 429
    says code 0 or none). The body read here is kept: discord.py reads the same bytes again."""
    if response.content_type == "application/json":
        try:
            body = json.loads(await response.read())
        except (TimeoutError, aiohttp.ClientError, ValueError):
            body = None  # discord.py meets the same failure and reports it
        code = body.get("code") if isinstance(body, dict) else None
        if isinstance(code, int) and code > 0:
            return str(code)
    return str(response.status)
