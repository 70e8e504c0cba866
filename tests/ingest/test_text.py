"""The plain reading-list format, including the real sample list."""

from __future__ import annotations

import sqlite3

import pytest

from bot.domain import PaperDraft, Rejection
from bot.ingest.keys import fingerprint
from bot.ingest.text import parse_text
from tests.conftest import SAMPLE, SAMPLE_ENTRIES


def one(*, text: str) -> PaperDraft:
    """The single draft `text` holds."""
    drafts, rejections = parse_text(path="list.txt", text=text)
    assert rejections == []
    assert len(drafts) == 1
    return drafts[0]


@pytest.fixture(scope="module")
def sample() -> list[PaperDraft]:
    """The drafts of the shipped sample reading list."""
    drafts, rejections = parse_text(path="reading-list.txt", text=SAMPLE.read_text("utf-8"))
    assert rejections == []
    return drafts


def test_every_sample_entry_is_a_paper_with_a_sensible_title(sample: list[PaperDraft]) -> None:
    assert len(sample) == SAMPLE_ENTRIES
    for draft in sample:
        assert draft.title.strip()
        assert len(draft.title) <= 90
        assert "\\" not in draft.title and "$" not in draft.title
        assert "\\" not in draft.abstract and "$" not in draft.abstract
        assert draft.title[0].isupper()
        assert draft.title.split()[-1].rstrip("…").lower() not in {"the", "of", "and", "a", "to"}


def test_sample_origins_are_the_first_lines(sample: list[PaperDraft]) -> None:
    assert [d.origin for d in sample] == [f"reading-list.txt:{n}" for n in range(1, 42, 2)]


def test_the_header_names_the_list_and_a_reference_paper(sample: list[PaperDraft]) -> None:
    first = sample[0]
    # Kept as cut: "fail…" might be a whole word, and the ellipsis already says it is cut.
    assert first.title == "Nonuniform-Tensor-Parallelism: Mitigating GPU fail…"
    assert first.abstract == ""
    assert first.reference and not first.title_derived
    name = "Related papers: Nonuniform-Tensor-Parallelism: Mitigating GPU fail…"
    assert {d.list_name for d in sample} == {name}
    assert not any(d.reference for d in sample[1:])
    assert all(d.title_derived for d in sample[1:])


def test_a_header_only_names_a_list_with_entries_after_it() -> None:
    alone, _ = parse_text(path="x.txt", text="Related papers: Attention Is All You Need")
    assert [(d.reference, d.list_name) for d in alone] == [(False, "")]
    titled, _ = parse_text(path="x.txt", text="Title: BERT\n\nThe dominant models are big.")
    assert not any(d.reference or d.list_name for d in titled)


def test_sample_tex_is_cleaned(sample: list[PaperDraft]) -> None:
    abstracts = " ".join(d.abstract for d in sample)
    assert "highly-constrained Multicore" in abstracts
    assert "The O(N^4) run time" in abstracts


def test_sample_fingerprints_are_distinct(sample: list[PaperDraft]) -> None:
    prints = {fingerprint(title=d.title, abstract=d.abstract) for d in sample}
    assert len(prints) == len(sample)
    assert len({d.title for d in sample}) == len(sample)


def test_sample_boilerplate_openings_are_dropped(sample: list[PaperDraft]) -> None:
    titles = {d.title for d in sample}
    assert any(t.startswith("Analyze, evaluate, and improve the performance") for t in titles)
    assert any(t.startswith("A low-cost network architecture") for t in titles)


def test_a_cut_off_final_word_stays_searchable(sample: list[PaperDraft]) -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61')")
    db.executemany("INSERT INTO t (body) VALUES (?)", [(d.abstract,) for d in sample])
    hits = db.execute("SELECT body FROM t WHERE t MATCH 'challenging'").fetchall()
    db.close()
    assert any(body.endswith("challenging…") for (body,) in hits)


@pytest.mark.parametrize(
    "header", ["Related papers:", "Title:", "TITLE :", "Paper:", "See also:", "Related paper:"]
)
def test_labelled_headers_introduce_a_title(header: str) -> None:
    draft = one(text=f"{header} Attention Is All You Need\nThe dominant models are recurrent.")
    assert draft.title == "Attention Is All You Need"
    assert draft.abstract == "The dominant models are recurrent."
    assert not draft.title_derived


def test_a_title_with_a_colon_is_not_mistaken_for_a_label() -> None:
    draft = one(text="Nonuniform-Tensor-Parallelism: Mitigating GPU failures")
    assert draft.title == "Nonuniform-Tensor-Parallelism: Mitigating GPU failures"


