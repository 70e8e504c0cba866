"""Block Kit builders: content of the daily post, Slack's limits for any input, button values."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.domain import PaperCard, Recap, VoteCount
from bot.messages import message
from bot.slack import blocks as slack_blocks
from bot.slack import ids
from bot.slack.render import LITERAL, render
from bot.slack.text import clip, escape_mrkdwn
from bot.wording import post as post_words
from tests import cards
from tests.cards import make_paper

PROPERTY = settings(
    database=None,
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LINK = re.compile(r"<https?://[^\s<>|]+\|[^<>]+>|<!date\^00000000\^\{_\}\|[*_~`＊＿～｀]+>")
ENTITY = re.compile(r"&(?!amp;|lt;|gt;)")


def paper_message(*, card: PaperCard) -> tuple[str, list[dict[str, Any]]]:
    """The daily post as Slack gets it; people are shown by their id here."""
    return slack_blocks.paper_message(card=card, names=str)


SLACK_PERMALINK = "https://team.slack.com/archives/C1/p1714640400000100"


def make_card(**changes: Any) -> PaperCard:
    """The shared typical card, its recap linking to this platform's yesterday's post."""
    return cards.make_card(
        recap_permalink="https://team.slack.com/archives/C1/p1714640400000100", **changes
    )


def of_type(blocks: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The blocks of one type, in order."""
    return [b for b in blocks if b["type"] == kind]


