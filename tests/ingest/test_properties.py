"""Properties: id normalisation, fingerprints, titles, and parsers that never raise."""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ingest import FORMATS, draft_from_reference, parse
from bot.ingest.arxiv import OLD_ARCHIVES, arxiv_abs_url, arxiv_pdf_url, canonical_arxiv_id
from bot.ingest.clean import clean_text
from bot.ingest.doi import doi_url, normalise_doi
from bot.ingest.keys import fingerprint
from bot.ingest.titles import TITLE_LIMIT, derive_title

# No example database: it would be one more folder in the work tree, and runs stay
# reproducible from the printed seed.
FAST = settings(max_examples=150, deadline=None, database=None)
PARSE = settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


# Hypothesis hands `draw` positionally.
@st.composite
def new_style_ids(draw: st.DrawFn) -> str:
    """A valid new-style id: 4 digits after the dot until 2014, 5 from 2015."""
    year = draw(st.integers(min_value=7, max_value=39))
    month = draw(st.integers(min_value=4 if year == 7 else 1, max_value=12))
    digits = 4 if year <= 14 else 5
    number = draw(st.integers(min_value=0, max_value=10**digits - 1))
    return f"{year:02d}{month:02d}.{number:0{digits}d}"


@st.composite
def old_style_ids(draw: st.DrawFn) -> str:
    """A valid old-style id: archive/YYMMNNN between 1991 and 2007."""
    archive = draw(st.sampled_from(sorted(OLD_ARCHIVES)))
    year = draw(st.sampled_from([*range(91, 100), *range(0, 8)]))
    month = draw(st.integers(min_value=1, max_value=12))
    number = draw(st.integers(min_value=0, max_value=999))
    return f"{archive}/{year:02d}{month:02d}{number:03d}"


ARXIV_IDS = st.one_of(new_style_ids(), old_style_ids())
VERSIONS = st.one_of(st.just(""), st.integers(min_value=1, max_value=30).map(lambda v: f"v{v}"))


@FAST
@given(arxiv_id=ARXIV_IDS, version=VERSIONS)
def test_canonical_ids_are_idempotent_and_version_insensitive(arxiv_id: str, version: str) -> None:
    canonical = canonical_arxiv_id(text=arxiv_id + version)
    assert canonical == arxiv_id
    assert canonical_arxiv_id(text=canonical) == canonical
    assert canonical_arxiv_id(text=arxiv_id.upper() + version) == canonical


@FAST
@given(arxiv_id=ARXIV_IDS, version=VERSIONS)
def test_canonical_ids_round_trip_through_urls(arxiv_id: str, version: str) -> None:
    forms = [
        arxiv_abs_url(arxiv_id=arxiv_id),
        arxiv_pdf_url(arxiv_id=arxiv_id),
        f"https://arxiv.org/abs/{arxiv_id}{version}",
        f"http://export.arxiv.org/pdf/{arxiv_id}{version}.pdf",
        f"www.arxiv.org/html/{arxiv_id}{version}",
        f"arXiv:{arxiv_id}{version}",
    ]
    for form in forms:
        assert canonical_arxiv_id(text=form) == arxiv_id, form


@FAST
@given(text=st.text(max_size=60))
def test_any_text_gives_none_or_a_fixed_point(text: str) -> None:
    canonical = canonical_arxiv_id(text=text)
    assert canonical is None or canonical_arxiv_id(text=canonical) == canonical
    doi = normalise_doi(text=text)
    assert doi is None or normalise_doi(text=doi) == doi


DOI_SUFFIX = st.text(alphabet=string.ascii_letters + string.digits + "._;:/-()", min_size=1)


@FAST
@given(
    registrant=st.integers(min_value=1000, max_value=999_999_999),
    suffix=DOI_SUFFIX.filter(lambda s: s[-1].isalnum() and s.count("(") == s.count(")")),
)
def test_dois_round_trip_through_every_form(registrant: int, suffix: str) -> None:
    doi = f"10.{registrant}/{suffix}"
    expected = doi.lower()
    for form in (doi, f"doi:{doi}", doi_url(doi=doi), f"http://dx.doi.org/{doi}", f"{doi}."):
        assert normalise_doi(text=form) == expected, form
    assert normalise_doi(text=expected) == expected


