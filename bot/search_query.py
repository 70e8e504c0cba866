"""The text a user typed into search -> a SearchQuery, and safe full-text expressions from it.

Syntax: words, "quoted phrases", -excluded words (or -"phrases"), author:name or
author:"Ana Silva", after:/before:YYYY-MM-DD (against the post date, exclusive),
in:C0123 or in:#C0123 (the platform's channel id), is:queued / is:posted / is:skipped,
presenter:name or presenter:@U0123 (the paper a meeting's poll chose for a session that member
presented), session:YYYY-MM-DD (the paper chosen for that day's session).
Nothing here raises on any input: what cannot be used is dropped with a note.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from typing import Literal

from bot.domain import PaperStatus
from bot.domain.stopwords import STOPWORDS

MAX_TEXT = 2000
MAX_TERMS = 32

_TOKEN = re.compile(
    r'(?P<neg>-?)(?:(?P<key>author|after|before|in|is|presenter|session):)?(?:"(?P<phrase>[^"]*)"?|(?P<word>[^\s"]+))',
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W_]+")  # a run of letters and digits: both tokenizers split elsewhere
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)
_BARE_KEY = re.compile(r"(author|after|before|in|is|presenter|session):", re.IGNORECASE)
# A mention as a platform writes it (Slack's <@U0123|name>, Discord's <@123> or <@!123>).
_MENTION = re.compile(r"<@!?([A-Za-z0-9]{1,64})(?:\|[^>]*)?>")


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """A parsed search: what to match, what to filter on, and what was ignored."""

    terms: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    after: date | None = None
    before: date | None = None
    channel: str | None = None
    status: PaperStatus | None = None
    # A meeting's member as typed (a mention's id, without its @), and a session's local date.
    presenter: str | None = None
    session: date | None = None
    notes: tuple[str, ...] = ()

    @property
    def has_text(self) -> bool:
        """True when there are words or phrases to match (not only filters)."""
        return bool(self.terms or self.phrases)

    @property
    def positives(self) -> tuple[str, ...]:
        """Words and phrases a hit must contain."""
        return self.terms + self.phrases


@dataclass(frozen=True, slots=True)
class TsTerm:
    """One piece of a PostgreSQL tsquery: a function name we chose and the user's text."""

    function: Literal["plainto_tsquery", "phraseto_tsquery"]
    text: str
    negated: bool = False


def _clean(*, text: str) -> str:
    """Controls become spaces; surrogates and invisible format marks (RTL, ZWJ) go."""
    out = []
    for char in text:
        category = unicodedata.category(char)
        if category == "Cc":
            out.append(" ")
        elif category not in ("Cs", "Cf"):
            out.append(char)
    return "".join(out)


def _searchable(*, text: str) -> bool:
    """Whether the text has a letter or digit, i.e. anything a tokenizer would index."""
    return any(char.isalnum() for char in text)


class _Builder:
    """Collects the parts of a query while scanning the text."""

    def __init__(self) -> None:
        """Start empty."""
        self.lists: dict[str, list[str]] = {"terms": [], "phrases": [], "excluded": []}
        self.authors: list[str] = []
        self.dates: dict[str, date] = {}
        self.channel: str | None = None
        self.presenter: str | None = None
        self.status: PaperStatus | None = None
        self.notes: list[str] = []
        self.seen: set[str] = set()
        self.unsearchable: list[str] = []
        self.dropped = 0

    def add(self, *, kind: str, text: str) -> None:
        """Keep a word or phrase once (case-insensitively), within the term budget."""
        text = " ".join(text.split())
        key = f"{kind}:{text.casefold()}"
        if not _searchable(text=text):
            self.unsearchable.append(text)
            return
        if key in self.seen:
            return
        if len(self.seen) >= MAX_TERMS:
            self.dropped += 1
            return
        self.seen.add(key)
        (self.authors if kind == "authors" else self.lists[kind]).append(text)

    def filter(self, *, key: str, value: str, negated: bool) -> None:
        """Apply one key:value filter, or note why it was ignored."""
        shown = f"{key}:{value}"[:60]
        if negated:
            self.notes.append(f"ignored -{shown}: filters cannot be excluded")
        elif not value.strip():
            self.notes.append(f"ignored {key}: it needs a value")
        elif key == "author":
            self.add(kind="authors", text=value)
        elif key in ("after", "before", "session"):
            self._date(key=key, value=value.strip(), shown=shown)
        elif key == "presenter":
            self._presenter(value=value.strip())
        elif key == "in":
            self._channel(value=value.strip())
        elif value.strip().lower() in {status.value for status in PaperStatus}:
            self.status = PaperStatus(value.strip().lower())
        else:
            self.notes.append(f"ignored {shown}: use is:queued, is:posted or is:skipped")

    def _date(self, *, key: str, value: str, shown: str) -> None:
        """Read a YYYY-MM-DD date."""
        try:
            if not _DATE.fullmatch(value):
                raise ValueError(value)
            self.dates[key] = date.fromisoformat(value)
        except ValueError:
            self.notes.append(f"ignored {shown}: dates look like 2026-01-31")

    def _channel(self, *, value: str) -> None:
        """The channel as typed (the platform edge turned a mention into its id)."""
        self.channel = value[:80]

    def _presenter(self, *, value: str) -> None:
        """A member's id or display name: a mention turned into its id, a leading @ off."""
        mention = _MENTION.fullmatch(value)
        member = (mention[1] if mention else value.removeprefix("@").strip())[:80]
        if member:
            self.presenter = member
        else:
            self.notes.append("ignored presenter:@: it needs a name")

    def build(self) -> SearchQuery:
        """The frozen query."""
        if self.unsearchable:
            shown = " ".join(item[:20] for item in self.unsearchable[:5])
            self.notes.append(f"ignored {shown}: no letters or digits to search for")
        if self.dropped:
            self.notes.append(f"used the first {MAX_TERMS} terms; {self.dropped} more ignored")
        return SearchQuery(
            terms=tuple(self.lists["terms"]),
            phrases=tuple(self.lists["phrases"]),
            excluded=tuple(self.lists["excluded"]),
            authors=tuple(self.authors),
            after=self.dates.get("after"),
            before=self.dates.get("before"),
            channel=self.channel,
            status=self.status,
            presenter=self.presenter,
            session=self.dates.get("session"),
            notes=tuple(self.notes),
        )


