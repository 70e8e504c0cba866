"""JSON: a list of paper objects, or {"papers": [...]}, including the project's own export."""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator
from typing import Any, Protocol

from bot.domain import PaperDraft, Rejection
from bot.ingest.drafts import Parsed, build_draft, collect, file_problem, origin_at, split_authors
from bot.ingest.exported import with_exported

_FIELDS = {
    "title": ("title", "name"),
    "abstract": ("abstract", "summary"),
    "authors": ("authors", "author"),
    "url": ("url", "link", "href"),
    "arxiv_id": ("arxiv_id", "arxiv", "arxivid", "eprint"),
    "doi": ("doi",),
}
_WS = " \t\r\n"


def _skip(*, text: str, index: int) -> int:
    """The index of the first non-whitespace character at or after `index`."""
    while index < len(text) and text[index] in _WS:
        index += 1
    return index


def _array_offsets(*, text: str, index: int, decoder: json.JSONDecoder) -> list[int]:
    """Where each element of the (valid) JSON array opening at `index` starts."""
    offsets: list[int] = []
    index = _skip(text=text, index=index + 1)
    while index < len(text) and text[index] != "]":
        offsets.append(index)
        _, index = decoder.raw_decode(text, index)
        index = _skip(text=text, index=index)
        if index < len(text) and text[index] == ",":
            index = _skip(text=text, index=index + 1)
    return offsets


def _paper_offsets(*, text: str) -> list[int]:
    """Where each paper object starts: the top-level array's or the "papers" array's elements."""
    decoder = json.JSONDecoder()
    index = _skip(text=text, index=0)
    if text[index] == "[":
        return _array_offsets(text=text, index=index, decoder=decoder)
    index = _skip(text=text, index=index + 1)
    while index < len(text) and text[index] == '"':
        key, index = decoder.raw_decode(text, index)
        index = _skip(text=text, index=_skip(text=text, index=index) + 1)
        if key == "papers" and text[index] == "[":
            return _array_offsets(text=text, index=index, decoder=decoder)
        _, index = decoder.raw_decode(text, index)
        index = _skip(text=text, index=index)
        index = _skip(text=text, index=index + 1) if text[index] == "," else index
    return []


def _origins(*, path: str, text: str, count: int) -> list[str]:
    """`path:line` of each paper object, or `path#index` when the lines cannot be found."""
    try:
        offsets = _paper_offsets(text=text)
    except (ValueError, IndexError, RecursionError):
        offsets = []
    if len(offsets) != count:
        return [f"{path}#{index}" for index in range(count)]
    newlines = [i for i, c in enumerate(text) if c == "\n"]
    return [origin_at(path=path, line=bisect.bisect_left(newlines, o) + 1) for o in offsets]


def text_of(*, value: Any) -> str:
    """A field value as text: strings as they are, numbers written out, lists joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None or isinstance(value, dict):
        return ""
    if isinstance(value, list):
        return " ".join(text_of(value=v) for v in value)
    return str(value)


def _authors(*, value: Any) -> tuple[str, ...]:
    """Author names from a list (of names or {"name": ...} objects) or one string."""
    if isinstance(value, str):
        return split_authors(text=value)
    if not isinstance(value, list):
        return ()
    names: list[str] = []
    for item in value:
        if isinstance(item, dict):
            given, family = text_of(value=item.get("given")), text_of(value=item.get("family"))
            names.append(text_of(value=item.get("name")) or f"{given} {family}".strip())
        else:
            names.append(text_of(value=item))
    return tuple(names)


def _field(*, obj: dict[str, Any], name: str) -> Any:
    """The first non-null value among the accepted spellings of a field."""
    for key in _FIELDS[name]:
        if obj.get(key) is not None:
            return obj[key]
    return None


def kind_of(*, value: Any) -> str:
    """How a JSON value that should have been an object is named in a message."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return "a number"


def _draft(*, item: Any, origin: str) -> PaperDraft | Rejection:
    """A draft from one JSON value, which must be an object."""
    if not isinstance(item, dict):
        return Rejection(origin=origin, reason=f"entry is {kind_of(value=item)}, not an object")
    # The export nests each paper under "paper" beside its posts.
    if isinstance(item.get("paper"), dict):
        item = item["paper"]
    obj = {str(key).lower(): value for key, value in item.items()}
    draft = build_draft(
        origin=origin,
        title=text_of(value=_field(obj=obj, name="title")),
        abstract=text_of(value=_field(obj=obj, name="abstract")),
        authors=_authors(value=_field(obj=obj, name="authors")),
        url=text_of(value=_field(obj=obj, name="url")),
        arxiv_id=text_of(value=_field(obj=obj, name="arxiv_id")),
        doi=text_of(value=_field(obj=obj, name="doi")),
    )
    if isinstance(draft, Rejection):
        return draft
    name, status = obj.get("list"), obj.get("status")
    return with_exported(
        draft=draft,
        status=status if isinstance(status, str) else "",
        list_name=name if isinstance(name, str) else "",
        title_derived=obj.get("title_derived") is True,
    )


def _items(*, data: Any) -> list[Any] | None:
    """The list of paper values in a decoded document, or None when there is none."""
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and isinstance(data.get("papers"), list):
        return list(data["papers"])
    return None


class DraftOf(Protocol):
    """How one decoded JSON value becomes a draft: the JSON and CSL-JSON formats differ here."""

    def __call__(self, *, item: Any, origin: str) -> PaperDraft | Rejection:
        """A draft from `item`, or why not."""
        ...


def parse_json(*, path: str, text: str) -> Parsed:
    """Drafts and rejections for a JSON document of papers."""
    return parse_items(path=path, text=text, draft_of=_draft)


def parse_items(*, path: str, text: str, draft_of: DraftOf) -> Parsed:
    """Drafts and rejections for a JSON list of items (or {"papers": [...]}), each read by
    `draft_of` and named by its line."""
    problem = file_problem(path=path, text=text)
    if problem is not None:
        return [], [problem]
    # A BOM is legal in a file but not in JSON; a space keeps every offset in place.
    text = " " + text[1:] if text.startswith("\ufeff") else text
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        origin = origin_at(path=path, line=error.lineno)
        return [], [
            Rejection(origin=origin, reason=f"not valid JSON: {error.msg} (column {error.colno})")
        ]
    except (ValueError, RecursionError) as error:
        reason = "not valid JSON: nested too deeply" if isinstance(error, RecursionError) else ""
        reason = reason or f"not valid JSON: {error}"
        return [], [Rejection(origin=origin_at(path=path, line=1), reason=reason)]
    items = _items(data=data)
    if items is None:
        reason = 'JSON must be a list of papers or an object with a "papers" list'
        return [], [Rejection(origin=origin_at(path=path, line=1), reason=reason)]
    origins = _origins(path=path, text=text, count=len(items))
    results: Iterator[PaperDraft | Rejection] = (
        draft_of(item=item, origin=origin) for item, origin in zip(items, origins, strict=True)
    )
    return collect(results=results)
