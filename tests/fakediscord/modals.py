"""Modals: the MODAL callback (response type 9) checked against Discord's documented limits,
and the MODAL_SUBMIT interaction (type 5) a member's filled-in modal sends.

A modal holds 1 to 5 top-level components: an action row with one text input (the older
layout, where the text input carries its label) or a label (type 18) wrapping one. A
submission echoes each text input's custom id with the value typed, nested as the modal was
laid out; the Discord client refuses what breaks a text input's limits before anything is
sent, so the fake raises ValueError for the test that tries."""

from __future__ import annotations

from typing import Any

from .model import JsonDict
from .validation import error_leaf, invalid_form

TITLE_MAX = 45
CUSTOM_ID_MAX = 100
COMPONENTS_MAX = 5
LABEL_MAX = 45
PLACEHOLDER_MAX = 100
TEXT_MAX = 4000
ROW, TEXT_INPUT, LABEL = 1, 4, 18


def _length(value: Any, *, low: int, high: int) -> bool:
    """A string of low..high characters."""
    return isinstance(value, str) and low <= len(value) <= high


def _text_input_errors(*, field: Any, labelled: bool) -> list[str]:
    """What is wrong with one text input (its label is the label component's when wrapped)."""
    if not isinstance(field, dict) or field.get("type") != TEXT_INPUT:
        return ["not a text input"]
    wrong: list[str] = []
    if not _length(field.get("custom_id"), low=1, high=CUSTOM_ID_MAX):
        wrong.append("custom_id")
    if field.get("style") not in (1, 2):
        wrong.append("style")
    if not labelled and not _length(field.get("label"), low=1, high=LABEL_MAX):
        wrong.append("label")
    low, high = field.get("min_length", 0), field.get("max_length", TEXT_MAX)
    if not (isinstance(low, int) and isinstance(high, int) and 0 <= low <= high <= TEXT_MAX):
        wrong.append("min_length/max_length")
    if "placeholder" in field and not _length(field["placeholder"], low=0, high=PLACEHOLDER_MAX):
        wrong.append("placeholder")
    if "value" in field and not _length(field["value"], low=0, high=high):
        wrong.append("value")
    return wrong


def text_inputs(*, modal: JsonDict) -> list[JsonDict]:
    """The modal's text inputs, in order."""
    found: list[JsonDict] = []
    for outer in modal.get("components") or []:
        if outer.get("type") == ROW:
            found.extend(outer.get("components") or [])
        elif outer.get("type") == LABEL:
            found.append(outer.get("component") or {})
    return found


def check_modal(*, body: JsonDict) -> None:
    """Refuse a MODAL callback's data the way Discord does (400, code 50035)."""
    errors: JsonDict = {}
    if not _length(body.get("custom_id"), low=1, high=CUSTOM_ID_MAX):
        errors["custom_id"] = error_leaf(code="BASE_TYPE_BAD_LENGTH", message="1 to 100")
    if not _length(body.get("title"), low=1, high=TITLE_MAX):
        errors["title"] = error_leaf(code="BASE_TYPE_BAD_LENGTH", message="1 to 45")
    components = body.get("components")
    if not isinstance(components, list) or not 1 <= len(components) <= COMPONENTS_MAX:
        errors["components"] = error_leaf(code="BASE_TYPE_BAD_LENGTH", message="1 to 5")
        components = []
    for index, outer in enumerate(components):
        if isinstance(outer, dict) and outer.get("type") == ROW:
            inner = outer.get("components")
            if isinstance(inner, list) and len(inner) == 1:
                wrong = _text_input_errors(field=inner[0], labelled=False)
            else:
                wrong = ["an action row in a modal holds one text input"]
        elif isinstance(outer, dict) and outer.get("type") == LABEL:
            wrong = _text_input_errors(field=outer.get("component"), labelled=True)
            if not _length(outer.get("label"), low=1, high=LABEL_MAX):
                wrong.append("label")
        else:
            wrong = ["component type"]
        if wrong:
            message = "Invalid modal component: " + ", ".join(wrong)
            errors.setdefault("components", {})[str(index)] = error_leaf(
                code="COMPONENT_INVALID", message=message
            )
    if errors:
        raise invalid_form(errors=errors)


def submit_data(*, modal: JsonDict, values: dict[str, str]) -> JsonDict:
    """The data of the MODAL_SUBMIT interaction for `modal` filled in with `values` (by text
    input custom id; one left out is submitted empty). ValueError for what the client
    refuses: a required input left empty, a value outside its min/max length, an unknown id."""
    known = {str(field.get("custom_id")): field for field in text_inputs(modal=modal)}
    unknown = set(values) - set(known)
    if unknown:
        raise ValueError(f"the modal has no text input {sorted(unknown)}")
    for custom_id, field in known.items():
        typed = values.get(custom_id, "")
        low, high = int(field.get("min_length", 0)), int(field.get("max_length", TEXT_MAX))
        if (field.get("required", True) and not typed) or not low <= len(typed) <= high:
            raise ValueError(f"Discord's client refuses {custom_id!r}: {len(typed)} characters")

    def echoed(field: JsonDict, number: int) -> JsonDict:
        custom_id = str(field.get("custom_id"))
        value = values.get(custom_id, "")
        return {"type": TEXT_INPUT, "id": number, "custom_id": custom_id, "value": value}

    components: list[JsonDict] = []
    for number, outer in enumerate(modal.get("components") or [], start=1):
        if outer.get("type") == ROW:
            inner = [echoed(f, number * 10 + n) for n, f in enumerate(outer["components"])]
            components.append({"type": ROW, "id": number, "components": inner})
        else:
            component = echoed(outer.get("component") or {}, number * 10)
            components.append({"type": LABEL, "id": number, "component": component})
    return {"custom_id": modal["custom_id"], "components": components}
