"""Messages per channel and thread: create (with nonces), edit, delete, history, reactions."""

from __future__ import annotations

import copy
import re

from . import messages
from .directory import THREAD_TYPES, Directory
from .journal import Journal
from .model import ApiError, JsonDict, Snowflakes, unknown
from .validation import field_error

MENTION = re.compile(r"<@!?(\d+)>")


class MessageStore:
    """Every stored message, oldest first per channel; thread-safe (the journal's lock)."""

    def __init__(self, *, journal: Journal, ids: Snowflakes, directory: Directory) -> None:
        self._journal, self._ids, self._dir = journal, ids, directory
        self.lock = journal.lock
        self._messages: dict[str, list[JsonDict]] = {}
        self._where: dict[str, str] = {}
        self._nonces: dict[tuple[str, str], str] = {}

    def create(
        self,
        *,
        channel_id: str,
        author: JsonDict,
        body: JsonDict,
        webhook_id: str | None = None,
        application_id: str | None = None,
        attachments: list[JsonDict] | None = None,
        id: str | None = None,
        extra: JsonDict | None = None,
    ) -> tuple[JsonDict, bool]:
        """Store a new message -> (a copy, True); a repeated enforced nonce -> (old one, False)."""
        with self.lock:
            channel = self._dir.channel(channel_id=channel_id)
            nonce = None if body.get("nonce") is None else str(body["nonce"])
            key = (channel_id, nonce or "")
            if nonce is not None and body.get("enforce_nonce") and key in self._nonces:
                return self.get(channel_id=channel_id, message_id=self._nonces[key]), False
            stored = messages.message(
                id=id or self._ids.next(),
                channel_id=channel_id,
                author=author,
                content=str(body.get("content") or ""),
                embeds=body.get("embeds"),
                components=body.get("components"),
                flags=int(body.get("flags") or 0),
                nonce=nonce,
                webhook_id=webhook_id,
                application_id=application_id,
                message_reference=self._reference(channel_id=channel_id, body=body),
                attachments=attachments,
                mentions=self._mentions(content=str(body.get("content") or "")),
            )
            stored.update(copy.deepcopy(extra or {}))
            if stored.get("message_reference"):
                ref_id = stored["message_reference"].get("message_id")
                ref = self._find(message_id=ref_id) if ref_id else None
                stored["referenced_message"] = None if ref is None else messages.public(stored=ref)
            if channel["type"] in THREAD_TYPES:
                stored["position"] = channel["total_message_sent"]
                channel["message_count"] += 1
                channel["total_message_sent"] += 1
            channel["last_message_id"] = stored["id"]
            self._messages.setdefault(channel_id, []).append(stored)
            self._where[stored["id"]] = channel_id
            if nonce is not None:
                self._nonces[key] = stored["id"]
        self._journal.notify()
        return messages.public(stored=stored), True

    def _reference(self, *, channel_id: str, body: JsonDict) -> JsonDict | None:
        """A reply's full message_reference; 400 when it names a message that is not there."""
        ref = body.get("message_reference")
        if not ref:
            return None
        guild_id = self._dir.guild_id_of(channel_id=channel_id)
        full: JsonDict = {"type": 0, "channel_id": channel_id, "guild_id": guild_id, **ref}
        missing = full.get("message_id") and self._find(message_id=str(full["message_id"])) is None
        if missing and full.get("fail_if_not_exists", True):
            raise field_error(
                field="message_reference",
                code="MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                message="Unknown message",
            )
        return full

    def _mentions(self, *, content: str) -> list[JsonDict]:
        """The known users a text mentions as <@id>, each once."""
        ids = dict.fromkeys(MENTION.findall(content))
        return [copy.deepcopy(self._dir.users[i]) for i in ids if i in self._dir.users]

    def _find(self, *, message_id: str) -> JsonDict | None:
        """The live stored message with this id, in any channel, or None."""
        channel_id = self._where.get(message_id)
        if channel_id is None:
            return None
        for stored in self._messages.get(channel_id, []):
            if stored["id"] == message_id:
                return stored
        return None

    def live(self, *, channel_id: str | None, message_id: str) -> JsonDict:
        """The stored message itself (callers hold the lock), or 404 Unknown Message."""
        with self.lock:
            stored = self._find(message_id=message_id)
            if stored is None or (channel_id is not None and stored["channel_id"] != channel_id):
                raise unknown(what="Message", code=10008)
            return stored

    def get(self, *, channel_id: str | None, message_id: str) -> JsonDict:
        """A public copy of one message (channel_id None: in any channel)."""
        with self.lock:
            return messages.public(stored=self.live(channel_id=channel_id, message_id=message_id))

    def edit(self, *, channel_id: str, message_id: str, body: JsonDict, editor_id: str) -> JsonDict:
        """Apply a PATCH to a message the editor wrote -> the edited copy."""
        with self.lock:
            stored = self.live(channel_id=channel_id, message_id=message_id)
            if stored["author"]["id"] != editor_id:
                raise ApiError(
                    status=403, code=50005, message="Cannot edit a message authored by another user"
                )
            messages.apply_edit(stored=stored, body=body)
            if "content" in body:
                stored["mentions"] = self._mentions(content=stored["content"])
        self._journal.notify()
        return messages.public(stored=stored)

    def delete(self, *, channel_id: str, message_id: str) -> None:
        """Remove a message (404 Unknown Message when absent)."""
        with self.lock:
            stored = self.live(channel_id=channel_id, message_id=message_id)
            self._messages[channel_id].remove(stored)
            del self._where[message_id]
            channel = self._dir.channel(channel_id=channel_id)
            if channel["type"] in THREAD_TYPES:
                channel["message_count"] = max(0, channel["message_count"] - 1)
        self._journal.notify()

    def all(self, *, channel_id: str) -> list[JsonDict]:
        """Copies of a channel's messages, oldest first."""
        with self.lock:
            return [messages.public(stored=m) for m in self._messages.get(channel_id, [])]

    def history(
        self,
        *,
        channel_id: str,
        limit: int,
        before: str | None,
        after: str | None,
        around: str | None,
    ) -> list[JsonDict]:
        """GET /channels/{id}/messages: newest first, the `limit` nearest the anchor."""
        if not 1 <= limit <= 100:
            message = "int value should be less than or equal to 100."
            raise field_error(field="limit", code="NUMBER_TYPE_MAX", message=message)
        with self.lock:
            ordered = sorted(self._messages.get(channel_id, []), key=lambda m: int(m["id"]))
            ordered = self._starter(thread_id=channel_id) + ordered
            if around is not None:
                older = [m for m in ordered if int(m["id"]) < int(around)]
                newer = [m for m in ordered if int(m["id"]) >= int(around)]
                half = limit // 2
                picked = older[-half:] if half else []
                picked += newer[: limit - len(picked)]
            elif after is not None:
                # The `limit` messages right after the anchor (still answered newest first).
                picked = [m for m in ordered if int(m["id"]) > int(after)][:limit]
                if before is not None:
                    picked = [m for m in picked if int(m["id"]) < int(before)]
            else:
                if before is not None:
                    ordered = [m for m in ordered if int(m["id"]) < int(before)]
                picked = ordered[-limit:]
            return [messages.public(stored=m) for m in reversed(picked)]

    def _starter(self, *, thread_id: str) -> list[JsonDict]:
        """A thread started from a message begins with Discord's THREAD_STARTER_MESSAGE (type
        21, the thread's id, pointing at the message in the parent); [] for any other."""
        channel = self._dir.channel(channel_id=thread_id)
        parent = self._find(message_id=thread_id)
        if channel["type"] not in THREAD_TYPES or parent is None:
            return []
        guild_id = self._dir.guild_id_of(channel_id=thread_id)
        return [messages.thread_starter(parent=parent, guild_id=guild_id)]
