"""Dedupe keys: canonical ids plus fingerprints that ignore formatting noise."""

from __future__ import annotations

import re

from bot.domain import PaperDraft
from bot.ingest.keys import dedupe_keys, fingerprint, normalise_for_key

ABSTRACT = (
    "Tensor parallelism is an essential technique for distributed training of large neural "
    "networks. However, automatically determining an optimal strategy is challenging…"
)


def test_normalisation_drops_case_accents_punctuation_tex_and_ellipsis() -> None:
    assert (
        normalise_for_key(text="  Schr{\\\"o}dinger's  CAT -- $O(n)$…") == "schrodinger s cat o n"
    )


def test_fingerprint_is_sha1_hex_and_ignores_formatting() -> None:
    plain = fingerprint(title="Deep Learning", abstract="It works, mostly.")
    assert re.fullmatch(r"[0-9a-f]{40}", plain), plain
    noisy = fingerprint(title="  {Deep} LEARNING ", abstract="It   works -- mostly...")
    assert noisy == plain


def test_short_abstracts_need_the_title() -> None:
    assert fingerprint(title="a b", abstract="") != fingerprint(title="", abstract="a b")
    assert fingerprint(title="a", abstract="b") != fingerprint(title="b", abstract="a")
    one = fingerprint(title="Paper one", abstract="No abstract available.")
    two = fingerprint(title="Paper two", abstract="No abstract available.")
    assert one != two


def test_a_real_abstract_identifies_the_paper_whatever_its_title() -> None:
    # A derived title, a better derived title and a source's own title all meet.
    derived = fingerprint(title="Tensor parallelism is an essential technique…", abstract=ABSTRACT)
    assert fingerprint(title="Automatic Tensor Parallelism", abstract=ABSTRACT) == derived
    assert fingerprint(title="", abstract=ABSTRACT) == derived
    assert fingerprint(title="", abstract=ABSTRACT + " More text.") != derived


def test_keys_of_a_full_draft() -> None:
    draft = PaperDraft(
        title="Tensor Parallelism",
        abstract=ABSTRACT,
        arxiv_id="arXiv:2401.01234v2",
        doi="https://doi.org/10.1145/ABC.123",
    )
    assert dedupe_keys(draft=draft) == (
        "arxiv:2401.01234",
        "doi:10.1145/abc.123",
        f"fp:{fingerprint(title='Tensor Parallelism', abstract=ABSTRACT)}",
    )


def test_a_title_only_draft_has_one_fingerprint() -> None:
    keys = dedupe_keys(draft=PaperDraft(title="Attention Is All You Need"))
    assert keys == (f"fp:{fingerprint(title='Attention Is All You Need', abstract='')}",)


def test_invalid_ids_are_not_keys() -> None:
    keys = dedupe_keys(draft=PaperDraft(title="x", arxiv_id="n/a", doi="none"))
    assert [k for k in keys if not k.startswith("fp:")] == []
