"""Is a found record clearly the paper we know? Pure: text in, a decision out.

Accepted only when (a) the abstract we hold is a prefix, or a near-prefix, of the found one
(the list's "…"-cut abstracts), or (b) the titles agree and so do the authors (when we know
any; without authors, a title of some length). Records that pass and are one work (arXiv's
and Crossref's) are merged; passing records of two works are unclear: a person confirms,
nothing is applied.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from bot.domain import PaperDraft

ELLIPSES = ("…", "...")
# The abstract we hold must have this many words before its prefix is evidence at all.
PREFIX_MIN_WORDS = 12
# Near-prefix: this share of our words, in order, at the start of the found abstract (the
# imported text may differ by a hyphenation, a ligature or a typo).
PREFIX_AGREEMENT = 0.92
TITLE_AGREEMENT = 0.93
# A title alone (no authors to compare) is evidence only when this specific: words, letters.
TITLE_ALONE_WORDS = 4
TITLE_ALONE_LETTERS = 30
SAME_TITLE = 0.97
_WORD = re.compile(r"[^\W_]+")
_SOFT_HYPHEN = re.compile(r"\\-|\u00ad")


class Verdict(enum.StrEnum):
    """What the candidates amount to."""

    FOUND = "found"
    UNCLEAR = "unclear"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Known:
    """What we hold of a paper: its title (derived from the abstract or not, cut or whole), its
    abstract (cut or whole) and its authors."""

    title: str
    abstract: str
    authors: tuple[str, ...]
    title_derived: bool

    @property
    def title_cut(self) -> bool:
        """The title ends with an ellipsis: it goes on somewhere."""
        return self.title.rstrip().endswith(ELLIPSES)

    @property
    def abstract_cut(self) -> bool:
        """The abstract is missing, or ends with an ellipsis."""
        text = self.abstract.rstrip()
        return not text or text.endswith(ELLIPSES)


@dataclass(frozen=True, slots=True)
class Decision:
    """The verdict, the candidate it names (FOUND), the ones a person must choose between
    (UNCLEAR), and why, in words."""

    verdict: Verdict
    found: PaperDraft | None
    candidates: tuple[PaperDraft, ...]
    reason: str


def words(text: str) -> list[str]:
    """Lower-case words of a text, the way both sides are compared: Unicode compatibility
    forms (ligatures), TeX's and Unicode's soft hyphens and line-break hyphens gone."""
    text = unicodedata.normalize("NFKC", _SOFT_HYPHEN.sub("", text)).casefold()
    text = re.sub(r"(?<=[^\W\d_])-\s+(?=[^\W\d_])", "", text)  # "multi- core" -> "multicore"
    return _WORD.findall(text)


def _without_ellipsis(text: str) -> str:
    """The text without its trailing ellipsis and the word it may have cut in two."""
    stripped = text.rstrip()
    for mark in ELLIPSES:
        if stripped.endswith(mark):
            head = stripped[: -len(mark)]
            # "…is still a challenging…" and "Mitigating GPU fail…": the last word may be
            # whole or cut; it is dropped either way, so it never has to match.
            return head.rsplit(None, 1)[0] if " " in head.strip() else head
    return stripped


def prefix_agreement(*, ours: str, theirs: str) -> float:
    """How much of our text, word by word, opens theirs (0 to 1); 0 when ours is too short."""
    mine = words(_without_ellipsis(ours))
    if len(mine) < PREFIX_MIN_WORDS:
        return 0.0
    head = words(theirs)[: len(mine) + 3]  # room for a word or two more on their side
    matcher = SequenceMatcher(a=mine, b=head, autojunk=False)
    same = sum(block.size for block in matcher.get_matching_blocks())
    return same / len(mine)


def title_agreement(*, ours: str, theirs: str, cut: bool) -> float:
    """How alike two titles are (0 to 1); a cut title only has to open theirs."""
    mine, found = words(_without_ellipsis(ours) if cut else ours), words(theirs)
    if not mine or not found:
        return 0.0
    if cut:
        found = found[: len(mine)]
    return SequenceMatcher(a=mine, b=found, autojunk=False).ratio()


def _surnames(authors: tuple[str, ...]) -> set[str]:
    """The last word of each author's name, compared without case and accents."""
    names = set()
    for author in authors:
        parts = words(unicodedata.normalize("NFKD", author).encode("ascii", "ignore").decode())
        if parts:
            names.add(parts[-1])
    return names


