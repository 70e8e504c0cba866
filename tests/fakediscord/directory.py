"""Who and where: users, guilds, roles, members, channels, threads and registered commands."""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field

from . import channels, payloads
from .journal import Journal
from .model import ApiError, JsonDict, Snowflakes, iso, unknown

TEXT_TYPES = (0, 5)
THREAD_TYPES = (10, 11, 12)
# What @everyone may do in the fake's guilds: view, send, read history, react, threads.
EVERYONE_PERMISSIONS = str(
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 35) | (1 << 38)
)


@dataclass
class Guild:
    """A guild the bot is in: its roles and, in order, its channels, threads and members."""

    id: str
    name: str
    owner_id: str
    bot_role_id: str
    joined_at: str = field(default_factory=iso)
    roles: list[JsonDict] = field(default_factory=list)
    channel_ids: list[str] = field(default_factory=list)
    thread_ids: list[str] = field(default_factory=list)
    member_ids: list[str] = field(default_factory=list)


class Directory:
    """Every user, guild, member, channel and thread the fake knows; thread-safe."""

    def __init__(self, *, journal: Journal, ids: Snowflakes, bot: JsonDict, app_id: str) -> None:
        self._journal, self._ids = journal, ids
        self.lock = journal.lock
        self.bot, self.app_id = bot, app_id
        self.users: dict[str, JsonDict] = {bot["id"]: bot}
        self.guilds: dict[str, Guild] = {}
        self._members: dict[tuple[str, str], JsonDict] = {}
        self._channels: dict[str, JsonDict] = {}
        self._thread_members: dict[str, list[str]] = {}
        self.refused: set[str] = set()
        self._commands: dict[str | None, list[JsonDict]] = {}
        self._versions = itertools.count(1)

    # -- setup -----------------------------------------------------------------------------

    def add_user(self, *, id: str, username: str, global_name: str | None, bot: bool) -> JsonDict:
        """Create a user (a copy is returned)."""
        with self.lock:
            self.users[id] = payloads.user(
                id=id, username=username, global_name=global_name, bot=bot
            )
            return copy.deepcopy(self.users[id])

    def add_guild(self, *, id: str, name: str, owner_id: str) -> Guild:
        """Create a guild with @everyone and the bot's managed role; the bot joins it."""
        with self.lock:
            bot_role = self._ids.next()
            guild = Guild(id=id, name=name, owner_id=owner_id, bot_role_id=bot_role)
            guild.roles = [
                payloads.role(
                    id=id, name="@everyone", position=0, permissions=EVERYONE_PERMISSIONS
                ),
                payloads.role(
                    id=bot_role,
                    name=self.bot["username"],
                    position=1,
                    permissions=payloads.ALL_PERMISSIONS,
                    bot_id=self.bot["id"],
                ),
            ]
            self.guilds[id] = guild
            self.add_member(guild_id=id, user_id=self.bot["id"], roles=[bot_role], nick=None)
            return guild

    def add_member(
        self, *, guild_id: str, user_id: str, roles: list[str], nick: str | None
    ) -> None:
        """Make a known user a member of a guild."""
        with self.lock:
            guild = self.guild(guild_id=guild_id)
            self._members[(guild_id, user_id)] = {
                "roles": list(roles),
                "nick": nick,
                "joined_at": iso(),
            }
            if user_id not in guild.member_ids:
                guild.member_ids.append(user_id)

    def add_channel(
        self, *, guild_id: str, id: str, name: str, refused: bool, private: bool = False
    ) -> JsonDict:
        """Create a text channel; refused=True hides it from the bot (REST answers 403),
        private=True from @everyone (the bot still sees it, as if invited)."""
        with self.lock:
            guild = self.guild(guild_id=guild_id)
            overwrites = [channels.deny_view(user_id=self.bot["id"])] if refused else []
            if private:
                overwrites.append(channels.deny_everyone(guild_id=guild_id))
            channel = channels.text_channel(
                id=id,
                guild_id=guild_id,
                name=name,
                position=len(guild.channel_ids),
                overwrites=overwrites,
            )
            self._channels[id] = channel
            guild.channel_ids.append(id)
            if refused:
                self.refused.add(id)
            return copy.deepcopy(channel)

    def add_thread(
        self, *, parent_id: str, id: str, name: str, owner_id: str, private: bool, joined: list[str]
    ) -> JsonDict:
        """Create a thread under a text channel; `joined` are its members (the bot too)."""
        with self.lock:
            parent = self.channel(channel_id=parent_id)
            if parent["type"] not in TEXT_TYPES:
                raise ApiError(
                    status=400, code=50024, message="Cannot execute action on this channel type"
                )
            thread = channels.thread(
                id=id,
                guild_id=parent["guild_id"],
                parent_id=parent_id,
                owner_id=owner_id,
                name=name,
                private=private,
            )
            self._thread_members[id] = list(dict.fromkeys(joined))
            thread["member_count"] = len(self._thread_members[id])
            self._channels[id] = thread
            self.guilds[parent["guild_id"]].thread_ids.append(id)
            return self.thread_view(thread_id=id)

    def add_private(self, *, channel: JsonDict) -> None:
        """Keep a channel that belongs to no guild (a DM channel, directs.py)."""
        with self.lock:
            self._channels[channel["id"]] = channel

    # -- lookups ---------------------------------------------------------------------------

    def guild(self, *, guild_id: str) -> Guild:
        """A guild, or 404 Unknown Guild."""
        with self.lock:
            if guild_id not in self.guilds:
                raise unknown(what="Guild", code=10004)
            return self.guilds[guild_id]

    def user(self, *, user_id: str) -> JsonDict:
        """A user (a copy), or 404 Unknown User."""
        with self.lock:
            if user_id not in self.users:
                raise unknown(what="User", code=10013)
            return copy.deepcopy(self.users[user_id])

    def channel(self, *, channel_id: str) -> JsonDict:
        """The live channel or thread payload, or 404 Unknown Channel."""
        with self.lock:
            if channel_id not in self._channels:
                raise unknown(what="Channel", code=10003)
            return self._channels[channel_id]

    def accessible(self, *, channel_id: str) -> JsonDict:
        """The live channel payload, or 404 if unknown, 403 Missing Access if refused."""
        with self.lock:
            channel = self.channel(channel_id=channel_id)
            if channel_id in self.refused or channel.get("parent_id") in self.refused:
                raise ApiError(status=403, code=50001, message="Missing Access")
            return channel

    def channel_view(self, *, channel_id: str) -> JsonDict:
        """What GET /channels/{id} answers: a copy, with the bot's thread membership."""
        with self.lock:
            channel = self.accessible(channel_id=channel_id)
            if channel["type"] in THREAD_TYPES:
                return self.thread_view(thread_id=channel_id)
            return copy.deepcopy(channel)

    def thread_view(self, *, thread_id: str) -> JsonDict:
        """A thread copy with `member` (the bot's thread member) when the bot has joined."""
        with self.lock:
            thread = copy.deepcopy(self._channels[thread_id])
            if self.bot["id"] in self._thread_members.get(thread_id, []):
                thread["member"] = channels.thread_member(
                    thread_id=thread_id, user_id=self.bot["id"]
                )
            return thread

    def guild_id_of(self, *, channel_id: str) -> str:
        """The guild a channel or thread belongs to."""
        return str(self.channel(channel_id=channel_id)["guild_id"])

    def member(
        self, *, guild_id: str, user_id: str, with_user: bool = True, permissions: bool = False
    ) -> JsonDict:
        """A member payload, or 404 Unknown Member; permissions=True adds the interaction field."""
        with self.lock:
            if (guild_id, user_id) not in self._members:
                raise unknown(what="Member", code=10007)
            stored = self._members[(guild_id, user_id)]
            return payloads.member(
                user_payload=copy.deepcopy(self.users[user_id]),
                roles=stored["roles"],
                joined_at=stored["joined_at"],
                nick=stored["nick"],
                with_user=with_user,
                permissions=payloads.ALL_PERMISSIONS if permissions else None,
            )

    def gateway_guild(self, *, guild_id: str) -> JsonDict:
        """The GUILD_CREATE payload: guild, channels, active threads and every member."""
        with self.lock:
            guild = self.guild(guild_id=guild_id)
            return payloads.gateway_guild(
                rest=self.rest_guild(guild_id=guild_id),
                joined_at=guild.joined_at,
                channels=[copy.deepcopy(self._channels[c]) for c in guild.channel_ids],
                threads=[self.thread_view(thread_id=t) for t in guild.thread_ids],
                members=[self.member(guild_id=guild_id, user_id=u) for u in guild.member_ids],
            )

    def rest_guild(self, *, guild_id: str) -> JsonDict:
        """The GET /guilds/{id} payload."""
        with self.lock:
            guild = self.guild(guild_id=guild_id)
            return payloads.guild(
                id=guild.id,
                name=guild.name,
                owner_id=guild.owner_id,
                roles=copy.deepcopy(guild.roles),
            )

    # -- application commands --------------------------------------------------------------

    def set_commands(self, *, guild_id: str | None, specs: list[JsonDict]) -> list[JsonDict]:
        """Bulk overwrite: replace a scope's commands, keeping ids of names already known."""
        with self.lock:
            old = {c["name"]: c["id"] for c in self._commands.get(guild_id, [])}
            version = str(next(self._versions))
            self._commands[guild_id] = [
                payloads.command(
                    spec=spec,
                    id=old.get(spec["name"]) or self._ids.next(),
                    application_id=self.app_id,
                    guild_id=guild_id,
                    version=version,
                )
                for spec in specs
            ]
            return copy.deepcopy(self._commands[guild_id])

    def commands(self, *, guild_id: str | None) -> list[JsonDict]:
        """A scope's registered commands (copies)."""
        with self.lock:
            return copy.deepcopy(self._commands.get(guild_id, []))

    def find_command(self, *, name: str, guild_id: str | None) -> JsonDict | None:
        """The registered command a user would run by that name there: guild first, then global."""
        with self.lock:
            scopes = [guild_id, None] if guild_id is not None else [None]
            for scope in scopes:
                for command in self._commands.get(scope, []):
                    if command["name"] == name:
                        return copy.deepcopy(command)
            return None
