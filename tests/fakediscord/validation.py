"""Discord's limits on message bodies, threads and commands, with its 50035 error shape."""

from __future__ import annotations

import re
from typing import Any

from .model import ApiError, JsonDict

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
FIELDS_MAX = 25
# (path inside one embed, limit): the per-string embed limits of the API docs.
EMBED_LIMITS: tuple[tuple[tuple[str, ...], int], ...] = (
    (("title",), 256),
    (("description",), 4096),
    (("footer", "text"), 2048),
    (("author", "name"), 256),
)
FIELD_LIMITS = (("name", 256), ("value", 1024))
THREAD_NAME_MAX = 100
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def error_leaf(*, code: str, message: str) -> JsonDict:
    """One field's errors, as Discord nests them: {"_errors": [{"code", "message"}]}."""
    return {"_errors": [{"code": code, "message": message}]}


def invalid_form(*, errors: JsonDict) -> ApiError:
    """400 Invalid Form Body with the per-field error tree."""
    return ApiError(status=400, code=50035, message="Invalid Form Body", errors=errors)


def field_error(*, field: str, code: str, message: str) -> ApiError:
    """400 Invalid Form Body for one top-level field."""
    return invalid_form(errors={field: error_leaf(code=code, message=message)})


def _max_length(limit: int) -> JsonDict:
    """The leaf for a string or list longer than `limit`."""
    return error_leaf(code="BASE_TYPE_MAX_LENGTH", message=f"Must be {limit} or fewer in length.")


def _nest(*, errors: JsonDict, path: tuple[str, ...], leaf: JsonDict) -> None:
    """Put a leaf error at errors[path[0]][path[1]]..., the tree Discord answers with."""
    node = errors
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = leaf


def _text(value: Any) -> str:
    """A field as text (None counts as empty)."""
    return "" if value is None else str(value)


def _embed_errors(*, errors: JsonDict, index: int, embed: JsonDict) -> int:
    """Record one embed's errors; return its length towards the 6000 total."""
    total, here = 0, ("embeds", str(index))
    for path, limit in EMBED_LIMITS:
        node: Any = embed
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        total += len(_text(node))
        if len(_text(node)) > limit:
            _nest(errors=errors, path=(*here, *path), leaf=_max_length(limit))
    fields = embed.get("fields") or []
    if len(fields) > FIELDS_MAX:
        _nest(errors=errors, path=(*here, "fields"), leaf=_max_length(FIELDS_MAX))
    for number, field in enumerate(fields):
        for key, limit in FIELD_LIMITS:
            total += len(_text(field.get(key)))
            if len(_text(field.get(key))) > limit:
                path = (*here, "fields", str(number), key)
                _nest(errors=errors, path=path, leaf=_max_length(limit))
    return total


def _component_errors(*, errors: JsonDict, rows: list[JsonDict]) -> None:
    """Record the action-row limits: 5 rows, 5 buttons a row, custom_id 100, label 80."""
    if len(rows) > 5:
        errors["components"] = _max_length(5)
        return
    for r, row in enumerate(rows):
        children = row.get("components") or []
        if row.get("type") == 1 and len(children) > 5:
            _nest(errors=errors, path=("components", str(r), "components"), leaf=_max_length(5))
        for c, child in enumerate(children):
            for key, limit in (("custom_id", 100), ("label", 80)):
                if len(_text(child.get(key))) > limit:
                    path = ("components", str(r), "components", str(c), key)
                    _nest(errors=errors, path=path, leaf=_max_length(limit))


def check_message(*, body: JsonDict, has_files: bool = False, editing: bool = False) -> None:
    """Raise Discord's 400 for content over 2000, broken embeds, or an empty new message."""
    errors: JsonDict = {}
    content = _text(body.get("content"))
    if len(content) > CONTENT_MAX:
        errors["content"] = _max_length(CONTENT_MAX)
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        errors["embeds"] = _max_length(EMBEDS_MAX)
    total = sum(
        _embed_errors(errors=errors, index=i, embed=e) for i, e in enumerate(embeds[:EMBEDS_MAX])
    )
    if total > EMBED_TOTAL_MAX and "embeds" not in errors:
        errors["embeds"] = error_leaf(
            code="MAX_EMBED_SIZE_EXCEEDED",
            message=f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}",
        )
    _component_errors(errors=errors, rows=body.get("components") or [])
    if errors:
        raise invalid_form(errors=errors)
    empty = not (content or embeds or body.get("components") or body.get("sticker_ids"))
    if empty and not has_files and not editing:
        raise ApiError(status=400, code=50006, message="Cannot send an empty message")


def check_thread_name(*, name: Any) -> str:
    """The thread name, or 400 when it is not 1-100 characters."""
    text = _text(name)
    if not 1 <= len(text) <= THREAD_NAME_MAX:
        message = f"Must be between 1 and {THREAD_NAME_MAX} in length."
        raise field_error(field="name", code="BASE_TYPE_BAD_LENGTH", message=message)
    return text


def check_commands(*, specs: Any) -> list[JsonDict]:
    """The commands of a bulk overwrite, or 400 for a bad name/description or too many."""
    if not isinstance(specs, list):
        message = "Only iterables may be used in a ListType"
        raise invalid_form(errors=error_leaf(code="LIST_TYPE_CONVERT", message=message))
    errors: JsonDict = {}
    if len(specs) > 100:
        errors.update(_max_length(100))
    for i, spec in enumerate(specs):
        name, slash = _text(spec.get("name")), spec.get("type", 1) == 1
        if not COMMAND_NAME.match(name) or (slash and name != name.lower()):
            leaf = error_leaf(
                code="APPLICATION_COMMAND_INVALID_NAME", message="Command name is invalid"
            )
            _nest(errors=errors, path=(str(i), "name"), leaf=leaf)
        if slash and not 1 <= len(_text(spec.get("description"))) <= 100:
            leaf = error_leaf(
                code="BASE_TYPE_BAD_LENGTH", message="Must be between 1 and 100 in length."
            )
            _nest(errors=errors, path=(str(i), "description"), leaf=leaf)
        if len(spec.get("options") or []) > 25:
            _nest(errors=errors, path=(str(i), "options"), leaf=_max_length(25))
    if errors:
        raise invalid_form(errors=errors)
    return specs