def buttons(blocks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The vote buttons by action_id."""
    (actions,) = [b for b in blocks if b.get("block_id") == ids.VOTE_BLOCK]
    return {e["action_id"]: e for e in actions["elements"]}


def mrkdwn_texts(blocks: list[dict[str, Any]]) -> list[str]:
    """Every mrkdwn text in the blocks (sections and context elements)."""
    texts = [b["text"]["text"] for b in of_type(blocks, "section")]
    texts += [e["text"] for b in of_type(blocks, "context") for e in b["elements"]]
    return texts


def assert_within_limits(blocks: list[dict[str, Any]]) -> None:
    """Slack's Block Kit limits (DESIGN.md §3), and no empty text object."""
    assert 0 < len(blocks) < 50
    block_ids = [b["block_id"] for b in blocks if "block_id" in b]
    assert len(block_ids) == len(set(block_ids))
    for block in blocks:
        assert 0 < len(block.get("block_id", "x")) <= 255
        if block["type"] == "header":
            assert block["text"]["type"] == "plain_text"
            assert 0 < len(block["text"]["text"]) <= 150
            assert block["text"]["text"].strip()
        elif block["type"] == "section":
            assert 0 < len(block["text"]["text"]) <= 3000
        elif block["type"] == "context":
            assert 0 < len(block["elements"]) <= 10
            assert all(0 < len(e["text"]) <= 3000 for e in block["elements"])
        elif block["type"] == "actions":
            assert 0 < len(block["elements"]) <= 25
            for button in block["elements"]:
                assert button["text"]["type"] == "plain_text"
                assert 0 < len(button["text"]["text"]) <= 75
                assert len(button["value"]) <= 2000
                assert 0 < len(button["action_id"]) <= 255
        else:
            pytest.fail(f"unexpected block type {block['type']}")


def assert_escaped(text: str) -> None:
    """Apart from the links and literal markers the builder made, no raw < > and every &
    starts an entity."""
    rest = LINK.sub("", text)
    assert "<" not in rest and ">" not in rest, text
    assert not ENTITY.search(text), text


# --- a normal card ---------------------------------------------------------------------


def test_a_normal_card_reads_well() -> None:
    text, blocks = paper_message(card=make_card())
    recap, header, authors, abstract, link, queue, actions = blocks
    assert recap["elements"][0]["text"] == (
        "Yesterday: <https://team.slack.com/archives/C1/p1714640400000100|BERT>"
        " — 👍 3 · 👎 1 · 💬 4 comments"
    )
    assert header["type"] == "header" and header["block_id"] == ids.POST_BLOCK
    assert header["text"]["text"] == "Attention Is All You Need"
    assert authors["elements"][0]["text"] == "Ashish Vaswani, Noam Shazeer, Niki Parmar"
    assert abstract["text"]["text"].startswith("The dominant sequence transduction")
    assert link["text"]["text"] == "📄 <https://arxiv.org/abs/1706.03762|arXiv:1706.03762>"
    assert queue["elements"][0]["text"] == "Added by Ana · 5 more in the queue"
    assert actions["block_id"] == ids.VOTE_BLOCK
    assert text == "Today's paper: Attention Is All You Need — https://arxiv.org/abs/1706.03762"
    assert_within_limits(blocks)


def test_the_vote_buttons_carry_counts_and_the_post_id() -> None:
    _, blocks = paper_message(card=make_card())
    found = buttons(blocks)
    assert set(found) == {ids.VOTE_UP, ids.VOTE_DOWN}
    assert found[ids.VOTE_UP]["text"] == {"type": "plain_text", "text": "👍 3", "emoji": True}
    assert found[ids.VOTE_DOWN]["text"] == {"type": "plain_text", "text": "👎 1", "emoji": True}
    for button in found.values():
        assert button["type"] == "button"
        assert ids.decode_post_id(value=button["value"]) == 42


@pytest.mark.parametrize(
    ("arxiv_id", "doi", "url", "expected"),
    [
        ("1706.03762", "10.1/x", "https://e.org/p", "https://arxiv.org/abs/1706.03762"),
        (None, "10.1145/3368089", "https://e.org/p", "https://doi.org/10.1145/3368089"),
        ("", "  ", "https://e.org/p", "https://e.org/p"),
        (None, None, "https://e.org/p?a=1&b=<2>", "https://e.org/p?a=1&amp;b=%3C2%3E"),
        (
            None,
            "10.1002/(SICI)1097<497::AID>3.0",
            None,
            "https://doi.org/10.1002/(SICI)1097%3C497::AID%3E3.0",
        ),
    ],
)
def test_the_link_prefers_arxiv_then_doi_then_url(
    arxiv_id: str | None, doi: str | None, url: str | None, expected: str
) -> None:
    paper = make_paper(arxiv_id=arxiv_id, doi=doi, url=url)
    text, blocks = paper_message(card=make_card(paper=paper))
    assert text.endswith(f" — {expected}")
    assert any(t.startswith(f"📄 <{expected}|") for t in mrkdwn_texts(blocks))


@pytest.mark.parametrize("url", [None, "", "javascript:alert(1)", "ftp://e.org/x"])
def test_no_link_when_nothing_usable_is_known(url: str | None) -> None:
    paper = make_paper(arxiv_id=None, doi=None, url=url)
    text, blocks = paper_message(card=make_card(paper=paper, recap=None))
    assert text == "Today's paper: Attention Is All You Need"
    assert not any("📄" in t or "<" in t for t in mrkdwn_texts(blocks))
    assert_within_limits(blocks)


def test_without_a_recap_the_header_comes_first() -> None:
    _, blocks = paper_message(card=make_card(recap=None))
    assert blocks[0]["type"] == "header"


def test_a_recap_without_permalink_and_one_comment() -> None:
    recap = Recap(title="A & <B>", permalink=None, votes=VoteCount(), comments=1)
    _, blocks = paper_message(card=make_card(recap=recap))
    line = blocks[0]["elements"][0]["text"]
    assert line == "Yesterday: *A &amp; &lt;B&gt;* — 👍 0 · 👎 0 · 💬 1 comment"


@pytest.mark.parametrize(
    ("name", "remaining", "expected"),
    [
        ("Ana", 0, "Added by Ana · last paper in the queue"),
        ("Ana", 1, "Added by Ana · 1 more in the queue"),
        (None, 2, "2 more in the queue"),
        ("  ", 0, "Last paper in the queue"),
        ("<!channel> & co", 3, "Added by &lt;!channel&gt; &amp; co · 3 more in the queue"),
    ],
)
def test_the_queue_line(name: str | None, remaining: int, expected: str) -> None:
    _, blocks = paper_message(card=make_card(added_by_name=name, remaining=remaining))
    assert blocks[-2]["elements"][0]["text"] == expected


def test_many_authors_are_clipped_with_et_al() -> None:
    six = tuple(f"Author {i}" for i in range(6))
    _, blocks = paper_message(card=make_card(paper=make_paper(authors=six)))
    assert blocks[2]["elements"][0]["text"] == ", ".join(six)
    many = tuple(f"Author {i}" for i in range(500))
    _, blocks = paper_message(card=make_card(paper=make_paper(authors=many)))
    assert blocks[2]["elements"][0]["text"] == "Author 0, Author 1, Author 2 et al."
    assert_within_limits(blocks)


def test_lone_surrogates_in_links_do_not_raise() -> None:
    paper = make_paper(arxiv_id="\ud800", doi="\udfff", url="https://e.org/\ud800")
    text, blocks = paper_message(card=make_card(paper=paper))
    assert text.endswith(" — https://arxiv.org/abs/%3F")
    assert_within_limits(blocks)


def test_no_authors_no_authors_line() -> None:
    _, blocks = paper_message(card=make_card(recap=None, paper=make_paper(authors=("", " "))))
    assert [b["type"] for b in blocks[:2]] == ["header", "section"]


# --- escaping and clipping -------------------------------------------------------------


def test_escape_mrkdwn() -> None:
    assert escape_mrkdwn(text="a < b & c > d") == "a &lt; b &amp; c &gt; d"
    assert escape_mrkdwn(text="&lt;") == "&amp;lt;"
    assert escape_mrkdwn(text="*_~`") == "*_~`"


def test_titles_and_abstracts_are_escaped_in_mrkdwn_but_not_in_the_header() -> None:
    paper = make_paper(title="Q&A <b> *_~", abstract="x < y & z > 0\n\n<@U1> <!here>")
    text, blocks = paper_message(card=make_card(paper=paper))
    assert blocks[1]["text"]["text"] == "Q&A <b> *_~"
    assert blocks[3]["text"]["text"] == "x &lt; y &amp; z &gt; 0\n\n&lt;@U1&gt; &lt;!here&gt;"
    fenced = LITERAL.format("*_~")
    assert text.startswith(f"Today's paper: Q&amp;A &lt;b&gt; {fenced} — ")


def test_a_long_abstract_is_clipped_with_read_more() -> None:
    paper = make_paper(abstract="word & " * 2000)
    _, blocks = paper_message(card=make_card(paper=paper))
    abstract = blocks[3]["text"]["text"]
    assert abstract.endswith("… <https://arxiv.org/abs/1706.03762|Read more>")
    assert len(abstract) <= 3000
    assert_escaped(abstract)


@pytest.mark.parametrize("word", ["&", "a&", "ab&", "<>", "x&y>"])
def test_clipping_never_splits_an_entity(word: str) -> None:
    paper = make_paper(abstract=word * 3000, title=word * 300)
    recap = Recap(title=word * 300, permalink=None, votes=VoteCount(), comments=0)
    text, blocks = paper_message(card=make_card(paper=paper, recap=recap, added_by_name=word * 99))
    for mrkdwn in [text, *mrkdwn_texts(blocks)]:
        assert_escaped(mrkdwn)
        assert not re.search(r"&[a-z]*…", mrkdwn), mrkdwn


def test_a_long_abstract_without_link_just_ends_with_an_ellipsis() -> None:
    paper = make_paper(abstract="x" * 10_000, arxiv_id=None, doi=None, url=None)
    _, blocks = paper_message(card=make_card(paper=paper))
    assert blocks[3]["text"]["text"].endswith("x…")


def test_an_empty_abstract_still_makes_a_valid_section() -> None:
    _, blocks = paper_message(card=make_card(paper=make_paper(abstract=" \n ")))
    assert blocks[3]["text"]["text"] == f"_{post_words.NO_ABSTRACT}_"


def test_a_huge_title_is_cut_at_a_word_boundary() -> None:
    title = "Deep learning " * 1000
    _, blocks = paper_message(card=make_card(paper=make_paper(title=title)))
    header = blocks[1]["text"]["text"]
    assert len(header) <= 150 and header.endswith(" Deep…")
    assert title.startswith(header.removesuffix("…"))


def test_an_empty_title_gets_a_placeholder() -> None:
    text, blocks = paper_message(card=make_card(paper=make_paper(title=" \n")))
    assert blocks[1]["text"]["text"] == "Untitled paper"
    assert text.startswith("Today's paper: Untitled paper")


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("short", 10, "short"),
        ("exactly10!", 10, "exactly10!"),
        ("one two three four", 10, "one two…"),
        ("one, two three", 6, "one…"),
        ("a; b; c", 5, "a;…"),
        ("abcdefghijklmnop", 5, "abcd…"),
        ("abc", 1, "…"),
        ("abc", 0, ""),
    ],
)
def test_clip(text: str, limit: int, expected: str) -> None:
    assert clip(text=text, limit=limit) == expected


