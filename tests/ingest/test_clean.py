"""Cleaning: TeX leftovers, Unicode, control characters, whitespace and ellipses."""

from __future__ import annotations

import sqlite3

import pytest

from bot.ingest.clean import clean_text, tex_to_unicode


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("highly-constrai\\-ned units", "highly-constrained units"),
        ("The $O(N^4)$ run time", "The O(N^4) run time"),
        ("an \\emph{x} and a \\textit{y} and \\textbf{z}", "an x and a y and z"),
        ('Schr{\\"o}dinger', "Schrödinger"),
        ('Schr\\"odinger', "Schrödinger"),
        ('Schr\\"{o}dinger', "Schrödinger"),
        ("Erd\\H{o}s and \\v{C}ech and Fran\\c{c}ais", "Erdős and Čech and Français"),
        ("na\\\"{\\i}ve caf\\'e", "naïve café"),
        ("Stra{\\ss}e and {\\o}re", "Straße and øre"),
        ("pages 1--10 --- done", "pages 1–10 — done"),
        ("Fig.~3 and Smith~et~al.", "Fig. 3 and Smith et al."),
        ("costs ~50% less", "costs ~50% less"),
        ("costs $5 and $10", "costs $5 and $10"),
        ("100\\% of \\$5 \\& more \\#1 a\\_b", "100% of $5 & more #1 a_b"),
        ("{Deep} {L}earning", "Deep Learning"),
        ("as shown \\cite{foo,bar} before", "as shown before"),
        ("with $\\alpha \\leq \\beta$", "with α ≤ β"),
        ("{\\bf bold} and {\\it it}", "bold and it"),
        ("``quoted''", "“quoted”"),
        ("line\\\\break", "line break"),
        ("\\LaTeX{} rocks", "LaTeX rocks"),
        ("\\href{https://x.org}{the site}", "the site"),
        ("\\unknown{word}", "word"),
    ],
)
def test_tex_leftovers_are_cleaned(raw: str, expected: str) -> None:
    assert clean_text(text=raw) == expected


def test_whitespace_control_and_format_characters() -> None:
    raw = "  a\tb\n\nc\x00d\x07e soft\u00adhyphen zero\u200bwidth\ufeff  "
    assert clean_text(text=raw) == "a b c d e softhyphen zerowidth"


def test_unicode_is_nfc() -> None:
    assert clean_text(text="e\u0301") == "\u00e9"


def test_three_dots_become_an_ellipsis_that_stays_attached() -> None:
    assert clean_text(text="is still a challenging...") == "is still a challenging…"
    assert clean_text(text="cut … …") == "cut …"


def test_a_word_before_the_ellipsis_stays_searchable() -> None:
    cleaned = clean_text(text="performing efficient data slicing is still a challenging…")
    assert cleaned.endswith("challenging…")
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61')")
    db.execute("INSERT INTO t (body) VALUES (?)", (cleaned,))
    assert db.execute("SELECT count(*) FROM t WHERE t MATCH 'challenging'").fetchone() == (1,)
    db.close()


def test_plain_text_passes_untouched() -> None:
    assert tex_to_unicode(text="plain words only") == "plain words only"
