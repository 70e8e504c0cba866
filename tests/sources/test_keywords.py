"""A watch's keyword and author filters, and the reason they give."""

from __future__ import annotations

from bot.sources.candidates import Candidate
from bot.sources.keywords import FilterMatch, match_filters

PAPER = Candidate(
    title="Self-Supervised Pipelines for Café Robots 🤖",
    source="s",
    abstract="We build a <b>pipeline</b> of networks.",
    authors=("Paul Pegon", "Ēriks Kupče", "van der Berg, Anna"),
)


def test_keywords_are_whole_words_case_and_accent_insensitive() -> None:
    found = match_filters(
        candidate=PAPER, keywords=["PIPELINE", "cafe robots", "pipe", "self supervised"]
    )
    assert found == FilterMatch(keywords=("PIPELINE", "cafe robots", "self supervised"))
    assert match_filters(candidate=PAPER, keywords=["net"]) is None


def test_authors_by_family_name_and_initial() -> None:
    for wanted in ("Pegon", "P. Pegon", "Paul Pegon", "Pegon, P.", "KUPCE", "E Kupče", "Berg"):
        assert match_filters(candidate=PAPER, authors=[wanted]) == FilterMatch(authors=(wanted,))
    assert match_filters(candidate=PAPER, authors=["Q. Pegon"]) is None
    assert match_filters(candidate=PAPER, authors=["Smith"]) is None


def test_either_filter_lets_a_candidate_through_and_both_are_named() -> None:
    found = match_filters(candidate=PAPER, keywords=["robots", "sheep"], authors=["Smith", "Pegon"])
    assert found == FilterMatch(keywords=("robots",), authors=("Pegon",))


def test_no_filters_pass_everything_and_empty_filters_are_ignored() -> None:
    assert match_filters(candidate=PAPER) == FilterMatch()
    assert match_filters(candidate=PAPER, keywords=["  ", "!!"], authors=[""]) == FilterMatch()


def test_hostile_keywords_are_just_words() -> None:
    assert match_filters(candidate=PAPER, keywords=["<@U1>", "*bold*", "🤖"]) is None
    assert match_filters(candidate=PAPER, keywords=["x" * 10_000]) is None
