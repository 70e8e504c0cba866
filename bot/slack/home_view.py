"""The App Home as a Block Kit `home` view: each neutral section rendered and escaped by
render.py, within a Home view's limits (100 blocks; section text 3,000; button text 75)."""

from __future__ import annotations

from typing import Any

from bot.services.home import HomeView
from bot.slack import render
from bot.slack.render import Names
from bot.slack.text import clip
from bot.wording import home as words

HOME_BLOCKS_MAX = 100
HEADER_MAX = 150
ID_MAX = 255


def _fit(*, block: dict[str, Any]) -> dict[str, Any]:
    """A block with its buttons' ids and values within 255 characters (Home limits)."""
    if block.get("type") != "actions":
        return block
    for element in block["elements"]:
        element["action_id"] = element["action_id"][:ID_MAX]
        element["value"] = element["value"][:ID_MAX]
    return block


def home_view(*, view: HomeView, names: Names) -> dict[str, Any]:
    """The `home` view to publish; sections past the block limit are left out, whole."""
    header = {
        "type": "header",
        "text": {
            "type": "plain_text",
            "emoji": True,
            "text": clip(text=words.TITLE, limit=HEADER_MAX),
        },
    }
    shown: list[dict[str, Any]] = [header]
    for section in view.sections:
        blocks = [_fit(block=b) for b in render.blocks(message=section, names=names)]
        if len(shown) + len(blocks) > HOME_BLOCKS_MAX:
            break
        shown.extend(blocks)
    return {"type": "home", "blocks": shown}
