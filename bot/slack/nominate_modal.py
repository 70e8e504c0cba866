"""The poll's "Nominate a paper" form as a Block Kit modal (one text input), and the paper a
submitted one names. The channel the poll was in rides in private_metadata."""

from __future__ import annotations

from typing import Any

from bot.services.poll_commands import REFERENCE_MAX
from bot.slack import ids
from bot.slack.home_modal import input_block, plain, state_of
from bot.wording import polls as words


def nominate_modal(*, channel: str) -> dict[str, Any]:
    """The modal to open for whoever pressed "Nominate a paper" on a poll in `channel`."""
    field = {
        "type": "plain_text_input",
        "action_id": ids.NOMINATE_PAPER,
        "max_length": REFERENCE_MAX,
        "placeholder": plain(words.NOMINATE_PLACEHOLDER),
    }
    block = input_block(block_id=ids.NOMINATE_PAPER, label=words.NOMINATE_LABEL, element=field)
    block["hint"] = plain(words.NOMINATE_HINT)
    return {
        "type": "modal",
        "callback_id": ids.NOMINATE_VIEW,
        "private_metadata": channel,
        "title": plain(words.NOMINATE_TITLE),
        "submit": plain(words.NOMINATE_SUBMIT),
        "close": plain("Cancel"),
        "blocks": [block],
    }


def submitted(*, view: dict[str, Any]) -> str:
    """The paper a submitted form names, as typed ("" when none)."""
    found = state_of(view=view, block_id=ids.NOMINATE_PAPER).get("value")
    return found if isinstance(found, str) else ""