def test_a_full_labelled_entry() -> None:
    draft = one(
        text="Title: BERT\n"
        "Authors: Devlin, Jacob and Chang, Ming-Wei\n"
        "DOI: 10.18653/v1/N19-1423\n"
        "arXiv: 1810.04805v2\n"
        "Abstract: We introduce a new language\n"
        "representation model called BERT."
    )
    assert draft.title == "BERT"
    assert draft.authors == ("Jacob Devlin", "Ming-Wei Chang")
    assert draft.doi == "10.18653/v1/n19-1423"
    assert draft.arxiv_id == "1810.04805"
    assert draft.url == "https://arxiv.org/abs/1810.04805"
    assert draft.abstract == "We introduce a new language representation model called BERT."


def test_an_unlabelled_title_line_authors_and_reference_lines() -> None:
    draft = one(
        text="Attention Is All You Need\n"
        "Ashish Vaswani, Noam Shazeer, Niki Parmar\n"
        "The dominant sequence transduction models are based on complex recurrent or\n"
        "convolutional neural networks.\n"
        "https://arxiv.org/abs/1706.03762v7\n"
    )
    assert draft.title == "Attention Is All You Need"
    assert draft.authors == ("Ashish Vaswani", "Noam Shazeer", "Niki Parmar")
    assert draft.arxiv_id == "1706.03762"
    assert draft.abstract.endswith("recurrent or convolutional neural networks.")


def test_a_hard_wrapped_abstract_is_not_split_into_title_and_body() -> None:
    draft = one(
        text="The dominant sequence transduction models are based on complex recurrent or\n"
        "Convolutional neural networks that include an encoder and a decoder. The best\n"
        "performing models also connect the encoder and decoder through attention."
    )
    assert draft.title_derived
    assert draft.abstract.startswith("The dominant sequence")


def test_ids_inside_the_abstract_are_picked_up() -> None:
    draft = one(text="We study things (arXiv:2401.01234v2; doi:10.1145/3458817.3476145) at length.")
    assert draft.arxiv_id == "2401.01234"
    assert draft.doi == "10.1145/3458817.3476145"


def test_other_links_fill_the_url() -> None:
    draft = one(text="Some Paper\nhttps://example.org/paper.pdf")
    assert draft.url == "https://example.org/paper.pdf"
    assert draft.arxiv_id is None


def test_a_reference_only_entry_gets_the_id_as_title() -> None:
    draft = one(text="arXiv:2401.01234")
    assert draft.title == "arXiv:2401.01234"
    assert draft.title_derived


def test_a_word_broken_across_lines_is_joined() -> None:
    draft = one(
        text="A long abstract about highly-constrai\\-\nned devices and multi-\ncore chips."
    )
    assert "highly-constrained devices" in draft.abstract
    assert "multi-core chips" in draft.abstract


def test_markdown_headings_links_and_bullets() -> None:
    drafts, rejections = parse_text(
        path="list.md",
        text=(
            "# Reading list\n\n## Week 1\n\n"
            "## Attention Is All You Need\nThe dominant models are recurrent.\n\n"
            "- [Deep Residual Learning](https://arxiv.org/pdf/1512.03385.pdf)\n"
            "- **Batch Normalization**\n"
            "- 10.1145/3458817.3476145\n"
        ),
    )
    assert rejections == []
    assert [d.title for d in drafts] == [
        "Attention Is All You Need",
        "Deep Residual Learning",
        "Batch Normalization",
        "doi:10.1145/3458817.3476145",
    ]
    assert [d.origin for d in drafts] == ["list.md:5", "list.md:8", "list.md:9", "list.md:10"]
    assert drafts[1].arxiv_id == "1512.03385"


def test_windows_and_old_mac_line_endings_count_lines_alike() -> None:
    drafts, _ = parse_text(path="l.txt", text="First entry\r\n\r\nSecond entry\r\rThird entry")
    assert [d.origin for d in drafts] == ["l.txt:1", "l.txt:3", "l.txt:5"]


def test_an_entry_of_nothing_readable_is_rejected() -> None:
    drafts, rejections = parse_text(path="l.txt", text="Good paper\n\n$$ {} --\n\nAnother")
    assert [d.title for d in drafts] == ["Good paper", "Another"]
    assert rejections == [Rejection(origin="l.txt:3", reason="no title or abstract")]


def test_an_empty_label_is_rejected() -> None:
    _, rejections = parse_text(path="l.txt", text="Title:")
    assert rejections == [Rejection(origin="l.txt:1", reason="no title or abstract")]


@pytest.mark.parametrize("text", ["", "   \n\n\t\n"])
def test_an_empty_file_is_one_rejection(text: str) -> None:
    assert parse_text(path="l.txt", text=text) == (
        [],
        [Rejection(origin="l.txt:1", reason="empty file")],
    )


def test_binary_junk_is_one_rejection() -> None:
    junk = bytes(range(256)).decode("latin-1") * 4
    drafts, rejections = parse_text(path="l.txt", text=junk)
    assert drafts == []
    assert rejections == [Rejection(origin="l.txt:1", reason="binary data, not a text file")]


def test_a_very_long_title_is_clipped_to_300() -> None:
    draft = one(text="Title: " + "word " * 100)
    assert len(draft.title) <= 300
    assert draft.title.endswith("…")
