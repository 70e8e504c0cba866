"""Complete Discord API v10 objects: users, members, roles, guilds, the app and its commands.

Every field the API documents is present (null where Discord sends null): discord.py reads
some with data["key"] and drops the gateway connection when one is missing.
"""

from __future__ import annotations

from typing import Any

from .model import JsonDict

# All permissions but administrator, as a decimal string (Discord sends permissions so).
ALL_PERMISSIONS = str((1 << 50) - 1 & ~(1 << 3))
# Application flags: the three privileged intents switched on in the developer portal.
APP_FLAGS = (1 << 13) | (1 << 15) | (1 << 19)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def user(*, id: str, username: str, global_name: str | None = None, bot: bool = False) -> JsonDict:
    """A user object; bots have discriminator "0" like everyone since the username change."""
    payload: JsonDict = {
        "id": id,
        "username": username,
        "discriminator": "0",
        "global_name": global_name,
        "avatar": None,
        "avatar_decoration_data": None,
        "banner": None,
        "accent_color": None,
        "public_flags": 0,
        "flags": 0,
        "collectibles": None,
        "display_name_styles": None,
        "primary_guild": None,
        "clan": None,
    }
    if bot:
        payload["bot"] = True
    return payload


def current_user(*, base: JsonDict) -> JsonDict:
    """GET /users/@me and READY's user: the user object plus the account-only fields."""
    return {
        **base,
        "verified": True,
        "mfa_enabled": False,
        "locale": "en-US",
        "email": None,
        "premium_type": 0,
        "bio": "",
    }


def member(
    *,
    user_payload: JsonDict,
    roles: list[str],
    joined_at: str,
    nick: str | None = None,
    with_user: bool = True,
    permissions: str | None = None,
) -> JsonDict:
    """A guild member; with_user=False gives the partial form MESSAGE_CREATE carries."""
    payload: JsonDict = {
        "nick": nick,
        "avatar": None,
        "banner": None,
        "roles": list(roles),
        "joined_at": joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
        "avatar_decoration_data": None,
    }
    if with_user:
        payload["user"] = user_payload
    if permissions is not None:
        payload["permissions"] = permissions
    return payload


def role(
    *,
    id: str,
    name: str,
    position: int,
    permissions: str,
    bot_id: str | None = None,
) -> JsonDict:
    """A role; @everyone has the guild's id, a bot's own role is managed and tagged."""
    payload: JsonDict = {
        "id": id,
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": permissions,
        "managed": bot_id is not None,
        "mentionable": False,
        "flags": 0,
    }
    if bot_id is not None:
        payload["tags"] = {"bot_id": bot_id}
    return payload


def guild(*, id: str, name: str, owner_id: str, roles: list[JsonDict]) -> JsonDict:
    """A guild as GET /guilds/{id} answers it (no channels or members)."""
    return {
        "id": id,
        "name": name,
        "icon": None,
        "icon_hash": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": owner_id,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "widget_enabled": False,
        "widget_channel_id": None,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": roles,
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "max_presences": None,
        "max_members": 500_000,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "nsfw_level": 0,
        "nsfw": False,
        "premium_progress_bar_enabled": False,
        "incidents_data": None,
        "region": "deprecated",
        "hub_type": None,
        "home_header": None,
        "latest_onboarding_question_id": None,
        "inventory_settings": None,
    }


def gateway_guild(
    *,
    rest: JsonDict,
    joined_at: str,
    channels: list[JsonDict],
    threads: list[JsonDict],
    members: list[JsonDict],
) -> JsonDict:
    """GUILD_CREATE: the guild plus the gateway-only fields (channels, members, threads...)."""
    return {
        **rest,
        "joined_at": joined_at,
        "large": False,
        "unavailable": False,
        # Equal to len(members): discord.py then counts the guild as chunked and sends no
        # REQUEST_GUILD_MEMBERS at startup.
        "member_count": len(members),
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": threads,
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "embedded_activities": [],
        "activity_instances": [],
        "application_command_counts": {},
        "lazy": True,
    }


def application(*, id: str, name: str, owner: JsonDict, bot: JsonDict) -> JsonDict:
    """GET /oauth2/applications/@me: the bot's application (no interactions endpoint URL)."""
    return {
        "id": id,
        "name": name,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": owner,
        "team": None,
        "flags": APP_FLAGS,
        "bot": bot,
        "rpc_origins": [],
        "redirect_uris": [],
        # Must be null: with a URL discord.py warns that no interactions arrive by gateway.
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "event_webhooks_url": None,
        "event_webhooks_status": 1,
        "event_webhooks_types": [],
        "tags": [],
        "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
        "integration_types_config": {"0": {}},
        "custom_install_url": None,
        "approximate_guild_count": 1,
        "approximate_user_install_count": 0,
        "is_monetized": False,
        "is_verified": False,
        "is_discoverable": False,
        "terms_of_service_url": None,
        "privacy_policy_url": None,
    }


def command(
    *, spec: JsonDict, id: str, application_id: str, guild_id: str | None, version: str
) -> JsonDict:
    """An application command as Discord stores it, from what the client PUT."""
    payload: dict[str, Any] = {
        "id": id,
        "application_id": application_id,
        "version": version,
        "type": spec.get("type", 1),
        "name": spec["name"],
        "name_localizations": spec.get("name_localizations"),
        "description": spec.get("description", ""),
        "description_localizations": spec.get("description_localizations"),
        "default_member_permissions": spec.get("default_member_permissions"),
        "dm_permission": spec.get("dm_permission", True),
        "contexts": spec.get("contexts"),
        "integration_types": spec.get("integration_types") or [0],
        "options": spec.get("options", []),
        "nsfw": spec.get("nsfw", False),
    }
    if guild_id is not None:
        payload["guild_id"] = guild_id
    return payload


def ready_payload(
    *,
    user: JsonDict,
    guild_ids: list[str],
    session_id: str,
    resume_url: str,
    app_id: str,
    shard: list[int] | None,
) -> JsonDict:
    """READY: the bot user, its guilds (unavailable until their GUILD_CREATE), the session."""
    ready: JsonDict = {
        "v": 10,
        "user": user,
        "guilds": [{"id": g, "unavailable": True} for g in guild_ids],
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": resume_url,
        "application": {"id": app_id, "flags": APP_FLAGS},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": ["fakediscord"],
        "user_settings": {},
        "auth": {},
        "_trace": ["fakediscord"],
    }
    if shard is not None:
        ready["shard"] = shard
    return ready
