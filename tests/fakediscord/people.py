"""What people do on Discord whether or not the bot's gateway session is alive.

Discord keeps what a person does (a reaction, a reply in a thread, its edit or deletion) and
tells the sessions that are connected. A session that dropped gets what it missed when it
RESUMEs; a new session (IDENTIFY: a restarted bot) is told nothing of the past: it has to read
it back (GET the message's reactions, the thread's history). So these never need a client:
the change is stored, then dispatched to the newest session, which sends it when connected and
keeps it for a RESUME otherwise (bot killed: never resumed, so never delivered).
"""

from __future__ import annotations

import copy
from collections.abc import Coroutine
from typing import Any, TypeVar

from . import messages
from .gateway import Gateway
from .model import JsonDict
from .server import LoopServer
from .state import State

T = TypeVar("T")


class People:
    """The people of the fake guild (`FakeDiscord.people`)."""

    def __init__(self, *, state: State, gateway: Gateway, server: LoopServer) -> None:
        self._state, self._gateway, self._server = state, gateway, server

    def _send(self, *, event: str, data: JsonDict) -> int | None:
        """Dispatch to the newest session, if any -> its sequence number (None: no session)."""
        coro: Coroutine[Any, Any, int | None] = self._gateway.dispatch(
            event=event, data=data, require_client=False
        )
        return self._server.call(coro)

    @property
    def live(self) -> bool:
        """Whether a session is connected right now (an event sent now reaches the bot)."""
        with self._state.lock:
            current = self._gateway.current
            return current is not None and current.conn is not None

    # -- reactions -------------------------------------------------------------------------

    def react(self, message_id: str, emoji: str, *, user: str, added: bool = True) -> bool:
        """`user` adds (or, added=False, removes) a reaction ("👍", "👍🏽" or "name:id") ->
        whether the message changed (False: they had reacted so already, or had not)."""
        state = self._state
        parsed = messages.parse_emoji(text=emoji)
        with state.lock:
            stored = state.store.live(channel_id=None, message_id=message_id)
            change = messages.add_reaction if added else messages.remove_reaction
            changed = change(stored=stored, emoji=parsed, user_id=user, me_id=state.bot_id)
            snapshot = messages.public(stored=stored)
        state.journal.notify()
        if changed:
            guild_id = state.directory.guild_id_of(channel_id=snapshot["channel_id"])
            member = state.directory.member(guild_id=guild_id, user_id=user) if added else None
            data = messages.reaction_event(
                added=added,
                stored=snapshot,
                guild_id=guild_id,
                user_id=user,
                emoji=parsed,
                member=member,
            )
            self._send(
                event="MESSAGE_REACTION_ADD" if added else "MESSAGE_REACTION_REMOVE", data=data
            )
        return changed

    def unreact(self, message_id: str, emoji: str, *, user: str) -> bool:
        """`user` takes a reaction back -> whether they had it."""
        return self.react(message_id, emoji, user=user, added=False)

    # -- messages in threads (or channels) -------------------------------------------------

    def start_thread(self, message_id: str, name: str, *, user: str) -> JsonDict:
        """`user` starts a public thread from a message (it takes the message's id) -> the
        thread (THREAD_CREATE)."""
        state = self._state
        with state.lock:
            stored = state.store.live(channel_id=None, message_id=message_id)
            thread = state.directory.add_thread(
                parent_id=stored["channel_id"],
                id=message_id,
                name=name,
                owner_id=user,
                private=False,
                joined=[user],
            )
            stored["thread"] = copy.deepcopy(thread)
            stored["flags"] |= messages.HAS_THREAD
        self._send(event="THREAD_CREATE", data={**thread, "newly_created": True})
        return thread

    def say(self, channel_id: str, text: str, *, user: str) -> JsonDict:
        """`user` writes in a channel or thread -> the stored message (MESSAGE_CREATE)."""
        state = self._state
        author = state.directory.user(user_id=user)
        stored, _ = state.store.create(channel_id=channel_id, author=author, body={"content": text})
        self._send(
            event="MESSAGE_CREATE",
            data=state.message_event(stored=stored, intents=self._gateway.intents),
        )
        return stored

    def edit(self, message_id: str, text: str) -> JsonDict:
        """The author edits their message -> the edited message (MESSAGE_UPDATE)."""
        state = self._state
        stored = state.store.get(channel_id=None, message_id=message_id)
        edited = state.store.edit(
            channel_id=stored["channel_id"],
            message_id=message_id,
            body={"content": text},
            editor_id=stored["author"]["id"],
        )
        self._send(
            event="MESSAGE_UPDATE",
            data=state.message_event(stored=edited, intents=self._gateway.intents),
        )
        return edited

    def delete(self, message_id: str) -> None:
        """The message is deleted (MESSAGE_DELETE)."""
        state = self._state
        channel_id = state.store.get(channel_id=None, message_id=message_id)["channel_id"]
        state.store.delete(channel_id=channel_id, message_id=message_id)
        guild_id = state.directory.guild_id_of(channel_id=channel_id)
        data = messages.delete_event(
            message_id=message_id, channel_id=channel_id, guild_id=guild_id
        )
        self._send(event="MESSAGE_DELETE", data=data)

    def reactions(self, message_id: str) -> dict[str, list[str]]:
        """Who reacted with what on a message: emoji ("👍", "name:id") -> user ids, in order."""
        with self._state.lock:
            stored = self._state.store.live(channel_id=None, message_id=message_id)
            return {
                _spelled(emoji=r["emoji"]): list(r["_users"]) for r in stored.get("reactions", [])
            }


def _spelled(*, emoji: JsonDict) -> str:
    """An emoji as a route spells it: the character, or name:id."""
    return str(emoji["name"]) if emoji["id"] is None else f"{emoji['name']}:{emoji['id']}"
