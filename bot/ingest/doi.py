"""DOIs: every written form (bare, doi:, doi.org URLs, URL-encoded) reduced to one."""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

_PREFIX_RE = re.compile(
    r"^(?:doi\s*:\s*|(?:https?://)?(?:dx\.|www\.)?doi\.org/|https?://doi\.acm\.org/)",
    re.IGNORECASE,
)
# Registrant codes are 4 to 9 digits, optionally dotted (10.1000.10/xyz); a suffix is any
# printable text (SICI DOIs hold "#", "<" and ";"), never a space or control character.
_DOI_RE = re.compile(r"10\.\d{4,9}(?:\.\d+)*/[^\s\x00-\x1f\x7f]+")
_FIND_RE = re.compile(
    r"(?:doi\s*:\s*|(?:https?://)?(?:dx\.|www\.)?doi\.org/)?(10\.\d{4,9}(?:\.\d+)*/[^\s\"'<>]+)",
    re.IGNORECASE,
)
_TRAILING = ".,;:!?\"'"
_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}


def _trim(*, doi: str) -> str:
    """`doi` without the punctuation running text puts after it; balanced brackets stay."""
    while doi:
        last = doi[-1]
        if last in _TRAILING or (last in _CLOSERS and doi.count(last) > doi.count(_CLOSERS[last])):
            doi = doi[:-1]
        else:
            break
    return doi


def _without_prefix(*, text: str) -> str:
    """`text` without a leading doi: or resolver URL, and without that URL's query."""
    prefix = _PREFIX_RE.match(text)
    if prefix is None:
        return text
    rest = text[prefix.end() :].strip()
    if "/" in prefix.group(0):
        # A query or fragment belongs to the resolver URL, not to the DOI.
        rest = re.split(r"[?#]", rest, maxsplit=1)[0]
    return rest


def normalise_doi(*, text: str) -> str | None:
    """The lower-case bare DOI that `text` (a DOI, doi: or doi.org URL) names, or None."""
    candidate = _without_prefix(text=text.strip().lstrip("<([{\"'").strip())
    if "%" in candidate:
        candidate = _without_prefix(text=unquote(candidate))
    candidate = _trim(doi=candidate)
    if _DOI_RE.fullmatch(candidate) is None:
        return None
    return candidate.lower()


def find_doi(*, text: str) -> str | None:
    """The first DOI inside running text, or None."""
    if "10." not in text:
        return None
    for match in _FIND_RE.finditer(text):
        found = normalise_doi(text=match.group(1))
        if found is not None:
            return found
    return None


def doi_url(*, doi: str) -> str:
    """The resolver URL of a DOI, with the characters a URL cannot carry escaped."""
    return "https://doi.org/" + quote(doi, safe="/:;()._-")