def authors_agree(*, ours: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Whether the two author lists share a surname (ours are often abbreviated or partial)."""
    return bool(_surnames(ours) & _surnames(theirs))


def _evidence(*, known: Known, candidate: PaperDraft) -> str | None:
    """Why this candidate is the paper we know, or None when it is not clearly so."""
    if known.abstract and candidate.abstract:
        agreement = prefix_agreement(ours=known.abstract, theirs=candidate.abstract)
        if agreement >= PREFIX_AGREEMENT:
            return f"our abstract opens theirs ({agreement:.0%} of its words)"
    if known.title_derived or not known.title:
        return None  # a title made from the abstract is no evidence of its own
    agreement = title_agreement(ours=known.title, theirs=candidate.title, cut=known.title_cut)
    if agreement < TITLE_AGREEMENT:
        return None
    if known.authors:
        if authors_agree(ours=known.authors, theirs=candidate.authors):
            return "the titles and the authors agree"
        return None
    shown = words(_without_ellipsis(known.title) if known.title_cut else known.title)
    if len(shown) >= TITLE_ALONE_WORDS and len("".join(shown)) >= TITLE_ALONE_LETTERS:
        return "the title agrees (no authors known to compare)"
    return None


def same_work(a: PaperDraft, b: PaperDraft) -> bool:
    """Two records of one paper (arXiv's preprint and Crossref's DOI record, say): the same
    ids, or the same title by authors who agree."""
    if (a.arxiv_id and a.arxiv_id == b.arxiv_id) or (a.doi and a.doi == b.doi):
        return True
    alike = title_agreement(ours=a.title, theirs=b.title, cut=False) >= SAME_TITLE
    return alike and authors_agree(ours=a.authors, theirs=b.authors)


def merged(records: list[PaperDraft]) -> PaperDraft:
    """One record of a paper from several: each field from the first record that has it, the
    longest abstract (arXiv's is whole where Crossref's is often missing or cut)."""
    first = records[0]
    abstract = max((r.abstract for r in records), key=len)
    return replace(
        first,
        abstract=abstract,
        authors=next((r.authors for r in records if r.authors), ()),
        url=next((r.url for r in records if r.url), None),
        arxiv_id=next((r.arxiv_id for r in records if r.arxiv_id), None),
        doi=next((r.doi for r in records if r.doi), None),
    )


def decide(*, known: Known, candidates: list[PaperDraft]) -> Decision:
    """FOUND when the candidates that are clearly our paper are all records of one work (they
    are merged); UNCLEAR when they are several works; NONE when no candidate is."""
    passing = [(c, why) for c in candidates if (why := _evidence(known=known, candidate=c))]
    if not passing:
        return Decision(verdict=Verdict.NONE, found=None, candidates=(), reason="no record fits")
    works: list[list[PaperDraft]] = []
    for candidate, _ in passing:
        home = next((w for w in works if same_work(w[0], candidate)), None)
        if home is None:
            works.append([candidate])
        else:
            home.append(candidate)
    if len(works) == 1:
        found = merged(works[0])
        return Decision(
            verdict=Verdict.FOUND, found=found, candidates=(found,), reason=passing[0][1]
        )
    return Decision(
        verdict=Verdict.UNCLEAR,
        found=None,
        candidates=tuple(merged(w) for w in works),
        reason=f"{len(works)} different papers fit",
    )