def parse_query(*, text: str) -> SearchQuery:
    """Parse what a user typed; never raises, notes what it ignored."""
    builder = _Builder()
    if len(text) > MAX_TEXT:
        builder.notes.append(f"used the first {MAX_TEXT:,} characters of the query")
        text = text[:MAX_TEXT]
    for match in _TOKEN.finditer(_clean(text=text)):
        negated = bool(match["neg"])
        phrase, word, key = match["phrase"], match["word"], match["key"]
        if key:
            builder.filter(key=key.lower(), value=phrase if word is None else word, negated=negated)
        elif word is not None and _BARE_KEY.fullmatch(word):
            builder.filter(key=word[:-1].lower(), value="", negated=negated)
        elif negated:
            builder.add(kind="excluded", text=phrase if word is None else word)
        elif phrase is not None:
            builder.add(kind="phrases" if len(phrase.split()) > 1 else "terms", text=phrase)
        else:
            builder.add(kind="terms", text=word)
    return builder.build()


def quote_fts(*, text: str) -> str:
    """An FTS5 string: whatever is inside is only ever tokenized, never read as syntax."""
    return '"' + text.replace('"', '""') + '"'


# Which words a match asks for: every word and phrase; every phrase and some of the words (the
# related papers that follow those with every word); any word or phrase (no paper has every
# word: the relaxed search).
Words = Literal["every", "some", "any"]
EVERY: Words = "every"
SOME: Words = "some"
ANY: Words = "any"


def fts5_match(*, query: SearchQuery, any_term: bool = False) -> str | None:
    """The FTS5 MATCH expression (all words, or any with any_term); None for filters only."""
    return fts5_words(query=query, words=ANY if any_term else EVERY)


def fts5_words(*, query: SearchQuery, words: Words) -> str | None:
    """The FTS5 MATCH expression asking for `words`; None for filters only."""
    if not query.has_text:
        return None
    # Juxtaposition, not AND: FTS5 drops a string that tokenizes to nothing instead of
    # failing the whole match on it.
    quoted = [quote_fts(text=item) for item in query.positives]
    phrases = quoted[len(query.terms) :]
    related = [quote_fts(text=word) for word in related_words(query=query)]
    if words == ANY:
        positive = "(" + " OR ".join(related + phrases if related else quoted) + ")"
    elif words == SOME and related:
        # Every phrase with one of the words, OR'ed: FTS5 juxtaposes strings, not groups.
        positive = "(" + " OR ".join(" ".join([*phrases, word]) for word in related) + ")"
    else:
        positive = "(" + " ".join(quoted) + ")"
    excluded = fts5_excluded(query=query)
    return f"{positive} NOT ({excluded})" if excluded else positive


def related_words(*, query: SearchQuery) -> tuple[str, ...]:
    """The words of which a related paper has some: the bare words split where the tokenizers
    split them (`retrieval-augmented` is two), without the stop words unless nothing else is
    left; none when the query has a single word (its related papers would be its matches)."""
    pieces = [piece for term in query.terms for piece in (_WORD.findall(term) or [term])]
    if len(pieces) < 2:
        return ()
    kept = [piece for piece in pieces if piece.lower() not in STOPWORDS]
    return tuple(dict.fromkeys(kept or pieces))


def fts5_excluded(*, query: SearchQuery) -> str | None:
    """An FTS5 expression matching any excluded word or phrase, or None."""
    if not query.excluded:
        return None
    return " OR ".join(quote_fts(text=item) for item in query.excluded)


def fts5_authors(*, query: SearchQuery) -> str | None:
    """An FTS5 expression requiring every author: name in the authors column, or None."""
    if not query.authors:
        return None
    return "{authors} : (" + " ".join(quote_fts(text=name) for name in query.authors) + ")"


def tsquery_terms(*, query: SearchQuery) -> tuple[TsTerm, ...]:
    """The pieces of a PostgreSQL tsquery; the caller binds each text as a parameter."""
    positives = [TsTerm(function="plainto_tsquery", text=term) for term in query.terms]
    positives += [TsTerm(function="phraseto_tsquery", text=phrase) for phrase in query.phrases]
    negatives = [
        TsTerm(function="phraseto_tsquery", text=item, negated=True) for item in query.excluded
    ]
    return tuple(positives + negatives)
