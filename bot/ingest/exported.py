"""The fields only our own exports carry (status, list, title_derived), read back onto a draft
in every format, so that an export imports back with its list's header paper still a reference
(never posted), each paper in its list, and a title made from the abstract still marked so."""

from __future__ import annotations

import re
from dataclasses import replace

from bot.domain import PaperDraft

# The reading_lists.name column holds 300 characters.
LIST_NAME_MAX = 300
# BibTeX fields every BibTeX style and reference manager skips as unknown (BibDesk's
# "date-added" works the same way). `note` or `keywords` would be printed in bibliographies
# or rewritten by reference managers, so they are left to the user. The same names label
# these fields in RIS's custom tags ("C1  - paperclub-status: posted") and CSL-JSON's "custom".
BIB_STATUS = "paperclub-status"
BIB_LIST = "paperclub-list"
BIB_TITLE_DERIVED = "paperclub-title-derived"
# A braced BibTeX value must keep its braces balanced and TeX gives "\" a meaning, so these
# characters (and "%", the escape itself) are written percent-encoded in paperclub-list.
_BIB_ESCAPES = {"%": "%25", "{": "%7B", "}": "%7D", "\\": "%5C"}
_BIB_UNESCAPE_RE = re.compile("|".join(re.escape(v) for v in _BIB_ESCAPES.values()), re.I)
_BIB_UNESCAPES = {v: k for k, v in _BIB_ESCAPES.items()}


def clean_list_name(*, text: str) -> str:
    """A list's name as stored: one line, spacing collapsed, at most LIST_NAME_MAX characters
    (a longer one ends in "…"), so that every format carries it back unchanged."""
    name = " ".join(text.split())
    return name if len(name) <= LIST_NAME_MAX else name[: LIST_NAME_MAX - 1] + "…"


def is_true(*, text: str) -> bool:
    """A CSV or BibTeX cell read as a yes: "true" (what we write), "1" or "yes"."""
    return text.strip().lower() in {"true", "1", "yes"}


def with_exported(
    *, draft: PaperDraft, status: str, list_name: str, title_derived: bool
) -> PaperDraft:
    """`draft` with our export's fields: a reference stays one, a list keeps its name, a title
    made from the abstract stays marked as such (a draft whose title was derived stays so)."""
    return replace(
        draft,
        reference=status.strip().lower() == "reference",
        list_name=clean_list_name(text=list_name),
        title_derived=draft.title_derived or title_derived,
    )


def bib_list_value(*, name: str) -> str:
    """`name` as paperclub-list's braced value: braces, backslashes and "%" percent-encoded."""
    return "".join(_BIB_ESCAPES.get(char, char) for char in name)


def bib_list_name(*, value: str) -> str:
    """The list name a paperclub-list value encodes (bib_list_value undone)."""
    return _BIB_UNESCAPE_RE.sub(lambda m: _BIB_UNESCAPES[m.group(0).upper()], value)
