"""Our component JSON as a discord.py View, for the replies discord.py sends itself."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.render import Component


def view_of(*, rows: list[Component]) -> discord.ui.View | None:
    """A View with the rows' buttons; None without any. The View is stopped before it is sent:
    discord.py then keeps no callback for it, and every click reaches our DynamicItems (a live
    View holding the same custom id would run too). Build it on the Discord loop."""
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        for item in row.get("components", []):
            view.add_item(_button(item=item, row=number))
    view.stop()
    return view


def _button(*, item: dict[str, Any], row: int) -> discord.ui.Button[discord.ui.View]:
    """One of our buttons (render.button) as discord.py's."""
    return discord.ui.Button(
        style=discord.ButtonStyle(int(item["style"])),
        label=str(item["label"]),
        custom_id=str(item["custom_id"]),
        row=row,
    )
