"""Author names between our stored form ("First Last", written as it came) and the split
forms RIS ("Last, First") and CSL-JSON ({family, given}) ask for, both ways without loss."""

from __future__ import annotations


def family_given(*, name: str) -> tuple[str, str] | None:
    """(family, given) of a stored name: its last word and the words before it; None for a
    name that is no such pair (one word, or one with a comma in it), which is written whole."""
    if "," in name:
        return None
    given, _, family = name.rpartition(" ")
    return (family, given) if given and family else None


def ris_name(*, name: str) -> str:
    """An AU value: "Last, First"; a name with a comma in it as RIS's "Last, First, Suffix"
    (its part after the first comma is the suffix), so that ris_stored gives it back whole."""
    head, comma, rest = name.partition(",")
    if not comma:
        pair = family_given(name=name)
        return f"{pair[0]}, {pair[1]}" if pair else name
    pair = family_given(name=head.strip())
    family, given = pair if pair else (head.strip(), "")
    return f"{family}, {given},{rest}"  # `rest` as it was, its space after the comma too


def ris_stored(*, value: str) -> str:
    """The stored name of an AU value: "Last, First" and "Last, First, Suffix" turned round
    ("First Last", "First Last, Suffix"); a value without a comma stays as written."""
    parts = value.split(",", 2)
    if len(parts) == 1:
        return value.strip()
    name = " ".join(part.strip() for part in (parts[1], parts[0]) if part.strip())
    return f"{name},{parts[2]}".strip() if len(parts) == 3 and parts[2].strip() else name


def csl_name(*, name: str) -> dict[str, str]:
    """A CSL name object: {family, given}, or {literal} for a name that is no such pair."""
    pair = family_given(name=name)
    return {"family": pair[0], "given": pair[1]} if pair else {"literal": name}


def csl_stored(*, value: dict[str, object]) -> str:
    """The stored name of a CSL name object: its literal, or given, particles and family in
    reading order with any suffix after a comma."""

    def text(key: str) -> str:
        """The name part under `key` as text; "" when missing or no string."""
        part = value.get(key)
        return part.strip() if isinstance(part, str) else ""

    if text("literal"):
        return text("literal")
    keys = ("given", "dropping-particle", "non-dropping-particle", "family")
    name = " ".join(part for part in map(text, keys) if part)
    return f"{name}, {text('suffix')}" if name and text("suffix") else name