@PROPERTY
@given(text=st.text(), limit=st.integers(min_value=0, max_value=200))
def test_clip_never_exceeds_the_limit(text: str, limit: int) -> None:
    clipped = clip(text=text, limit=limit)
    assert len(clipped) <= limit
    assert clipped == text or clipped.endswith("…") or limit == 0
    assert text.startswith(clipped.removesuffix("…"))


# --- absurd input ----------------------------------------------------------------------

nasty = st.sampled_from(list("*_~`<>&|:! \n\t")) | st.characters()
short_text = st.text(alphabet=nasty, max_size=40)
long_text = st.builds(
    lambda s, n: s * n, st.text(alphabet=nasty, min_size=1, max_size=30), st.integers(1, 2000)
)
any_text = short_text | long_text
maybe_url = st.none() | any_text | st.builds(lambda s: "https://e.org/" + s, any_text)
counts = st.builds(VoteCount, up=st.integers(-3, 10**15), down=st.integers(-3, 10**15))
many_authors = st.builds(
    lambda names, n: names * n, st.lists(short_text, min_size=1, max_size=5), st.integers(1, 150)
)
recaps = st.none() | st.builds(
    Recap, title=any_text, permalink=maybe_url, votes=counts, comments=st.integers(-1, 10**15)
)


