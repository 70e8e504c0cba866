"""Complete channel objects: guild text channels (type 0), public (11) and private (12) threads."""

from __future__ import annotations

from .model import JsonDict, iso, snowflake_time

VIEW_CHANNEL = 1 << 10


def text_channel(
    *, id: str, guild_id: str, name: str, position: int, overwrites: list[JsonDict]
) -> JsonDict:
    """A guild text channel (type 0)."""
    return {
        "id": id,
        "type": 0,
        "guild_id": guild_id,
        "name": name,
        "position": position,
        "permission_overwrites": overwrites,
        "parent_id": None,
        "nsfw": False,
        "topic": None,
        "last_message_id": None,
        "last_pin_timestamp": None,
        "rate_limit_per_user": 0,
        "default_auto_archive_duration": 1440,
        "default_thread_rate_limit_per_user": 0,
        "flags": 0,
        "icon_emoji": None,
        "theme_color": None,
    }


def deny_view(*, user_id: str) -> JsonDict:
    """A member permission overwrite that hides a channel from that member."""
    return {"id": user_id, "type": 1, "allow": "0", "deny": str(VIEW_CHANNEL)}


def deny_everyone(*, guild_id: str) -> JsonDict:
    """A role overwrite that hides a channel from @everyone (whose role id is the guild's)."""
    return {"id": guild_id, "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)}


def thread(
    *,
    id: str,
    guild_id: str,
    parent_id: str,
    owner_id: str,
    name: str,
    private: bool = False,
    auto_archive_duration: int = 1440,
) -> JsonDict:
    """A thread channel: public (type 11) or private (type 12), not archived."""
    created = snowflake_time(id)
    metadata: JsonDict = {
        "archived": False,
        "auto_archive_duration": auto_archive_duration,
        "archive_timestamp": created,
        "locked": False,
        "create_timestamp": created,
    }
    if private:
        metadata["invitable"] = True
    return {
        "id": id,
        "type": 12 if private else 11,
        "guild_id": guild_id,
        "parent_id": parent_id,
        "owner_id": owner_id,
        "name": name,
        "last_message_id": None,
        "last_pin_timestamp": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "thread_metadata": metadata,
        "flags": 0,
        "applied_tags": [],
        "nsfw": False,
    }


def thread_member(*, thread_id: str, user_id: str) -> JsonDict:
    """A thread member: who joined a thread, and when."""
    return {"id": thread_id, "user_id": user_id, "join_timestamp": iso(), "flags": 0}
