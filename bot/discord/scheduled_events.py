"""ports.SessionEvents on Discord: each session a Guild Scheduled Event of the channel's server,
made, changed and deleted with discord.py's own REST calls (so its rate-limit handling applies),
run on the Discord loop through the bridge.

The event is EXTERNAL (entity_type 3: somewhere outside the server's voice channels), which
Discord makes say where (entity_metadata.location) and when it ends. A cancelled session's event
is deleted: Discord keeps a cancelled event only to show it ended, and never lets it come back.
Text is cut to Discord's limits (name and location 100, description 1,000) and keeps no
mention or token whole: events ping nobody, but "@everyone" should not even read as one.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord import markdown
from bot.discord.bridge import Bridge
from bot.discord.errors import FAILURES, chat_error
from bot.domain import ChannelKey
from bot.ports import ChatError
from bot.ports.session_events import SessionEvent

EXTERNAL = 3
GUILD_ONLY = 2  # the one privacy level Discord takes
NAME_MAX = 100
LOCATION_MAX = 100
DESCRIPTION_MAX = 1000
UNKNOWN_EVENT = 10070  # "Unknown Guild Scheduled Event": deleted in Discord meanwhile
MISSING_PERMISSIONS = 50013
EVENTS_HINT = (
    "the bot's role lacks Create Events in this server (Manage Events also does): give it "
    "so the meeting's sessions show as server events"
)


def _plain(*, text: str, limit: int, lines: bool = False) -> str:
    """Text within `limit` units: cleaned, whitespace squashed (line by line when `lines`),
    cut at a word, mentions and tokens broken up (which lengthens it: cut shorter then)."""
    raw = markdown.clean(text)
    raw = (
        "\n".join(filter(None, map(markdown.squash, raw.splitlines())))
        if lines
        else (markdown.squash(raw))
    )
    budget = limit
    while True:
        out = markdown.unpinged(markdown.clip(text=raw, limit=budget))
        if markdown.size(out) <= limit or budget <= 1:
            return out
        budget -= markdown.size(out) - limit


def payload(*, event: SessionEvent) -> dict[str, Any]:
    """The event as Discord's create and modify take it."""
    name = _plain(text=event.name, limit=NAME_MAX)
    tail = f"\n{event.marker}" if event.marker else ""
    told = _plain(text=event.description, limit=DESCRIPTION_MAX - len(tail), lines=True)
    return {
        "name": name,
        "description": told + tail,
        "entity_type": EXTERNAL,
        "entity_metadata": {"location": _plain(text=event.place, limit=LOCATION_MAX) or name},
        "privacy_level": GUILD_ONLY,
        "scheduled_start_time": event.start.isoformat(),
        "scheduled_end_time": event.end.isoformat(),
    }


def _refusal(*, error: Exception) -> ChatError:
    """The ChatError for a failed call, with what to do about a missing permission."""
    found = chat_error(error=error)
    if isinstance(error, discord.HTTPException) and error.code == MISSING_PERMISSIONS:
        return ChatError(code=found.code, hint=EVENTS_HINT, posted_nothing=found.posted_nothing)
    return found


def _unknown(error: Exception) -> bool:
    """Whether Discord says the event is gone."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_EVENT


class DiscordSessionEvents:
    """The sessions' scheduled events, in the server (guild) of each channel."""

    def __init__(self, *, client: discord.Client, bridge: Bridge) -> None:
        """Calls go through `client.http` on the bridge's loop."""
        self.client = client
        self.bridge = bridge

    def publish_event(
        self, *, channel: ChannelKey, event_id: str | None, event: SessionEvent
    ) -> str:
        """POST the event, or PATCH it; one deleted in Discord meanwhile is made anew."""
        body = payload(event=event)
        http = self.client.http
        try:
            if event_id is not None:
                try:
                    self.bridge.call(http.edit_scheduled_event(channel.workspace, event_id, **body))
                    return event_id
                except discord.NotFound as error:
                    if not _unknown(error):
                        raise
            found = self._made_before(channel=channel, event=event)
            if found is not None:  # made by a process that died before noting it
                self.bridge.call(http.edit_scheduled_event(channel.workspace, found, **body))
                return found
            made = self.bridge.call(http.create_guild_scheduled_event(channel.workspace, **body))
        except FAILURES as error:
            raise _refusal(error=error) from None
        return str(made["id"])

    def _made_before(self, *, channel: ChannelKey, event: SessionEvent) -> str | None:
        """The id of the guild's event of this session, if one was made and never noted (a
        crash or a timeout between Discord's answer and the note): found by its marker."""
        if not event.marker:
            return None
        listed = self.bridge.call(self.client.http.get_scheduled_events(channel.workspace, False))
        for made in listed:
            if str(made.get("description") or "").endswith(event.marker):
                return str(made["id"])
        return None

    def remove_event(self, *, channel: ChannelKey, event_id: str) -> None:
        """DELETE the event; one already gone is no error."""
        http = self.client.http
        try:
            self.bridge.call(http.delete_scheduled_event(channel.workspace, event_id))
        except FAILURES as error:
            if not _unknown(error):
                raise _refusal(error=error) from None
