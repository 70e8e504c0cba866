"""Message objects and the gateway events about them (reactions, deletions)."""

from __future__ import annotations

import copy
import itertools
from typing import Any

from .model import JsonDict, iso, snowflake_time

EPHEMERAL = 1 << 6
LOADING = 1 << 7
HAS_THREAD = 1 << 5
THREAD_STARTER = 21  # the message type of a thread's first message, pointing at its parent
SUPPRESS_EMBEDS = 1 << 2
# What PATCH may change; anything else in the body is ignored, as Discord does.
EDITABLE = ("content", "embeds", "components", "attachments")


def message(
    *,
    id: str,
    channel_id: str,
    author: JsonDict,
    content: str = "",
    embeds: list[JsonDict] | None = None,
    components: list[JsonDict] | None = None,
    flags: int = 0,
    nonce: str | None = None,
    webhook_id: str | None = None,
    application_id: str | None = None,
    message_reference: JsonDict | None = None,
    attachments: list[JsonDict] | None = None,
    mentions: list[JsonDict] | None = None,
) -> JsonDict:
    """A message as REST returns it (gateway events add guild_id and member)."""
    payload: JsonDict = {
        "id": id,
        "type": 0 if message_reference is None else 19,
        "channel_id": channel_id,
        "author": author,
        "content": content,
        "timestamp": snowflake_time(id),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": mentions or [],
        "mention_roles": [],
        "mention_channels": [],
        "attachments": attachments or [],
        "embeds": [rich_embed(embed=e) for e in embeds or []],
        "components": numbered(components=components or []),
        "pinned": False,
        "flags": flags,
        "sticker_items": [],
    }
    if nonce is not None:
        payload["nonce"] = nonce
    if webhook_id is not None:
        payload["webhook_id"] = webhook_id
    if application_id is not None:
        payload["application_id"] = application_id
    if message_reference is not None:
        payload["message_reference"] = message_reference
        payload["referenced_message"] = None
    return payload


def thread_starter(*, parent: JsonDict, guild_id: str) -> JsonDict:
    """The first message of a thread started from `parent` as history lists it: type 21, the
    thread's (the parent's) id, a reference to the parent and the parent itself."""
    reference = {
        "channel_id": parent["channel_id"],
        "guild_id": guild_id,
        "message_id": parent["id"],
    }
    starter = message(
        id=parent["id"],
        channel_id=parent["id"],
        author=parent["author"],
        message_reference=reference,
    )
    starter.update(type=THREAD_STARTER, position=0, referenced_message=public(stored=parent))
    return starter


def apply_edit(*, stored: JsonDict, body: JsonDict) -> None:
    """Apply an edit body to a stored message: the editable fields, then the edit time."""
    for key in EDITABLE:
        if key in body:
            value: Any = body[key]
            if value is None:
                value = "" if key == "content" else []
            if key == "embeds":
                value = [rich_embed(embed=e) for e in value]
            elif key == "components":
                value = numbered(components=value)
            stored[key] = value
    if body.get("flags") is not None:
        # Only SUPPRESS_EMBEDS may be toggled by an edit; the other flags are Discord's.
        stored["flags"] = (stored["flags"] & ~SUPPRESS_EMBEDS) | (
            int(body["flags"]) & SUPPRESS_EMBEDS
        )
    # An edit is what ends a deferred response's "thinking..." state.
    stored["flags"] &= ~LOADING
    stored["edited_timestamp"] = iso()


def rich_embed(*, embed: JsonDict) -> JsonDict:
    """An embed as Discord echoes it: type "rich", fields with inline set."""
    stored = copy.deepcopy(embed)
    stored.setdefault("type", "rich")
    for field in stored.get("fields", []):
        field.setdefault("inline", False)
    return stored


def numbered(*, components: list[JsonDict]) -> list[JsonDict]:
    """Components with the numeric ids Discord gives each one (1, 2, ... depth first)."""
    counter = itertools.count(1)
    stored = copy.deepcopy(components)

    def visit(items: list[JsonDict]) -> None:
        """Number the items, then their children."""
        for item in items:
            item.setdefault("id", next(counter))
            visit(item.get("components", []))

    visit(stored)
    return stored


