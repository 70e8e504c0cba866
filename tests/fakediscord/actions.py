"""What members do, as gateway events: messages, edits, reactions, threads, slash, clicks."""

from __future__ import annotations

import copy
from collections.abc import Coroutine
from typing import Any, TypeVar

from . import messages
from .gateway import Gateway
from .interactions import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    InteractionRecord,
    command_data,
    interaction_payload,
    new_token,
    resolved_options,
)
from .model import JsonDict
from .server import LoopServer
from .state import State

T = TypeVar("T")


class MemberActions:
    """Mixin for FakeDiscord: each method changes the fake's state and dispatches the event.

    Each call returns once the event is written to the client's socket (a few ms), so the
    order of calls is the order of sequence numbers. They raise RuntimeError before any
    client has identified: call wait_ready() / await wait_ready_async() first.
    """

    state: State
    gateway: Gateway
    _server: LoopServer
    default_user_id: str
    channel_id: str

    def _on_loop(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine on the fake's loop (from the test's thread) -> its result."""
        return self._server.call(coro)

    def _send(self, *, event: str, data: JsonDict) -> int:
        """Dispatch an event to the identified client -> its sequence number."""
        seq = self._on_loop(self.gateway.dispatch(event=event, data=data, require_client=True))
        return int(seq or 0)

    def _guild_of(self, *, channel_id: str) -> str:
        """The guild a channel or thread is in."""
        return self.state.directory.guild_id_of(channel_id=channel_id)

    # -- messages --------------------------------------------------------------------------

    def user_says(
        self,
        channel_id: str | None = None,
        text: str = "",
        *,
        user: str | None = None,
        thread: str | None = None,
        embeds: list[JsonDict] | None = None,
        reply_to: str | None = None,
    ) -> JsonDict:
        """A member posts in a channel (or in `thread`) -> the stored message (MESSAGE_CREATE)."""
        target = thread or channel_id or self.channel_id
        author = self.state.directory.user(user_id=user or self.default_user_id)
        body: JsonDict = {"content": text, "embeds": embeds or []}
        if reply_to is not None:
            body["message_reference"] = {"message_id": reply_to}
        stored, _ = self.state.store.create(channel_id=target, author=author, body=body)
        self._send(
            event="MESSAGE_CREATE",
            data=self.state.message_event(stored=stored, intents=self.gateway.intents),
        )
        return stored

    def user_edits(self, message_id: str, text: str) -> JsonDict:
        """The author edits their message -> the edited message (MESSAGE_UPDATE)."""
        stored = self.state.store.get(channel_id=None, message_id=message_id)
        edited = self.state.store.edit(
            channel_id=stored["channel_id"],
            message_id=message_id,
            body={"content": text},
            editor_id=stored["author"]["id"],
        )
        self._send(
            event="MESSAGE_UPDATE",
            data=self.state.message_event(stored=edited, intents=self.gateway.intents),
        )
        return edited

    def user_deletes(self, message_id: str) -> None:
        """A message is deleted (MESSAGE_DELETE)."""
        channel_id = self.state.store.get(channel_id=None, message_id=message_id)["channel_id"]
        self.state.store.delete(channel_id=channel_id, message_id=message_id)
        guild_id = self._guild_of(channel_id=channel_id)
        self._send(
            event="MESSAGE_DELETE",
            data=messages.delete_event(
                message_id=message_id, channel_id=channel_id, guild_id=guild_id
            ),
        )

    def bulk_delete(self, channel_id: str, message_ids: list[str]) -> None:
        """A moderator purges messages (MESSAGE_DELETE_BULK)."""
        for message_id in message_ids:
            self.state.store.delete(channel_id=channel_id, message_id=message_id)
        guild_id = self._guild_of(channel_id=channel_id)
        self._send(
            event="MESSAGE_DELETE_BULK",
            data=messages.bulk_delete_event(
                ids=message_ids, channel_id=channel_id, guild_id=guild_id
            ),
        )

    # -- reactions -------------------------------------------------------------------------

    def react(self, message_id: str, emoji: str = "👍", *, user: str | None = None) -> None:
        """A member adds a reaction ("👍" or "name:id") (MESSAGE_REACTION_ADD)."""
        self._reaction(
            message_id=message_id, emoji_text=emoji, user=user or self.default_user_id, add=True
        )

    def unreact(self, message_id: str, emoji: str = "👍", *, user: str | None = None) -> None:
        """A member takes a reaction back (MESSAGE_REACTION_REMOVE)."""
        self._reaction(
            message_id=message_id, emoji_text=emoji, user=user or self.default_user_id, add=False
        )

    def _reaction(self, *, message_id: str, emoji_text: str, user: str, add: bool) -> None:
        """Count or uncount a member's reaction, then dispatch the matching event."""
        state = self.state
        emoji = messages.parse_emoji(text=emoji_text)
        with state.lock:
            stored = state.store.live(channel_id=None, message_id=message_id)
            change = messages.add_reaction if add else messages.remove_reaction
            if not change(stored=stored, emoji=emoji, user_id=user, me_id=state.bot_id):
                raise ValueError(
                    f"{user} {'already reacted' if add else 'has no reaction'} {emoji_text}"
                )
            snapshot = messages.public(stored=stored)
        state.journal.notify()
        guild_id = self._guild_of(channel_id=snapshot["channel_id"])
        member = state.directory.member(guild_id=guild_id, user_id=user) if add else None
        data = messages.reaction_event(
            added=add, stored=snapshot, guild_id=guild_id, user_id=user, emoji=emoji, member=member
        )
        self._send(event="MESSAGE_REACTION_ADD" if add else "MESSAGE_REACTION_REMOVE", data=data)

    # -- threads ---------------------------------------------------------------------------

    def user_creates_thread(
        self,
        channel_id: str | None = None,
        name: str = "discussion",
        *,
        user: str | None = None,
        private: bool = False,
        from_message: str | None = None,
    ) -> JsonDict:
        """A member starts a thread (from a message: it takes its id) (THREAD_CREATE)."""
        state, owner = self.state, user or self.default_user_id
        parent = channel_id or self.channel_id
        thread_id = from_message or state.ids.next()
        with state.lock:
            thread = state.directory.add_thread(
                parent_id=parent,
                id=thread_id,
                name=name,
                owner_id=owner,
                private=private,
                joined=[owner],
            )
            if from_message is not None:
                stored = state.store.live(channel_id=parent, message_id=from_message)
                stored["thread"] = copy.deepcopy(thread)
                stored["flags"] |= messages.HAS_THREAD
        self._send(event="THREAD_CREATE", data={**thread, "newly_created": True})
        return thread

    # -- interactions ----------------------------------------------------------------------

    def _interaction(
        self, *, type: int, data: JsonDict, user: str, channel_id: str, message: JsonDict | None
    ) -> InteractionRecord:
        """Record an interaction and dispatch its INTERACTION_CREATE -> a copy of the record."""
        state = self.state
        guild_id = self._guild_of(channel_id=channel_id)
        record = InteractionRecord(
            id=state.ids.next(),
            token=new_token(),
            type=type,
            channel_id=channel_id,
            guild_id=guild_id,
            user_id=user,
            payload={},
            message_id=None if message is None else message["id"],
        )
        record.payload = interaction_payload(
            id=record.id,
            token=record.token,
            type=type,
            application_id=state.app_id,
            guild_id=guild_id,
            channel=state.directory.channel_view(channel_id=channel_id),
            member=state.directory.member(guild_id=guild_id, user_id=user, permissions=True),
            data=data,
            message=message,
        )
        state.interactions.add(record=record)
        self._send(event="INTERACTION_CREATE", data=record.payload)
        return state.interactions.get(interaction_id=record.id)

    def slash(
        self,
        name: str,
        subcommand: str | None = None,
        options: dict[str, Any] | None = None,
        *,
        user: str | None = None,
        channel: str | None = None,
    ) -> InteractionRecord:
        """A member runs /name [group] [subcommand] with options -> the interaction record.

        The command's id, scope and option types come from what the client registered
        (bulk overwrite); options typed user (6) or channel (7) get `resolved` data.
        """
        state, user_id = self.state, user or self.default_user_id
        channel_id = channel or self.channel_id
        command = state.directory.find_command(
            name=name, guild_id=self._guild_of(channel_id=channel_id)
        )
        command_id = command["id"] if command is not None else state.ids.next()
        opts = dict(options or {})
        data, types = command_data(
            command=command,
            command_id=command_id,
            name=name,
            subcommand=subcommand,
            options=opts,
        )
        resolved = resolved_options(
            directory=state.directory,
            options=opts,
            types=types,
            guild_id=self._guild_of(channel_id=channel_id),
        )
        if resolved:
            data["resolved"] = resolved
        return self._interaction(
            type=APPLICATION_COMMAND, data=data, user=user_id, channel_id=channel_id, message=None
        )

    def click(
        self,
        message_id: str,
        custom_id: str,
        *,
        user: str | None = None,
        values: list[str] | None = None,
    ) -> InteractionRecord:
        """A member clicks a button (or picks select `values`) on a message -> the record."""
        state = self.state
        with state.lock:
            ephemeral = state.interactions.ephemerals.get(message_id)
            stored = messages.public(stored=ephemeral) if ephemeral else None
        if stored is None:
            stored = state.store.get(channel_id=None, message_id=message_id)
        component = messages.find_component(
            components=stored.get("components", []), custom_id=custom_id
        )
        if component is None:
            raise KeyError(f"message {message_id} has no component with custom_id {custom_id!r}")
        data: JsonDict = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] != 2:
            data["values"] = list(values or [])
        return self._interaction(
            type=MESSAGE_COMPONENT,
            data=data,
            user=user or self.default_user_id,
            channel_id=stored["channel_id"],
            message=stored,
        )
