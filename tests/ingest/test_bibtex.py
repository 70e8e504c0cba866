"""BibTeX: fields, names, arXiv eprints, TeX cleanup and broken blocks with lines."""

from __future__ import annotations

from bot.domain import Rejection
from bot.ingest.bibtex import bibtex_authors, parse_bibtex

GOOD = r"""% a comment line
@string{acm = "ACM"}

@article{vaswani2017,
  title = {Attention Is All You {N}eed},
  author = {Vaswani, Ashish and Shazeer, Noam and {Google Brain} and others},
  abstract = {The dominant sequence transduction models are based on complex
              recurrent or convolutional neural networks in an \emph{encoder}.},
  year = 2017,
  eprint = {1706.03762},
  archivePrefix = {arXiv},
  primaryClass = {cs.CL},
}

@inproceedings{sc21,
  title = "Efficient {GPU} Training at $O(N^4)$ Cost",
  author = "M{\"u}ller, J{\"o}rg and Ada Lovelace",
  booktitle = acm # " SC",
  doi = {10.1145/3458817.3476145},
  url = {https://dl.acm.org/doi/10.1145/3458817.3476145}
}

@misc{scholar,
  title={Some preprint},
  journal={arXiv preprint arXiv:2401.01234},
}

@comment{ignored}
@preamble{"\newcommand{\x}{y}"}
"""


def test_entries_become_clean_drafts() -> None:
    drafts, rejections = parse_bibtex(path="refs.bib", text=GOOD)
    assert rejections == []
    first, second, third = drafts
    assert first.title == "Attention Is All You Need"
    assert first.authors == ("Ashish Vaswani", "Noam Shazeer", "Google Brain")
    assert first.abstract.endswith("neural networks in an encoder.")
    assert "  " not in first.abstract
    assert first.arxiv_id == "1706.03762"
    assert first.url == "https://arxiv.org/abs/1706.03762"
    assert first.origin == "refs.bib:4"
    assert second.title == "Efficient GPU Training at O(N^4) Cost"
    assert second.authors == ("Jörg Müller", "Ada Lovelace")
    assert second.doi == "10.1145/3458817.3476145"
    assert second.url == "https://dl.acm.org/doi/10.1145/3458817.3476145"
    assert second.origin == "refs.bib:15"
    assert third.arxiv_id == "2401.01234"


def test_author_lists() -> None:
    assert bibtex_authors(text="Knuth, Donald E.") == ("Donald E. Knuth",)
    assert bibtex_authors(text="Donald Knuth AND Leslie Lamport") == (
        "Donald Knuth",
        "Leslie Lamport",
    )
    assert bibtex_authors(text="{Barnes and Noble} and Doe, J.") == ("Barnes and Noble", "J. Doe")
    assert bibtex_authors(text="") == ()


def test_an_eprint_of_another_archive_is_not_arxiv() -> None:
    text = "@article{h, title={T}, eprint={2401.01234}, archivePrefix={HAL}}"
    drafts, _ = parse_bibtex(path="r.bib", text=text)
    assert drafts[0].arxiv_id is None


def test_broken_blocks_are_rejected_with_their_line_and_the_rest_survives() -> None:
    text = (
        "@article{ok1, title={Fine}}\n"
        "\n"
        "@article{broken,\n"
        "  title = {never closed\n"
        "  author = {x}\n"
        "\n"
        "@article{ok2, title={Also fine}}\n"
        "@article{ok1, title={Same key, other paper}}\n"
        "@article{notitle, year={2020}}\n"
    )
    drafts, rejections = parse_bibtex(path="r.bib", text=text)
    assert [(d.title, d.origin) for d in drafts] == [
        ("Fine", "r.bib:1"),
        ("Also fine", "r.bib:7"),
        ("Same key, other paper", "r.bib:8"),
    ]
    assert [r.origin for r in rejections] == ["r.bib:3", "r.bib:9"]
    assert rejections[0].reason.startswith("broken BibTeX entry: Unexpected block start")
    assert rejections[1].reason == "no title or abstract"


def test_a_truncated_file_is_rejected() -> None:
    drafts, rejections = parse_bibtex(path="r.bib", text="@article{cut,\n  title = {Half")
    assert drafts == []
    assert rejections[0].origin == "r.bib:1"
    assert rejections[0].reason.startswith("broken BibTeX entry")


def test_text_without_entries_is_one_rejection() -> None:
    assert parse_bibtex(path="r.bib", text="just some words\n") == (
        [],
        [Rejection("r.bib:1", "no BibTeX entries (such as @article{...}) found")],
    )


def test_empty_and_binary() -> None:
    assert parse_bibtex(path="r.bib", text="\n") == ([], [Rejection("r.bib:1", "empty file")])
    junk = "\x00@\x01{\x02" * 100
    assert parse_bibtex(path="r.bib", text=junk)[1][0].reason == "binary data, not a text file"