def find_component(*, components: list[JsonDict], custom_id: str) -> JsonDict | None:
    """The component (at any depth) with this custom_id, or None."""
    for item in components:
        if item.get("custom_id") == custom_id:
            return item
        found = find_component(components=item.get("components", []), custom_id=custom_id)
        if found is not None:
            return found
    return None


def for_gateway(*, stored: JsonDict, guild_id: str, member: JsonDict | None) -> JsonDict:
    """MESSAGE_CREATE/UPDATE data: the full message plus guild_id and the author's member."""
    data = copy.deepcopy(stored)
    data["guild_id"] = guild_id
    if member is not None and "webhook_id" not in data:
        data["member"] = member
    return data


def parse_emoji(*, text: str) -> JsonDict:
    """A URL emoji ("👍" or "name:id") as the partial emoji object events carry."""
    name, sep, emoji_id = text.partition(":")
    if sep:
        return {"id": emoji_id, "name": name, "animated": False}
    return {"id": None, "name": text}


def emoji_key(*, emoji: JsonDict) -> str:
    """One string per emoji: its id for custom ones, its character otherwise."""
    return str(emoji["id"] or emoji["name"])


def add_reaction(*, stored: JsonDict, emoji: JsonDict, user_id: str, me_id: str) -> bool:
    """Count a user's reaction on a stored message; False when they had already reacted."""
    reactions: list[JsonDict] = stored.setdefault("reactions", [])
    for reaction in reactions:
        if emoji_key(emoji=reaction["emoji"]) == emoji_key(emoji=emoji):
            if user_id in reaction["_users"]:
                return False
            reaction["_users"].append(user_id)
            break
    else:
        reaction = {"emoji": emoji, "_users": [user_id], "burst_colors": [], "me_burst": False}
        reactions.append(reaction)
    _recount(reaction=reaction, me_id=me_id)
    return True


def remove_reaction(*, stored: JsonDict, emoji: JsonDict, user_id: str, me_id: str) -> bool:
    """Take a user's reaction off a stored message; False when there was none."""
    reactions: list[JsonDict] = stored.get("reactions", [])
    for reaction in reactions:
        if emoji_key(emoji=reaction["emoji"]) == emoji_key(emoji=emoji):
            if user_id not in reaction["_users"]:
                return False
            reaction["_users"].remove(user_id)
            if not reaction["_users"]:
                reactions.remove(reaction)
            else:
                _recount(reaction=reaction, me_id=me_id)
            if not reactions:
                stored.pop("reactions")
            return True
    return False


def _recount(*, reaction: JsonDict, me_id: str) -> None:
    """Derive count, count_details and me from who reacted."""
    users = reaction["_users"]
    reaction["count"] = len(users)
    reaction["count_details"] = {"burst": 0, "normal": len(users)}
    reaction["me"] = me_id in users


def public(*, stored: JsonDict) -> JsonDict:
    """A copy fit to send: the fake's bookkeeping keys (leading "_") removed."""

    def clean(value: Any) -> Any:
        """The value without underscore keys, at any depth."""
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if not str(k).startswith("_")}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    result: JsonDict = clean(stored)
    return result


def reaction_event(
    *,
    added: bool,
    stored: JsonDict,
    guild_id: str,
    user_id: str,
    emoji: JsonDict,
    member: JsonDict | None,
) -> JsonDict:
    """MESSAGE_REACTION_ADD (with member and message_author_id) or ..._REMOVE data."""
    data: JsonDict = {
        "user_id": user_id,
        "channel_id": stored["channel_id"],
        "message_id": stored["id"],
        "guild_id": guild_id,
        "emoji": emoji,
        "burst": False,
        "type": 0,
    }
    if added:
        data["member"] = member
        data["message_author_id"] = stored["author"]["id"]
        data["burst_colors"] = []
    return data


def delete_event(*, message_id: str, channel_id: str, guild_id: str) -> JsonDict:
    """MESSAGE_DELETE data."""
    return {"id": message_id, "channel_id": channel_id, "guild_id": guild_id}


def bulk_delete_event(*, ids: list[str], channel_id: str, guild_id: str) -> JsonDict:
    """MESSAGE_DELETE_BULK data."""
    return {"ids": list(ids), "channel_id": channel_id, "guild_id": guild_id}
