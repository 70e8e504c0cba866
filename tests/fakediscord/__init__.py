"""A fake Discord that speaks the real protocols: REST API v10 and the gateway WebSocket.

Tests run the real discord.py client (Client, ext.commands, app_commands) against it:

    with FakeDiscord() as fake, pointed_at(fake):  # Route.BASE, DEFAULT_GATEWAY
        async def scenario() -> None:
            client = discord.Client(intents=discord.Intents.all(), guild_ready_timeout=0.05)
            async with running(client, fake):          # on_ready reached
                fake.user_says(fake.channel_id, "hi")  # MESSAGE_CREATE from alice
                await fake.wait_request_async("POST", "/channels/{id}/messages")
        asyncio.run(scenario())

The product points discord.py at it itself with:
    discord.http.Route.BASE = fake.api_url  # http://127.0.0.1:PORT/api/v10
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)

Importing this package does not import discord.py; `tests.fakediscord.client` does.
"""

from .fake import ALICE_ID, BOB_ID, BOT_ID, GENERAL_ID, GUILD_ID, FakeDiscord
from .interactions import InteractionRecord
from .model import RecordedRequest

__all__ = [
    "ALICE_ID",
    "BOB_ID",
    "BOT_ID",
    "GENERAL_ID",
    "GUILD_ID",
    "FakeDiscord",
    "InteractionRecord",
    "RecordedRequest",
]
