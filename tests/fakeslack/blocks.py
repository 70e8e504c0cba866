"""Block Kit validation with Slack's documented limits; errors read like Slack's own."""

from __future__ import annotations

import json
from typing import Any

from .model import ApiError

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_SECTION_FIELD = 2000
MAX_HEADER_TEXT = 150
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_ID = 255
MAX_URL = 3000

_BLOCK_TYPES = {
    "actions",
    "context",
    "divider",
    "file",
    "header",
    "image",
    "input",
    "markdown",
    "rich_text",
    "section",
    "video",
}


def _err(messages: list[str], text: str, pointer: str) -> None:
    # Slack answers invalid_blocks with response_metadata.messages in exactly this shape.
    messages.append(f"[ERROR] {text} [json-pointer:{pointer}]")


def _check_len(
    messages: list[str], value: Any, pointer: str, maximum: int, minimum: int = 0
) -> None:
    if not isinstance(value, str):
        _err(messages, "must be a string", pointer)
    elif len(value) > maximum:
        _err(messages, f"must be less than {maximum + 1} characters", pointer)
    elif len(value) < minimum:
        _err(messages, f"must be more than {minimum - 1} characters", pointer)


def _check_text(
    messages: list[str],
    obj: Any,
    pointer: str,
    maximum: int,
    *,
    plain_only: bool = False,
) -> None:
    if not isinstance(obj, dict):
        _err(messages, "must provide an object", pointer)
        return
    allowed = {"plain_text"} if plain_only else {"plain_text", "mrkdwn"}
    if obj.get("type") not in allowed:
        _err(messages, f"must be one of {sorted(allowed)}", f"{pointer}/type")
    _check_len(messages, obj.get("text"), f"{pointer}/text", maximum, minimum=1)


def _check_element(messages: list[str], element: Any, pointer: str) -> None:
    if not isinstance(element, dict) or not isinstance(element.get("type"), str):
        _err(messages, "must provide an object with a type", pointer)
        return
    if "action_id" in element:
        _check_len(messages, element["action_id"], f"{pointer}/action_id", MAX_ID, minimum=1)
    if element["type"] == "button":
        _check_text(
            messages, element.get("text"), f"{pointer}/text", MAX_BUTTON_TEXT, plain_only=True
        )
        if "value" in element:
            _check_len(messages, element["value"], f"{pointer}/value", MAX_BUTTON_VALUE)
        if "url" in element:
            _check_len(messages, element["url"], f"{pointer}/url", MAX_URL)
        if "style" in element and element["style"] not in ("primary", "danger"):
            _err(messages, "must be one of ['danger', 'primary']", f"{pointer}/style")


def _check_block(messages: list[str], block: Any, pointer: str) -> None:
    if not isinstance(block, dict):
        _err(messages, "must provide an object", pointer)
        return
    kind = block.get("type")
    if kind not in _BLOCK_TYPES:
        _err(messages, "unsupported type", f"{pointer}/type")
        return
    if "block_id" in block:
        _check_len(messages, block["block_id"], f"{pointer}/block_id", MAX_ID, minimum=1)
    if kind == "section":
        if "text" not in block and "fields" not in block:
            _err(messages, "must provide either text or fields", pointer)
        if "text" in block:
            _check_text(messages, block["text"], f"{pointer}/text", MAX_SECTION_TEXT)
        for i, item in enumerate(block.get("fields", [])):
            _check_text(messages, item, f"{pointer}/fields/{i}", MAX_SECTION_FIELD)
        if len(block.get("fields", [])) > 10:
            _err(messages, "no more than 10 items allowed", f"{pointer}/fields")
        if "accessory" in block:
            _check_element(messages, block["accessory"], f"{pointer}/accessory")
    elif kind == "header":
        _check_text(
            messages, block.get("text"), f"{pointer}/text", MAX_HEADER_TEXT, plain_only=True
        )
    elif kind == "actions":
        elements = block.get("elements")
        if not isinstance(elements, list) or not elements:
            _err(messages, "must provide a non-empty array", f"{pointer}/elements")
            return
        if len(elements) > 25:
            _err(messages, "no more than 25 items allowed", f"{pointer}/elements")
        for i, element in enumerate(elements):
            _check_element(messages, element, f"{pointer}/elements/{i}")
        # Slack's action_ids are unique within the block that holds them.
        ids = [e.get("action_id") for e in elements if isinstance(e, dict) and "action_id" in e]
        if len(ids) != len(set(ids)):
            _err(messages, "action_id must be unique in the block", f"{pointer}/elements")
    elif kind == "context":
        elements = block.get("elements")
        if not isinstance(elements, list) or not elements:
            _err(messages, "must provide a non-empty array", f"{pointer}/elements")
        elif len(elements) > 10:
            _err(messages, "no more than 10 items allowed", f"{pointer}/elements")


def parse_blocks(raw: Any) -> list[Any] | None:
    """Blocks as sent (a JSON string in form bodies, a list in JSON bodies); None if absent."""
    if raw is None or raw == "":
        return None
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raise ApiError("invalid_blocks_format") from None
    if not isinstance(raw, list):
        raise ApiError("invalid_blocks_format")
    return raw


def validate_blocks(blocks: list[Any], *, maximum: int = MAX_BLOCKS) -> None:
    """Raise ApiError('invalid_blocks') with Slack-style messages when a limit is broken
    (`maximum`: 50 blocks in a message, 100 in a view)."""
    messages: list[str] = []
    if len(blocks) > maximum:
        _err(messages, f"no more than {maximum} items allowed", "/blocks")
    for i, block in enumerate(blocks):
        _check_block(messages, block, f"/blocks/{i}")
    if messages:
        raise ApiError("invalid_blocks", messages)
