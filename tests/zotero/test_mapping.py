"""Papers to Zotero items and back, and discussions to notes: fields, names, tags, the real
sample item, and hostile text (markup, mentions, 10,000 characters, emoji) kept inert."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from html.parser import HTMLParser
from pathlib import Path

from bot.domain import CommentView, Paper, PaperStatus, PostView, VoteCount
from bot.domain.keys import ChannelKey
from bot.zotero import new_object_key
from bot.zotero.mapping import TAG_MAX, creator, item_draft, paper_item, tag_list
from bot.zotero.note import NOTE_MAX, discussion_html, discussion_note

from .conftest import USER, Setup, collection

SAMPLES = Path(__file__).resolve().parents[1] / "fakezotero" / "samples"
HOSTILE = "<script>alert(1)</script> <!channel> <@U123> *bold* & 🧪 \x00\x07"
LONG = "x" * 10_000


def _paper(**changes: object) -> Paper:
    fields: dict[str, object] = {
        "id": 1,
        "title": "Attention Is All You Need",
        "abstract": "We propose the Transformer.",
        "authors": ("Ashish Vaswani", "Noam Shazeer", "Plato"),
        "url": None,
        "arxiv_id": "1706.03762",
        "doi": None,
        "source": "arxiv",
        "added_by": None,
        "added_at": datetime(2024, 5, 1, tzinfo=UTC),
        "position": 1,
        "status": PaperStatus.POSTED,
    }
    return Paper(**(fields | changes))  # type: ignore[arg-type]


def test_an_arxiv_paper_is_a_preprint_with_the_arxiv_line_in_extra() -> None:
    item = paper_item(
        paper=_paper(),
        tags=["2024-05-01", "👍 3", "2024-05-01"],
        collections=["ABCD2345"],
        published=date(2017, 6, 12),
    )
    assert item["itemType"] == "preprint" and item["extra"] == "arXiv: 1706.03762"
    assert item["archiveID"] == "arXiv:1706.03762" and item["repository"] == "arXiv"
    assert item["url"] == "https://arxiv.org/abs/1706.03762" and item["date"] == "2017-06-12"
    assert item["creators"][0] == {
        "creatorType": "author",
        "firstName": "Ashish",
        "lastName": "Vaswani",
    }
    assert item["creators"][2] == {"creatorType": "author", "name": "Plato"}
    assert item["tags"] == [{"tag": "2024-05-01"}, {"tag": "👍 3"}]
    assert item["collections"] == ["ABCD2345"]


def test_a_doi_paper_is_a_journal_article_and_comes_back_the_same() -> None:
    paper = _paper(arxiv_id=None, doi="10.1000/xyz123", url="https://example.org/p")
    item = paper_item(paper=paper)
    draft = item_draft(item={"data": {**item, "key": "ABCD2345"}})
    assert item["itemType"] == "journalArticle" and item["extra"] == "" and "archiveID" not in item
    assert draft is not None and draft.doi == "10.1000/xyz123" and draft.arxiv_id is None
    assert (draft.title, draft.authors) == (paper.title, paper.authors)
    assert draft.origin == "zotero:ABCD2345"


def test_an_arxiv_item_comes_back_with_its_id_date_and_authors() -> None:
    item = paper_item(paper=_paper(), published=date(2017, 6, 12))
    draft = item_draft(item=item)
    assert (
        draft is not None
        and draft.arxiv_id == "1706.03762"
        and draft.published == date(2017, 6, 12)
    )
    assert draft.authors == ("Ashish Vaswani", "Noam Shazeer", "Plato")
    assert draft.url == "https://arxiv.org/abs/1706.03762"


def test_the_real_sample_item_becomes_a_draft_of_its_authors_only() -> None:
    real = json.loads((SAMPLES / "pyzotero_item_doc.json").read_text("utf-8"))
    draft = item_draft(item=real)
    assert draft is not None and draft.title.startswith("Electron Microscopy and Analysis 1993")
    assert draft.authors == ("Institute of Physics (Great Britain)",)
    assert draft.published is None  # "1993": no day to give


def test_notes_attachments_and_empty_items_are_no_papers() -> None:
    assert item_draft(item={"data": {"itemType": "note", "note": "<p>x</p>"}}) is None
    assert item_draft(item={"itemType": "attachment", "title": "PDF"}) is None
    assert item_draft(item={"itemType": "journalArticle", "title": ""}) is None


def test_hostile_text_goes_to_zotero_as_plain_text() -> None:
    item = paper_item(paper=_paper(title=HOSTILE + LONG, authors=(HOSTILE,)), tags=[HOSTILE, LONG])
    assert item["title"] == HOSTILE[:-2] + LONG  # verbatim but the control characters
    assert item["tags"][0] == {"tag": HOSTILE[:-3]} and len(item["tags"][1]["tag"]) == TAG_MAX
    assert "\x00" not in json.dumps(item["creators"]) and creator(name="  ")["name"] == ""
    assert tag_list(tags=["", "   "]) == []


class _Tags(HTMLParser):
    """Every start tag and attribute of an HTML text, and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.hrefs: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.hrefs += [v or "" for k, v in attrs if k == "href"]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _post(*, permalink: str | None, comments: tuple[CommentView, ...]) -> PostView:
    return PostView(
        channel=ChannelKey(platform="slack", workspace="T1", channel="C1"),
        date=date(2024, 5, 1),
        message_id="1.2",
        permalink=permalink,
        votes=VoteCount(up=3, down=1),
        comments=comments,
    )


