"""A poll's "Nominate a paper" button: a click answers with a modal holding one text input,
and the submitted modal runs `/paperclub nominate <paper>` through the command path, answered
to the person alone (as the slash command is, in the channel of the poll).

The modal is stopped before it is sent, as our views are (bot/discord/views.py): discord.py
then keeps nothing of it, and its submission (an interaction of its own, MODAL_SUBMIT) is read
by its custom id here. So a form opened before a restart is taken after it, like a click on a
DynamicItem, and a form nobody submits holds no memory."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord.deps import DiscordDeps
from bot.discord.listeners.buttons import Dynamic, dynamic_button
from bot.discord.listeners.commands import answer
from bot.discord.listeners.replies import ALREADY_ACKNOWLEDGED
from bot.services.poll_commands import REFERENCE_MAX
from bot.wording import polls as words

log = logging.getLogger(__name__)
FORM_ID = "paperclub:nominate"  # the modal's custom id
FIELD_ID = "paper"  # its text input's
ROW, LABEL, TEXT_INPUT = 1, 18, 4  # component types a submission nests its values in


def form() -> discord.ui.Modal:
    """The modal, stopped (build it on the Discord loop)."""
    modal = discord.ui.Modal(title=words.NOMINATE_TITLE, custom_id=FORM_ID, timeout=None)
    modal.add_item(
        discord.ui.TextInput(
            label=words.NOMINATE_LABEL,
            custom_id=FIELD_ID,
            placeholder=words.NOMINATE_PLACEHOLDER,
            max_length=REFERENCE_MAX,
        )
    )
    modal.stop()
    return modal


def nominate_button(*, deps: DiscordDeps) -> Dynamic:
    """The DynamicItem that opens the form from any poll's button."""

    async def on_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
        """Answer with the modal: the first answer, within Discord's 3 seconds."""
        try:
            await interaction.response.send_modal(form())
        except discord.HTTPException as exc:
            if exc.code != ALREADY_ACKNOWLEDGED:
                raise
            log.info("interaction %s came twice; it was answered the first time", interaction.id)

    return dynamic_button(template=rf"paperclub:{words.NOMINATE}:.+", on_click=on_click)


def typed(*, data: object) -> str | None:
    """The paper typed in a submitted nominate form; None for a submission of another form.
    Values come in an action row (type 1) or a label (type 18), as the form was laid out."""
    if not isinstance(data, dict) or data.get("custom_id") != FORM_ID:
        return None
    for outer in data.get("components") or []:
        if not isinstance(outer, dict):
            continue
        kind = outer.get("type")
        inner = (
            outer.get("components")
            if kind == ROW
            else [outer.get("component")]
            if kind == LABEL
            else []
        )
        for field in inner or []:
            if (
                isinstance(field, dict)
                and field.get("type") == TEXT_INPUT
                and field.get("custom_id") == FIELD_ID
                and isinstance(field.get("value"), str)
            ):
                return str(field["value"])
    return ""


async def submitted(*, deps: DiscordDeps, interaction: discord.Interaction[Any]) -> None:
    """A submitted nominate form: `/paperclub nominate` with what was typed (an empty one gets
    the command's usage); any other interaction is not this listener's."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    paper = typed(data=interaction.data)
    if paper is None:
        return
    await answer(deps=deps, interaction=interaction, text=f"nominate {paper}")