WORDS = st.lists(
    st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=8),
    min_size=1,
    max_size=12,
)
NOISE = st.sampled_from([" ", "  ", "\n", "\t", ", ", ". ", " -- ", "; ", "! ", " (", ") ", "… "])


@FAST
@given(title=WORDS, abstract=WORDS, data=st.data())
def test_fingerprints_ignore_whitespace_case_and_punctuation(
    title: list[str], abstract: list[str], data: st.DataObject
) -> None:
    def noisy(*, words: list[str]) -> str:
        """The words upper-cased, with random spacing and punctuation between them."""
        return "".join(w.upper() + data.draw(NOISE) for w in words)

    plain = fingerprint(title=" ".join(title), abstract=" ".join(abstract))
    assert fingerprint(title=noisy(words=title), abstract=noisy(words=abstract)) == plain


@FAST
@given(text=st.text(max_size=400))
def test_clean_text_is_one_clean_line(text: str) -> None:
    cleaned = clean_text(text=text)
    assert "\\" not in cleaned
    assert "  " not in cleaned
    assert cleaned == cleaned.strip()
    assert not any(c in cleaned for c in "\n\r\t\x00")


@FAST
@given(text=st.text(min_size=1, max_size=600).filter(lambda t: any(c.isalnum() for c in t)))
def test_derived_titles_are_short_and_never_empty(text: str) -> None:
    title = derive_title(abstract=text)
    assert len(title) <= TITLE_LIMIT
    if any(c.isalnum() for c in clean_text(text=text)):
        assert title.strip()


TEXTISH = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("{}[]()<>@,;:\"'\\$%#&~-_.\n\t =/…")),
        st.characters(codec="utf-8"),
    ),
    max_size=300,
)


def check(*, path: str, text: str, fmt: str) -> None:
    """Parse and check the promises every parser keeps."""
    drafts, rejections = parse(path=path, text=text, fmt=fmt)
    for draft in drafts:
        assert draft.title.strip()
        assert len(draft.title) <= 300
        assert draft.origin.startswith(path)
    for rejection in rejections:
        assert rejection.origin.startswith(path)
        assert rejection.reason


@PARSE
@given(text=st.text(max_size=300), fmt=st.sampled_from([*FORMATS, "auto"]))
def test_parse_never_raises_on_arbitrary_text(text: str, fmt: str) -> None:
    check(path="f", text=text, fmt=fmt)


@PARSE
@given(text=TEXTISH, fmt=st.sampled_from([*FORMATS, "auto"]))
def test_parse_never_raises_on_punctuation_heavy_text(text: str, fmt: str) -> None:
    check(path="f", text=text, fmt=fmt)


@PARSE
@given(
    text=st.one_of(
        st.builds(lambda body: "@article{k,\n title = {" + body, TEXTISH),
        st.builds(lambda body: '[{"title": "' + body, TEXTISH),
        st.builds(lambda body: "title,abstract\n" + body, TEXTISH),
        st.builds(lambda body: '<feed xmlns="http://www.w3.org/2005/Atom"><entry>' + body, TEXTISH),
    ),
    fmt=st.sampled_from([*FORMATS, "auto"]),
)
def test_parse_never_raises_on_almost_valid_files(text: str, fmt: str) -> None:
    check(path="f", text=text, fmt=fmt)


@FAST
@given(text=TEXTISH)
def test_draft_from_reference_never_raises(text: str) -> None:
    draft = draft_from_reference(text=text, origin="o")
    assert draft is None or (draft.title.strip() and len(draft.title) <= 300)


@FAST
@given(text=TEXTISH.filter(lambda t: "\\" not in t))
def test_cleaning_is_idempotent_so_exports_round_trip(text: str) -> None:
    cleaned = clean_text(text=text)
    assert clean_text(text=cleaned) == cleaned
