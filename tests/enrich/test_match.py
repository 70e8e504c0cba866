"""When a found record is clearly the paper we know: prefixes, near-prefixes, titles with
authors, and what must not match."""

from __future__ import annotations

from bot.domain import PaperDraft
from bot.enrich.match import Known, Verdict, decide, prefix_agreement, words

# The shipped list's second entry, as imported (cut with "…", a TeX soft hyphen in it).
CUT = (
    "Although code generation for Convolution Neural Network (CNN) models has been extensively "
    "studied, performing efficient data slicing and parallelization for highly-constrai\\-ned "
    "Multicore Neural Processor Units (NPUs) is still a challenging…"
)
WHOLE = (
    "Although code generation for Convolution Neural Network (CNN) models has been extensively "
    "studied, performing efficient data slicing and parallelization for highly-constrained "
    "Multicore Neural Processor Units (NPUs) is still a challenging problem. We present Quill, "
    "a compiler that tiles tensors across cores."
)


def _known(**fields: object) -> Known:
    """What we hold, with defaults for a derived title."""
    base: dict[str, object] = {
        "title": CUT[:80] + "…",
        "abstract": CUT,
        "authors": (),
        "title_derived": True,
    }
    return Known(**(base | fields))  # type: ignore[arg-type]


def _record(**fields: object) -> PaperDraft:
    """A record a service returned."""
    base: dict[str, object] = {
        "title": "Quill: Slicing CNNs for Multicore NPUs",
        "abstract": WHOLE,
        "authors": ("Ana Silva", "Bo Chen"),
        "arxiv_id": "2409.00001",
    }
    return PaperDraft(**(base | fields))  # type: ignore[arg-type]


def test_words_ignore_soft_hyphens_ligatures_and_case() -> None:
    assert words("highly-constrai\\-ned ﬁne Tuning") == ["highly", "constrained", "fine", "tuning"]


def test_our_cut_abstract_opening_theirs_is_a_match() -> None:
    decision = decide(known=_known(), candidates=[_record()])
    assert decision.verdict is Verdict.FOUND
    assert decision.found is not None and decision.found.abstract == WHOLE
    assert prefix_agreement(ours=CUT, theirs=WHOLE) == 1.0


def test_a_near_prefix_with_a_typo_still_matches() -> None:
    typo = CUT.replace("extensively", "extensivly").replace("slicing", "slcing")
    assert decide(known=_known(abstract=typo), candidates=[_record()]).verdict is Verdict.FOUND


def test_a_near_miss_that_diverges_does_not_match() -> None:
    other = (
        "Although code generation for Convolution Neural Network (CNN) models has been studied "
        "on GPUs, we show that recurrent models on mobile phones need a different approach."
    )
    decision = decide(known=_known(), candidates=[_record(abstract=other)])
    assert decision.verdict is Verdict.NONE


def test_a_title_with_agreeing_authors_matches_and_disagreeing_ones_do_not() -> None:
    known = _known(
        title="Quill: slicing CNNs for multicore NPUs",
        title_derived=False,
        abstract="",
        authors=("A. Silva",),
    )
    assert decide(known=known, candidates=[_record()]).verdict is Verdict.FOUND
    stranger = _record(authors=("Zed Wu",))
    assert decide(known=known, candidates=[stranger]).verdict is Verdict.NONE


def test_a_cut_title_alone_matches_only_when_long_enough() -> None:
    long_cut = _known(
        title="Nonuniform-Tensor-Parallelism: Mitigating GPU fail…",
        title_derived=False,
        abstract="",
    )
    record = _record(title="Nonuniform-Tensor-Parallelism: Mitigating GPU failures at scale")
    assert decide(known=long_cut, candidates=[record]).verdict is Verdict.FOUND
    short = _known(title="Quill", title_derived=False, abstract="")
    assert decide(known=short, candidates=[_record(title="Quill")]).verdict is Verdict.NONE


def test_a_derived_title_is_no_evidence() -> None:
    known = _known(abstract="", title="Quill: Slicing CNNs for Multicore NPUs")
    assert decide(known=known, candidates=[_record()]).verdict is Verdict.NONE


def test_two_different_papers_that_fit_are_unclear() -> None:
    twin = _record(title="Quill 2: Even More Slicing", authors=("Zed Wu",), arxiv_id="2501.00002")
    decision = decide(known=_known(), candidates=[_record(), twin])
    assert decision.verdict is Verdict.UNCLEAR
    assert len(decision.candidates) == 2


def test_arxiv_and_crossref_records_of_one_paper_are_merged() -> None:
    preprint = _record()
    journal = _record(arxiv_id=None, doi="10.1145/3000001", abstract="", title=preprint.title)
    known = _known(title=preprint.title, title_derived=False, authors=("Silva",))
    decision = decide(known=known, candidates=[preprint, journal])
    assert decision.verdict is Verdict.FOUND
    assert decision.found is not None
    assert (decision.found.arxiv_id, decision.found.doi) == ("2409.00001", "10.1145/3000001")
    assert decision.found.abstract == WHOLE
