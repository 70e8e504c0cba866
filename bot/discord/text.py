"""What a person typed on Discord, as the archive keeps it: mentions as names, not tokens."""

from __future__ import annotations

import re

import discord

# Message types that are a person's words: a plain message and a reply.
WORDS = frozenset({discord.MessageType.default, discord.MessageType.reply})
_CUSTOM_EMOJI = re.compile(r"<a?:([A-Za-z0-9_]{1,32}):[0-9]{15,20}>")
_SKIN_TONES = re.compile("[\U0001f3fb-\U0001f3ff\ufe0f]")


def by_a_person(*, message: discord.Message) -> bool:
    """People's own words: no bot (ours included), no webhook, no system message (a thread's
    starter message, a pin, a join)."""
    return not message.author.bot and message.webhook_id is None and message.type in WORDS


def typed(*, message: discord.Message) -> str:
    """The message's words as shown to readers: discord.py's clean_content (mentions of
    people, roles and channels as @name and #name) without the zero-width space it puts after
    "@" in @everyone, and custom emoji as :name:. Our renderers make it inert again."""
    text = message.clean_content.replace("@\u200b", "@")
    return _CUSTOM_EMOJI.sub(r":\1:", text)


def reaction_name(*, emoji: discord.PartialEmoji) -> str:
    """A reaction's name for voting: a standard emoji without skin tone or variation selector
    ("👍🏽" is "👍"), a custom emoji by its name."""
    return _SKIN_TONES.sub("", emoji.name or "")
