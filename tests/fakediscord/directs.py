"""Direct messages: the bot's DM channel (type 1) with a person, opened by
POST /users/@me/channels, and who will not take the bot's messages there.

Discord answers the same DM channel for the same person every time. Opening one always works
for a known user; sending in it is refused with 403 50007 "Cannot send messages to this user"
when the person has closed their DMs, is a bot, or shares no guild with the bot. Message
events in a DM reach a client only with the DIRECT_MESSAGES intent, with no guild_id or member.
"""

from __future__ import annotations

import copy

from .directory import Directory
from .model import ApiError, JsonDict, Snowflakes

DIRECT_MESSAGES_INTENT = 1 << 12
DM_TYPE = 1


def dm_channel(*, id: str, recipient: JsonDict) -> JsonDict:
    """A DM channel object, as Discord documents it."""
    return {
        "id": id,
        "type": DM_TYPE,
        "last_message_id": None,
        "flags": 0,
        "recipients": [copy.deepcopy(recipient)],
    }


class Directs:
    """The DM channels by person, and whose DMs are closed; thread-safe (the journal's lock)."""

    def __init__(self, *, directory: Directory, ids: Snowflakes) -> None:
        self._dir, self._ids = directory, ids
        self.lock = directory.lock
        self._by_user: dict[str, str] = {}
        self._recipient: dict[str, str] = {}
        self._closed: set[str] = set()

    def open(self, *, recipient_id: str) -> JsonDict:
        """The DM channel with a person (made on first use); 400 50033 for an unknown user."""
        with self.lock:
            if recipient_id not in self._dir.users:
                raise ApiError(status=400, code=50033, message="Invalid Recipient(s)")
            channel_id = self._by_user.get(recipient_id)
            if channel_id is None:
                channel_id = self._ids.next()
                recipient = self._dir.user(user_id=recipient_id)
                self._dir.add_private(channel=dm_channel(id=channel_id, recipient=recipient))
                self._by_user[recipient_id] = channel_id
                self._recipient[channel_id] = recipient_id
            return copy.deepcopy(self._dir.channel(channel_id=channel_id))

    def close(self, *, user_id: str) -> None:
        """The person closes their DMs (a test's setup): the bot's messages are refused."""
        with self.lock:
            self._closed.add(user_id)

    def channel_of(self, *, user_id: str) -> str | None:
        """The id of the bot's DM channel with a person, if one was opened."""
        with self.lock:
            return self._by_user.get(user_id)

    def is_dm(self, *, channel_id: str) -> bool:
        """Whether the channel is one of the bot's DM channels."""
        with self.lock:
            return channel_id in self._recipient

    def check_sendable(self, *, channel_id: str) -> None:
        """403 50007 when the bot may not send in this DM channel; nothing for other channels."""
        with self.lock:
            user_id = self._recipient.get(channel_id)
            if user_id is None:
                return
            shares_a_guild = any(user_id in g.member_ids for g in self._dir.guilds.values())
            if user_id in self._closed or self._dir.users[user_id].get("bot") or not shares_a_guild:
                raise ApiError(status=403, code=50007, message="Cannot send messages to this user")

    def event(self, *, stored: JsonDict, intents: int) -> JsonDict | None:
        """MESSAGE_CREATE data for a message in a DM (no guild, no member), or None when the
        client's intents do not cover DMs."""
        if not intents & DIRECT_MESSAGES_INTENT:
            return None
        return copy.deepcopy(stored)
