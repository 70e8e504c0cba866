"""The two fake search engines: arXiv's search_query syntax, Crossref's bibliographic query."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .records import Record, contains_phrase, words

Predicate = Callable[[Record], bool]

# One token of a decoded search_query: "(", ")", field:"a phrase", field:word, or a bare word.
_TOKEN_RE = re.compile(
    r"(?P<open>\()|(?P<close>\))"
    r'|(?:(?P<field>[A-Za-z_]+):)?(?:"(?P<phrase>[^"]*)"?|(?P<word>[^\s()"]+))'
)
_OPERATORS = frozenset({"AND", "OR", "ANDNOT"})


@dataclass(frozen=True)
class _Token:
    """A lexed piece of a query: kind is open, close, op or term."""

    kind: str
    value: str = ""
    field: str = "all"


def _fields(*, record: Record, field: str) -> list[list[str]]:
    """The word lists a field prefix searches; a phrase must sit inside one of them."""
    title, abstract = words(text=record.title), words(text=record.abstract)
    authors = [words(text=name) for name in record.authors]
    by_field = {
        "ti": [title],
        "abs": [abstract],
        "au": authors,
        "all": [title, abstract, *authors],
        "id": [words(text=record.base_id or "")],
        "cat": [words(text=category) for category in record.categories],
    }
    # co:, jr:, rn: name fields the fake does not hold: they match nothing.
    return by_field.get(field, [])


def _lex(*, query: str) -> list[_Token]:
    """Tokens of a decoded query; a literal "+" (an encoded space) separates like a space."""
    tokens: list[_Token] = []
    for match in _TOKEN_RE.finditer(query.replace("+", " ")):
        if match["open"]:
            tokens.append(_Token("open"))
        elif match["close"]:
            tokens.append(_Token("close"))
        elif match["word"] in _OPERATORS and not match["field"]:
            tokens.append(_Token("op", match["word"]))
        else:
            value = match["phrase"] if match["phrase"] is not None else match["word"]
            tokens.append(_Token("term", value, (match["field"] or "all").lower()))
    return tokens


def _term(*, token: _Token) -> Predicate:
    """A record predicate for one field:phrase term."""
    phrase = words(text=token.value)
    return lambda record: any(
        contains_phrase(haystack=haystack, phrase=phrase)
        for haystack in _fields(record=record, field=token.field)
    )


def _combine(*, op: str, left: Predicate, right: Predicate) -> Predicate:
    """Two predicates joined by a Boolean operator."""
    if op == "AND":
        return lambda record: left(record) and right(record)
    if op == "ANDNOT":
        return lambda record: left(record) and not right(record)
    return lambda record: left(record) or right(record)


def _never(record: Record) -> bool:
    """What an empty or broken piece of a query matches: nothing."""
    return False


def _parse_unit(*, tokens: Sequence[_Token], pos: int) -> tuple[Predicate, int]:
    """A term or a parenthesised group starting at `pos`, and where it ends."""
    if pos >= len(tokens):
        return _never, pos
    token = tokens[pos]
    if token.kind == "open":
        inner, pos = _parse_group(tokens=tokens, pos=pos + 1)
        return inner, pos + 1 if pos < len(tokens) and tokens[pos].kind == "close" else pos
    if token.kind == "term":
        return _term(token=token), pos + 1
    return _never, pos + 1  # a stray operator: skipped, like a tolerant parser would


def _parse_group(*, tokens: Sequence[_Token], pos: int) -> tuple[Predicate, int]:
    """Units joined left to right up to a ")" or the end; adjacency means OR (Lucene's default)."""
    left, pos = _parse_unit(tokens=tokens, pos=pos)
    while pos < len(tokens) and tokens[pos].kind != "close":
        op = "OR"
        if tokens[pos].kind == "op":
            op, pos = tokens[pos].value, pos + 1
        right, pos = _parse_unit(tokens=tokens, pos=pos)
        left = _combine(op=op, left=left, right=right)
    return left, pos


def arxiv_predicate(*, query: str) -> Predicate:
    """The records a decoded search_query matches, as a predicate."""
    tokens = _lex(query=query)
    predicate, pos = _parse_group(tokens=tokens, pos=0)
    while pos < len(tokens):  # an unmatched ")" ends a group early: go on after it
        more, pos = _parse_group(tokens=tokens, pos=pos + 1)
        predicate = _combine(op="OR", left=predicate, right=more)
    return predicate


def crossref_ranked(*, records: Sequence[Record], text: str) -> list[tuple[Record, float]]:
    """Records with a DOI sharing words with `text` (title and authors), best overlap first."""
    wanted = set(words(text=text))
    scored: list[tuple[Record, float]] = []
    for record in records:
        if not record.doi:
            continue
        have = set(words(text=" ".join((record.title, *record.authors))))
        overlap = len(wanted & have)
        if overlap or not wanted:  # no query at all: Crossref lists works unranked
            scored.append((record, float(overlap)))
    # sorted() is stable: equal scores keep the catalogue's order, so answers are repeatable.
    return sorted(scored, key=lambda pair: -pair[1])