@PROPERTY
@given(
    title=any_text,
    abstract=any_text,
    authors=st.lists(any_text, max_size=12) | many_authors,
    url=maybe_url,
    arxiv_id=st.none() | any_text,
    doi=st.none() | any_text,
    votes=counts,
    remaining=st.integers(-1, 10**15),
    name=st.none() | any_text,
    recap=recaps,
    post_id=st.integers(1, 2**63 - 1),
)
def test_any_card_stays_within_slacks_limits(
    title: str,
    abstract: str,
    authors: list[str],
    url: str | None,
    arxiv_id: str | None,
    doi: str | None,
    votes: VoteCount,
    remaining: int,
    name: str | None,
    recap: Recap | None,
    post_id: int,
) -> None:
    paper = make_paper(
        title=title, abstract=abstract, authors=tuple(authors), url=url, arxiv_id=arxiv_id, doi=doi
    )
    card = make_card(
        paper=paper,
        votes=votes,
        remaining=remaining,
        added_by_name=name,
        recap=recap,
        post_id=post_id,
    )
    text, blocks = paper_message(card=card)
    assert text.startswith("Today's paper: ") and len(text) <= 4000
    assert_escaped(text)
    assert_within_limits(blocks)
    for mrkdwn in mrkdwn_texts(blocks):
        assert_escaped(mrkdwn)
    assert {ids.decode_post_id(value=b["value"]) for b in buttons(blocks).values()} == {post_id}


# --- the post id in the vote buttons ---------------------------------------------------


@given(post_id=st.integers(min_value=1, max_value=2**63 - 1))
@settings(database=None)
def test_post_id_round_trips(post_id: int) -> None:
    value = ids.encode_post_id(post_id=post_id)
    assert len(value) <= 2000
    assert ids.decode_post_id(value=value) == post_id


@pytest.mark.parametrize(
    "value",
    [
        "",
        "0",
        "-1",
        "01",
        " 1",
        "1 ",
        "1\n",
        "1.0",
        "1e3",
        "abc",
        "١٢",
        "9" * 19,
        "1" * 30,
        None,
        12,
        [],
        b"12",
    ],
)
def test_garbage_values_decode_to_none(value: object) -> None:
    assert ids.decode_post_id(value=value) is None


@given(value=st.text() | st.binary() | st.integers() | st.none())
@settings(database=None)
def test_decoding_never_raises(value: object) -> None:
    decoded = ids.decode_post_id(value=value)
    assert decoded is None or ids.encode_post_id(post_id=decoded) == value


@pytest.mark.parametrize("post_id", [0, -1, 2**63, True])
def test_encoding_refuses_non_ids(post_id: int) -> None:
    with pytest.raises(ValueError):
        ids.encode_post_id(post_id=post_id)


def test_ids_are_unique_and_within_limits() -> None:
    assert ids.VOTE_UP != ids.VOTE_DOWN != ids.SEARCH_MORE
    assert ids.POST_BLOCK != ids.VOTE_BLOCK
    for value in (ids.VOTE_UP, ids.VOTE_DOWN, ids.SEARCH_MORE, ids.POST_BLOCK, ids.VOTE_BLOCK):
        assert 0 < len(value) <= 255


# --- notices ---------------------------------------------------------------------------


def test_a_notice_is_one_verbatim_section_within_limits() -> None:
    fenced = LITERAL.format("*") + "Done." + LITERAL.format("*")
    text, blocks = render(message=message("*Done.*"), names=str)
    assert text == fenced
    assert blocks == [
        {"type": "section", "text": {"type": "mrkdwn", "text": fenced, "verbatim": True}}
    ]
    for said in ("", "x" * 10_000):
        text, blocks = render(message=message(said), names=str)
        assert len(blocks) == 1 and 0 < len(text) <= 3000
        assert_within_limits(blocks)
