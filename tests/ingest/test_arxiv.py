"""arXiv ids: every written form reduces to one canonical id; junk does not."""

from __future__ import annotations

import pytest

from bot.ingest.arxiv import arxiv_abs_url, arxiv_pdf_url, canonical_arxiv_id, find_arxiv_id


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2401.01234", "2401.01234"),
        ("2401.01234v3", "2401.01234"),
        ("arXiv:2401.01234", "2401.01234"),
        ("arxiv:2401.01234v2", "2401.01234"),
        ("ARXIV: 2401.01234", "2401.01234"),
        ("https://arxiv.org/abs/2401.01234v2", "2401.01234"),
        ("https://arxiv.org/abs/2401.01234", "2401.01234"),
        ("https://arxiv.org/pdf/2401.01234v2", "2401.01234"),
        ("https://arxiv.org/pdf/2401.01234v2.pdf", "2401.01234"),
        ("https://arxiv.org/pdf/2401.01234.pdf", "2401.01234"),
        ("https://arxiv.org/html/2401.01234v1", "2401.01234"),
        ("https://arxiv.org/html/2401.01234v1/", "2401.01234"),
        ("http://export.arxiv.org/abs/2401.01234", "2401.01234"),
        ("http://arxiv.org/abs/2401.01234v1", "2401.01234"),
        ("https://www.arxiv.org/abs/2401.01234", "2401.01234"),
        ("www.arxiv.org/abs/2401.01234", "2401.01234"),
        ("arxiv.org/abs/2401.01234", "2401.01234"),
        ("https://arxiv.org/abs/2401.01234?context=cs", "2401.01234"),
        ("https://arxiv.org/abs/2401.01234#section", "2401.01234"),
        ("<https://arxiv.org/abs/2401.01234>", "2401.01234"),
        ("  (2401.01234v2).  ", "2401.01234"),
        ("cs/0112017", "cs/0112017"),
        ("cs/0112017v1", "cs/0112017"),
        ("CS/0112017", "cs/0112017"),
        ("math.GT/0309136", "math/0309136"),
        ("math.gt/0309136v2", "math/0309136"),
        ("hep-th/9901001v1", "hep-th/9901001"),
        ("arXiv:hep-th/9901001", "hep-th/9901001"),
        ("https://arxiv.org/abs/hep-th/9901001v1", "hep-th/9901001"),
        ("https://arxiv.org/pdf/math.GT/0309136v1.pdf", "math/0309136"),
        ("https://arxiv.org/abs/cond-mat/0703001", "cond-mat/0703001"),
        ("0704.0001", "0704.0001"),
        ("arXiv:0704.0001v1", "0704.0001"),
        ("1412.9999", "1412.9999"),
        ("1501.00001", "1501.00001"),
    ],
)
def test_every_written_form_gives_the_canonical_id(text: str, expected: str) -> None:
    assert canonical_arxiv_id(text=text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "hello",
        "2401.1234",  # four digits after 2014
        "0704.00001",  # five digits before 2015
        "0703.0001",  # before the new scheme began
        "2413.01234",  # month 13
        "2400.01234",  # month 00
        "2401.012345",
        "2401.01234v",
        "2401.01234vx",
        "foo/0112017",  # not an archive
        "cs/0113017",  # month 13
        "cs/0812017",  # after the old scheme ended
        "cs/011201",
        "https://example.com/abs/2401.01234",
        "https://arxiv.org/list/cs.LG/recent",
        "arXiv:",
        "10.1145/3458817.3476145",
        "see 2401.01234 please",
    ],
)
def test_junk_is_not_an_id(text: str) -> None:
    assert canonical_arxiv_id(text=text) is None


def test_urls_of_a_canonical_id() -> None:
    assert arxiv_abs_url(arxiv_id="2401.01234") == "https://arxiv.org/abs/2401.01234"
    assert arxiv_pdf_url(arxiv_id="hep-th/9901001") == "https://arxiv.org/pdf/hep-th/9901001"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Read arXiv:2401.01234v2 tomorrow.", "2401.01234"),
        ("see (https://arxiv.org/abs/hep-th/9901001).", "hep-th/9901001"),
        ("the paper at arxiv.org/pdf/2401.01234v1.pdf is good", "2401.01234"),
        ("numbers like 2401.01234 alone are not picked up", None),
        ("arXiv:2401.012345 is too long", None),
        ("nothing here", None),
    ],
)
def test_ids_are_found_in_running_text(text: str, expected: str | None) -> None:
    assert find_arxiv_id(text=text) == expected
