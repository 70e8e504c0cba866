"""The search syntax, and the promise that nothing a user types acts as FTS5 syntax."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain import PaperStatus
from bot.search_query import (
    ANY,
    EVERY,
    MAX_TERMS,
    SOME,
    SearchQuery,
    TsTerm,
    fts5_authors,
    fts5_excluded,
    fts5_match,
    fts5_words,
    parse_query,
    quote_fts,
    related_words,
    tsquery_terms,
)


def test_words_and_phrases() -> None:
    """Bare words are terms; quoted text is a phrase; one quoted word is a term."""
    query = parse_query(text='pipeline "persistent homology" "bubbles"')
    assert query.terms == ("pipeline", "bubbles")
    assert query.phrases == ("persistent homology",)
    assert query.has_text and query.notes == ()


def test_excluded_words_and_phrases() -> None:
    """A leading minus excludes a word or a quoted phrase."""
    query = parse_query(text='attention -dense -"sparse mixture"')
    assert query.terms == ("attention",)
    assert query.excluded == ("dense", "sparse mixture")


def test_filters() -> None:
    """author:, after:, before:, in: and is: become filters, not words."""
    query = parse_query(
        text='author:silva author:"Ana Silva" after:2026-01-31 before:2026-03-01 '
        "in:#general is:posted tensor"
    )
    assert query == SearchQuery(
        terms=("tensor",),
        authors=("silva", "Ana Silva"),
        after=date(2026, 1, 31),
        before=date(2026, 3, 1),
        channel="#general",
        status=PaperStatus.POSTED,
    )


@pytest.mark.parametrize(
    ("text", "channel"),
    [
        ("in:C0123", "C0123"),
        ("in:#general", "#general"),
        ("in:#C0123", "#C0123"),
    ],
)
def test_channels_as_typed(text: str, channel: str) -> None:
    """The channel is kept as typed (platform edges turn their mentions into ids first)."""
    assert parse_query(text=text).channel == channel


@pytest.mark.parametrize("status", ["queued", "posted", "skipped", "POSTED"])
def test_status(status: str) -> None:
    """is: takes the three states, in any case."""
    assert parse_query(text=f"is:{status}").status == PaperStatus(status.lower())


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("after:2026-13-01", "ignored after:2026-13-01"),
        ("before:yesterday", "ignored before:yesterday"),
        ("after:20260101", "ignored after:20260101"),
        ("is:read", "ignored is:read"),
        ("author:", "ignored author: it needs a value"),
        ("-is:posted", "ignored -is:posted"),
        ("🚀 *", "ignored 🚀 *"),
    ],
)
def test_what_cannot_be_used_is_noted(text: str, note: str) -> None:
    """Bad dates, unknown states, empty and excluded filters, and symbols give notes."""
    query = parse_query(text=text)
    assert any(n.startswith(note) for n in query.notes), query.notes
    assert query.after is None and query.before is None and query.status is None


def test_duplicates_and_limits() -> None:
    """Repeated words count once; past MAX_TERMS and 2,000 characters the rest is noted."""
    assert parse_query(text="GPU gpu Gpu").terms == ("GPU",)
    many = parse_query(text=" ".join(f"word{n}" for n in range(MAX_TERMS + 8)))
    assert len(many.terms) == MAX_TERMS and "8 more ignored" in many.notes[-1]
    long = parse_query(text="x" * 10_000)
    assert long.terms == ("x" * 2000,) and "2,000 characters" in long.notes[0]


def test_controls_and_bidi_marks_go_but_rtl_words_stay() -> None:
    """NUL and friends become spaces; invisible RTL marks go; Hebrew and Arabic stay."""
    query = parse_query(text="a\x00b \u200fשלום\u200f مرحبا")
    assert query.terms == ("a", "b", "שלום", "مرحبا")


def test_empty_text() -> None:
    """Nothing typed: nothing to match, no filters, no notes."""
    assert parse_query(text="   ") == SearchQuery()
    assert fts5_match(query=SearchQuery()) is None


def test_fts5_expression_quotes_every_token() -> None:
    """Operators, columns, stars and carets typed by a user are quoted strings."""
    query = parse_query(text='NEAR(a b) OR title:x c* ^d "AND NOT" -OR')
    assert fts5_match(query=query) == (
        '("NEAR(a" "b)" "OR" "title:x" "c*" "^d" "AND NOT") NOT ("OR")'
    )
    assert fts5_match(query=parse_query(text="gpu b"), any_term=True) == '("gpu" OR "b")'
    assert quote_fts(text='say "hi"') == '"say ""hi"""'


