"""The day's tray: at most N new candidates, deduplicated against the archive and each other."""

from __future__ import annotations

from bot.sources.candidates import Candidate, candidate_keys, make_candidate
from bot.sources.rank import NEW, RankedCandidate
from bot.sources.tray import PER_DAY, fill_tray


def _item(
    title: str, *, arxiv: str = "", doi: str = "", announce: str | None = None
) -> RankedCandidate:
    made = make_candidate(
        source="s",
        title=title,
        abstract=f"About {title}.",
        arxiv_id=arxiv,
        doi=doi,
        announce=announce,
    )
    assert made is not None
    return RankedCandidate(candidate=made, score=0.0, reason=NEW)


def _titles(tray: tuple[RankedCandidate, ...]) -> list[str]:
    return [r.candidate.title for r in tray]


def test_at_most_n_in_rank_order() -> None:
    ranked = [_item(f"Paper {n}", arxiv=f"2401.0000{n}") for n in range(6)]
    assert _titles(fill_tray(ranked=ranked, known=())) == ["Paper 0", "Paper 1", "Paper 2"]
    assert PER_DAY == 3
    assert len(fill_tray(ranked=ranked, known=(), limit=5)) == 5
    assert fill_tray(ranked=ranked, known=(), limit=0) == ()


def test_nothing_new_is_an_empty_tray() -> None:
    ranked = [_item("Read", arxiv="2401.00001"), _item("Also read", doi="10.1234/x")]
    known = {"arxiv:2401.00001", "doi:10.1234/x"}
    assert fill_tray(ranked=ranked, known=known) == ()
    assert fill_tray(ranked=[], known=()) == ()


def test_a_replacement_of_a_paper_read_is_not_new() -> None:
    read = _item("Read paper", arxiv="2401.00001v1").candidate
    replaced = _item("Read paper, revised", arxiv="2401.00001v3", announce="replace")
    fresh = _item("Fresh paper", arxiv="2401.00002", announce="replace")
    tray = fill_tray(ranked=[replaced, fresh], known=candidate_keys(candidate=read))
    assert _titles(tray) == ["Fresh paper"]


def test_duplicates_among_candidates_keep_the_best_ranked_once() -> None:
    cross = _item("Cross-listed", arxiv="2401.00005")  # announced in two watched categories
    preprint_doi = _item("Published version", doi="10.48550/arXiv.2401.00005")
    same_title = _item("cross listed")  # another source, no ids, the same title
    other = _item("Other", arxiv="2401.00006")
    tray = fill_tray(ranked=[cross, cross, preprint_doi, same_title, other], known=())
    assert _titles(tray) == ["Cross-listed", "Other"]


def test_keys_join_through_a_known_candidate() -> None:
    # Known by its arXiv id, the first one also carries a DOI: a later copy giving only that
    # DOI is the same paper, though the archive never held the DOI.
    both = _item("Known", arxiv="2401.00001", doi="10.1234/j.1")
    doi_only = _item("Journal version of known", doi="10.1234/J.1")
    tray = fill_tray(ranked=[both, doi_only], known={"arxiv:2401.00001"})
    assert tray == ()


def test_hostile_titles_dedupe_by_their_words() -> None:
    hostile = Candidate(title="<!channel> *Bold* 🧪 " * 500, source="a")
    twin = Candidate(title="<!channel> *bold* 🧪 " * 500, source="b")
    assert (
        len(fill_tray(ranked=[RankedCandidate(c, 0.0, NEW) for c in (hostile, twin)], known=()))
        == 1
    )
