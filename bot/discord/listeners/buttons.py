"""Persistent buttons: a DynamicItem class per kind of button, matched by its custom id, so a
click works on any message that carries one, across restarts."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

Click = Callable[[discord.Interaction[Any], str], Awaitable[None]]
Dynamic = type[discord.ui.DynamicItem[discord.ui.Button[Any]]]


def dynamic_button(*, template: str, on_click: Click) -> Dynamic:
    """The DynamicItem for buttons whose custom id matches `template`; a click calls
    on_click(interaction, custom_id)."""

    class Button(discord.ui.DynamicItem[discord.ui.Button[Any]], template=template):
        """One of our buttons, rebuilt from the clicked one's custom id."""

        def __init__(self, *, custom_id: str) -> None:
            """A button with this custom id."""
            super().__init__(discord.ui.Button(custom_id=custom_id))

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> Button:
            """discord.py's factory for a click on a matching custom id."""
            return cls(custom_id=match.group(0))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            """Hand the click on."""
            await on_click(interaction, self.custom_id)

    return Button
