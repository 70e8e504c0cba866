"""Hostile titles, comments and channel names (markup, mentions, javascript: links, 10,000
characters, emoji) stay inert text in the note and the tags: escaped in the note's HTML, kept
plain in tags and the collection's name (each within Zotero's 255 characters); nothing refused."""

from __future__ import annotations

from bot.domain import PaperDraft
from bot.ingest.drafts import build_draft
from bot.services.adding import queue_draft
from tests.services.conftest import follow
from tests.services.support import deliver, vote
from tests.zotero.sync_support import (
    C1,
    NEW_YEAR,
    NOW,
    WEEKDAYS_OF_JANUARY,
    World,
    name_things,
    say,
    tags_of,
)

TITLE = (
    '<script>alert(1)</script> <!channel> <@U1> @everyone <a href="javascript:alert(1)">x</a> 🦘'
)
COMMENTS = (
    "<!channel> <@U1> <!here> @everyone *bold* `code` <https://evil.example|click>",
    '<a href="javascript:alert(1)">click me</a> javascript:alert(2) <img src=x onerror=alert(3)>',
    "🦘🧪 wombat ∑ naïve — “quoted”\nsecond line",
    "x" * 10_000,
)
CHANNEL_NAME = "<!channel> 🦘 <@U1> " + "y" * 300


def test_hostile_text_stays_inert_in_the_note_tags_and_collection(world: World) -> None:
    follow(world.database, C1.channel)
    draft = build_draft(origin="test", title=TITLE + " " + "z" * 10_000, abstract="An abstract.")
    assert isinstance(draft, PaperDraft)
    with world.database() as store:
        assert queue_draft(store=store, draft=draft, channel=C1, user="U8", now=NEW_YEAR)
    post, card = deliver(world.database, world.chat, C1, now=WEEKDAYS_OF_JANUARY[0])
    vote(world.database, post, user="U1", value=1, event="up", now=NOW)
    for n, text in enumerate(COMMENTS, start=1):
        say(world, post, n=n, text=text, user="U1")
    name_things(world, name=CHANNEL_NAME)
    world.connect()
    result = world.sync()
    assert (result.created, result.failures) == (1, ())

    [item], [note] = world.items(), world.notes()
    assert item["title"] == card.paper.title  # a plain field: kept as typed, never markup
    html = note["note"]
    assert "<script" not in html and "<img" not in html
    assert 'href="javascript' not in html and "<a " not in html  # no permalink in this chat
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &lt;!channel&gt; &lt;@U1&gt; @everyone" in html
    assert "&lt;!here&gt;" in html and "&lt;https://evil.example|click&gt;" in html
    assert "&lt;img src=x onerror=alert(3)&gt;" in html
    assert "🦘🧪 wombat ∑ naïve — “quoted”<br>second line" in html
    assert "x" * 10_000 in html  # a long comment whole: far below a note's 500,000
    assert html.count("<li>") == len(COMMENTS)

    tags = tags_of(item)
    label = "#" + CHANNEL_NAME[:200]  # as the archive keeps a name (bot/db/names.NAME_MAX)
    assert tags == ["Paper Club", "2026-01-05", "👍 1", "👎 0", label]
    assert all(len(tag) <= 255 for tag in tags)
    [collection] = world.library.live(kind="collections")
    assert collection["name"] == ("Paper Club " + label)[:255]
    assert world.link().destination == collection["key"]

    before = world.writes()
    assert world.sync().updated == 0  # what was stored is what is wanted: no rewrite loop
    assert world.writes() == before
