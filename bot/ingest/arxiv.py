"""arXiv identifiers: every written form of one paper reduced to one canonical id."""

from __future__ import annotations

import re

# Archives of the pre-2007 scheme. A whitelist, because `foo/0112017` is far more
# likely a path fragment than a paper, and old ids carry no other checksum.
OLD_ARCHIVES = frozenset(
    {
        "acc-phys",
        "adap-org",
        "alg-geom",
        "ao-sci",
        "astro-ph",
        "atom-ph",
        "bayes-an",
        "chao-dyn",
        "chem-ph",
        "cmp-lg",
        "comp-gas",
        "cond-mat",
        "cs",
        "dg-ga",
        "funct-an",
        "gr-qc",
        "hep-ex",
        "hep-lat",
        "hep-ph",
        "hep-th",
        "math",
        "math-ph",
        "mtrl-th",
        "nlin",
        "nucl-ex",
        "nucl-th",
        "patt-sol",
        "physics",
        "plasm-ph",
        "q-alg",
        "q-bio",
        "quant-ph",
        "solv-int",
        "supr-con",
    }
)

_NEW = r"(?P<yymm>\d{4})\.(?P<num>\d{4,5})"
# An old id may carry its subject class (math.GT/0309136); the canonical form drops it.
_OLD = (
    r"(?P<archive>[a-z]+(?:-[a-z]+)?)(?:\.[a-z]{2,}(?:-[a-z]{2,})?)?"
    r"/(?P<oyymm>\d{4})(?P<onum>\d{3})"
)
_ID = rf"(?:{_NEW}|{_OLD})(?:v(?P<version>\d+))?"

_HOST = r"(?:https?://)?(?:(?:www|export|lanl)\.)?arxiv\.org"
_URL_RE = re.compile(
    rf"{_HOST}/(?:abs|pdf|html|format|ps)/{_ID}(?:\.pdf)?/?(?:[?#]\S*)?",
    re.IGNORECASE,
)
_PREFIXED_RE = re.compile(rf"arxiv\s*:\s*{_ID}", re.IGNORECASE)
_BARE_RE = re.compile(_ID, re.IGNORECASE)

# Punctuation that surrounds an id in running text but is never part of one.
_TRIM = " \t\r\n.,;:!?\"'()[]<>{}"


def _canonical(*, match: re.Match[str]) -> str | None:
    """The canonical id for a regex match of `_ID`, or None when its date is impossible."""
    if match.group("yymm") is not None:
        yymm, num = match.group("yymm"), match.group("num")
        month = int(yymm[2:])
        # 4-digit numbers ran from 0704 to 1412, 5-digit ones from 1501 on.
        four_ok = len(num) == 4 and "0704" <= yymm <= "1412"
        five_ok = len(num) == 5 and yymm >= "1501"
        if not 1 <= month <= 12 or not (four_ok or five_ok):
            return None
        return f"{yymm}.{num}"
    archive = match.group("archive").lower()
    oyymm = match.group("oyymm")
    year, month = int(oyymm[:2]), int(oyymm[2:])
    # The old scheme ran from August 1991 to March 2007.
    if archive not in OLD_ARCHIVES or not 1 <= month <= 12 or not (year >= 91 or year <= 7):
        return None
    return f"{archive}/{oyymm}{match.group('onum')}"


def canonical_arxiv_id(*, text: str) -> str | None:
    """The version-less, lower-case arXiv id that `text` (an id or arXiv URL) names, or None."""
    candidate = text.strip().strip(_TRIM)
    for pattern in (_URL_RE, _PREFIXED_RE, _BARE_RE):
        match = pattern.fullmatch(candidate)
        if match is not None:
            return _canonical(match=match)
    return None


def find_arxiv_id(*, text: str) -> str | None:
    """The first arXiv URL or `arXiv:`-prefixed id inside running text, or None."""
    if "arxiv" not in text.lower():
        return None
    for pattern in (_URL_RE, _PREFIXED_RE):
        for match in pattern.finditer(text):
            # A longer run of digits or letters around the match means it is part of
            # some other token, e.g. a version-control hash or a bigger number.
            end = match.end()
            if end < len(text) and text[end].isalnum():
                continue
            found = _canonical(match=match)
            if found is not None:
                return found
    return None


def arxiv_abs_url(*, arxiv_id: str) -> str:
    """The abstract page URL of a canonical arXiv id."""
    return f"https://arxiv.org/abs/{arxiv_id}"


def arxiv_pdf_url(*, arxiv_id: str) -> str:
    """The PDF URL of a canonical arXiv id."""
    return f"https://arxiv.org/pdf/{arxiv_id}"


def arxiv_month(*, arxiv_id: str) -> tuple[int, int] | None:
    """(year, month) an arXiv id was given in, read from its YYMM: the submission month, the
    one date every arXiv paper has (old-style ids run from 1991, so 91-99 are the 1900s);
    None for anything that is no canonical id."""
    found = re.search(r"(?:^|/)(\d\d)(\d\d)(?:\.|\d{3}$)", arxiv_id)
    if found is None:
        return None
    yy, month = int(found.group(1)), int(found.group(2))
    return (1900 + yy if yy >= 91 else 2000 + yy), month