def test_related_papers_match_every_phrase_and_some_words() -> None:
    """Hyphenated words count as their parts; stop words relate nothing unless alone."""
    query = parse_query(text='retrieval-augmented generation of "long context" -survey')
    assert related_words(query=query) == ("retrieval", "augmented", "generation")
    assert fts5_words(query=query, words=EVERY) == (
        '("retrieval-augmented" "generation" "of" "long context") NOT ("survey")'
    )
    assert fts5_words(query=query, words=SOME) == (
        '("long context" "retrieval" OR "long context" "augmented" OR "long context" '
        '"generation") NOT ("survey")'
    )
    assert fts5_words(query=query, words=ANY) == (
        '("retrieval" OR "augmented" OR "generation" OR "long context") NOT ("survey")'
    )
    assert related_words(query=parse_query(text="of the")) == ("of", "the")
    # One word (or one with phrases): its related papers would be its own matches.
    for text in ("diffusion", '"ring all-reduce" gpu', "author:x gpu"):
        query = parse_query(text=text)
        assert related_words(query=query) == ()
        assert fts5_words(query=query, words=SOME) == fts5_words(query=query, words=EVERY)


def test_filters_only_has_no_match_expression() -> None:
    """Filters and exclusions alone give no MATCH; the exclusions have their own."""
    query = parse_query(text="is:queued -dense -sparse")
    assert fts5_match(query=query) is None
    assert fts5_excluded(query=query) == '"dense" OR "sparse"'


def test_authors_expression_is_a_column_filter_we_write() -> None:
    """Each author: value must appear, as a phrase, in the authors column."""
    query = parse_query(text='author:"Ana Silva" author:kim')
    assert fts5_authors(query=query) == '{authors} : ("Ana Silva" "kim")'
    assert fts5_authors(query=SearchQuery()) is None


def test_tsquery_terms_bind_words_not_syntax() -> None:
    """PostgreSQL gets function names we chose and the user's words as data."""
    query = parse_query(text='gpu "tensor parallel" -dense')
    assert tsquery_terms(query=query) == (
        TsTerm(function="plainto_tsquery", text="gpu"),
        TsTerm(function="phraseto_tsquery", text="tensor parallel"),
        TsTerm(function="phraseto_tsquery", text="dense", negated=True),
    )


SYNTAX = st.sampled_from(
    [
        '"',
        '""',
        "'",
        "(",
        ")",
        "*",
        "^",
        ":",
        "-",
        "+",
        "{",
        "}",
        "[",
        "]",
        ",",
        ".",
        "NEAR",
        "NEAR(",
        "AND",
        "OR",
        "NOT",
        "title",
        "authors",
        "abstract",
        "text",
        "rank",
        "rowid",
        "papers_fts",
        "{title authors}:",
        "author:",
        "in:",
        "is:",
        "after:",
        "before:",
        "presenter:",
        "session:",
        "2026-12-08",
        "<@U1|x>",
        "<#C1|x>",
        "&lt;",
        "&amp;",
        "\x00",
        "\u200f",
        "\u202e",
        "🚀",
        "👍🏽",
        "שלום",
        "مرحبا",
        "ñ",
        "é",
        "\ufeff",
        "\ud7ff",
        "gpu",
        "pipeline",
    ]
)
NASTY = st.lists(SYNTAX | st.text(max_size=8), max_size=30).map(
    lambda parts: " ".join(parts) if len(parts) % 2 else "".join(parts)
)


@pytest.fixture(scope="module")
def fts() -> Iterator[sqlite3.Connection]:
    """An FTS5 table with the schema's tokenizer, to run every expression against."""
    connection = sqlite3.connect(":memory:")
    connection.execute(
        "CREATE VIRTUAL TABLE t USING fts5(title, authors, abstract, "
        "tokenize='porter unicode61 remove_diacritics 2')"
    )
    connection.execute("INSERT INTO t VALUES ('Pipeline bubbles', '[\"Ana Silva\"]', 'gpu')")
    yield connection
    connection.close()


@settings(max_examples=300, database=None, deadline=None)
@given(text=st.text() | NASTY)
def test_any_text_parses_into_an_expression_fts5_accepts(
    fts: sqlite3.Connection, text: str
) -> None:
    """Whatever is typed: no exception, and FTS5 accepts every expression built from it."""
    query = parse_query(text=text)
    for expression in (
        fts5_match(query=query),
        fts5_match(query=query, any_term=True),
        fts5_words(query=query, words=SOME),
        fts5_excluded(query=query),
        fts5_authors(query=query),
    ):
        if expression is not None:
            fts.execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall()
    assert len(query.terms) + len(query.phrases) + len(query.excluded) <= MAX_TERMS


def test_meeting_filters_parse_mentions_names_and_dates() -> None:
    assert parse_query(text="presenter:<@U0123|ana> x").presenter == "U0123"
    assert parse_query(text="presenter:<@!123456789012345678>").presenter == "123456789012345678"
    assert parse_query(text='presenter:"Ana Silva"').presenter == "Ana Silva"
    assert parse_query(text="presenter:@ana session:2026-12-08").session == date(2026, 12, 8)
    assert parse_query(text="presenter:@").presenter is None
    assert parse_query(text="presenter:@").notes == ("ignored presenter:@: it needs a name",)
    dropped = parse_query(text="session:31/12 -presenter:ana")
    assert dropped.session is None and dropped.presenter is None and len(dropped.notes) == 2
