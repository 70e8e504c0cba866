"""The fake's whole memory in one place: directory, messages, interactions, journal."""

from __future__ import annotations

import copy

from . import messages, payloads
from .directory import Directory
from .directs import Directs
from .interactions import Interactions
from .journal import Journal
from .model import JsonDict, Snowflakes
from .ratelimits import RateLimits
from .scheduled import ScheduledEvents
from .store import MessageStore

MESSAGE_CONTENT_INTENT = 1 << 15


class State:
    """Everything the fake remembers; every part shares the journal's lock."""

    def __init__(self, *, token: str, bot_id: str, bot_name: str, app_id: str) -> None:
        self.token, self.app_id = token, app_id
        self.journal = Journal()
        self.lock = self.journal.lock
        self.ids = Snowflakes()
        bot = payloads.user(id=bot_id, username=bot_name, bot=True)
        self.directory = Directory(journal=self.journal, ids=self.ids, bot=bot, app_id=app_id)
        self.store = MessageStore(journal=self.journal, ids=self.ids, directory=self.directory)
        self.directs = Directs(directory=self.directory, ids=self.ids)
        self.interactions = Interactions(journal=self.journal)
        self.scheduled = ScheduledEvents(
            journal=self.journal, ids=self.ids, directory=self.directory
        )
        self.limits = RateLimits()
        self.owner_id = bot_id

    @property
    def bot_id(self) -> str:
        """The bot user's id."""
        return str(self.directory.bot["id"])

    def bot_user(self) -> JsonDict:
        """A copy of the bot's user object."""
        return copy.deepcopy(self.directory.bot)

    def application(self) -> JsonDict:
        """The bot's application object."""
        with self.lock:
            owner = self.directory.user(user_id=self.owner_id)
            return payloads.application(
                id=self.app_id,
                name=self.directory.bot["username"],
                owner=owner,
                bot=self.bot_user(),
            )

    def message_event(self, *, stored: JsonDict, intents: int) -> JsonDict:
        """MESSAGE_CREATE/UPDATE data for a stored message, as a client with `intents` gets it."""
        with self.lock:
            guild_id = self.directory.guild_id_of(channel_id=stored["channel_id"])
            author_id = stored["author"]["id"]
            member = None
            if "webhook_id" not in stored:
                member = self.directory.member(
                    guild_id=guild_id, user_id=author_id, with_user=False
                )
            data = messages.for_gateway(stored=stored, guild_id=guild_id, member=member)
        mentioned = any(m["id"] == self.bot_id for m in data["mentions"])
        if not intents & MESSAGE_CONTENT_INTENT and author_id != self.bot_id and not mentioned:
            # Without the privileged intent Discord blanks what people wrote (not the
            # message itself): the bot still hears of it, with nothing in it.
            data.update(content="", embeds=[], attachments=[], components=[])
            data.pop("poll", None)
        return data