def test_a_discussion_note_keeps_hostile_comments_inert() -> None:
    comments = (
        CommentView(user="U1", message_id="1", text=HOSTILE + "\nsecond line", edited=True),
        CommentView(user="<@U2>", message_id="2", text=LONG, edited=False),
    )
    html = discussion_html(
        title=HOSTILE,
        post=_post(permalink="https://x.slack.com/p1", comments=comments),
        channel_name="#papers <b>",
        names={"U1": "Ada <i>L</i>"},
    )
    parsed = _Tags()
    parsed.feed(html)
    text = "".join(parsed.text)
    assert set(parsed.tags) <= {"div", "h1", "p", "ul", "li", "strong", "em", "a", "br"}
    assert parsed.hrefs == ["https://x.slack.com/p1"]
    assert "<script>alert(1)</script> <!channel> <@U123>" in text and LONG in text
    assert "Ada <i>L</i>" in text and "#papers <b>" in text and "👍 3 · 👎 1" in text
    assert "<script" not in html and "<!channel>" not in html and "\x00" not in html
    assert parsed.tags.count("br") == 1 and "(edited)" in text


def test_a_note_links_only_an_http_permalink_and_says_when_nobody_spoke() -> None:
    html = discussion_html(
        title="T", post=_post(permalink="javascript:alert(1)", comments=()), channel_name="#papers"
    )
    assert "href" not in html and "javascript" not in html and "No comments yet." in html
    assert discussion_note(parent="ABCD2345", html=html) == {
        "itemType": "note",
        "parentItem": "ABCD2345",
        "note": html,
    }


def test_an_item_and_its_hostile_note_round_trip_through_the_fake(zotero: Setup) -> None:
    into = collection(client=zotero.client, name=HOSTILE)
    comments = (CommentView(user="U1", message_id="1", text=HOSTILE, edited=False),)
    item = paper_item(paper=_paper(title=HOSTILE), tags=[HOSTILE], collections=[into])
    created = zotero.client.create_items(items=[item])
    html = discussion_html(
        title=HOSTILE, post=_post(permalink=None, comments=comments), channel_name="#papers"
    )
    note = zotero.client.create_items(items=[discussion_note(parent=created.keys[0], html=html)])
    changes = zotero.client.changed_items(since=0, collection=into)
    stored_note = zotero.fake.library(kind="users", id=USER).get(kind="items", key=note.keys[0])
    draft = item_draft(item=changes.objects[0])
    assert draft is not None and draft.title == HOSTILE[:-2].strip()
    assert stored_note is not None and stored_note["note"] == html
    assert changes.objects[0]["data"]["tags"] == [{"tag": HOSTILE[:-3]}]


def test_values_over_zoteros_limits_are_cut_to_fit_and_accepted(zotero: Setup) -> None:
    paper = _paper(
        title="é" * 40_000, abstract="🧪" * 20_000, authors=("Ada " + "L" * 300, "ñ" * 200)
    )
    item = paper_item(paper=paper, tags=["t" * 300])
    created = zotero.client.create_items(items=[item])
    stored = zotero.fake.library(kind="users", id=USER).get(kind="items", key=created.keys[0])
    assert created.failed == {} and stored is not None
    assert len(stored["title"].encode()) <= 65_535 and stored["title"] == "é" * 32_767
    assert stored["abstractNote"] == "🧪" * 16_383  # whole emoji only: 4 bytes each
    assert (
        len(stored["creators"][0]["lastName"]) == 255 and stored["creators"][1]["name"] == "ñ" * 127
    )


def test_a_hostile_collection_name_is_made_once_cut_and_clean(zotero: Setup) -> None:
    name = HOSTILE + "\r\n" + "c" * 300
    key = new_object_key()
    assert zotero.client.make_collection(key=key, name=name)
    assert zotero.client.make_collection(key=key, name=name)
    stored = zotero.fake.library(kind="users", id=USER).live(kind="collections")
    assert [c["key"] for c in stored] == [key] and len(stored[0]["name"]) == TAG_MAX
    assert "\x00" not in stored[0]["name"] and "\n" not in stored[0]["name"]


def test_a_thread_longer_than_a_note_keeps_its_first_comments(zotero: Setup) -> None:
    comments = tuple(
        CommentView(user=f"U{i}", message_id=str(i), text="<b>" + "y" * 9_990, edited=False)
        for i in range(100)
    )
    html = discussion_html(
        title="T", post=_post(permalink=None, comments=comments), channel_name="#p"
    )
    parent = zotero.client.create_items(items=[paper_item(paper=_paper())]).keys[0]
    note = zotero.client.create_items(items=[discussion_note(parent=parent, html=html)])
    kept = html.count("<li><strong>")
    assert len(html) <= NOTE_MAX and note.failed == {} and 30 < kept < 100
    assert f"{100 - kept} more comments: see the thread." in html
