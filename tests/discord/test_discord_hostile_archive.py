"""A hostile archive through every message the bot sends on Discord (the daily post and its
redraw, yesterday's line, the weekly recap, queue, top, skip, add, search and its next page,
help, admin replies, errors), asserted on what the fake Discord received: nobody can be
notified, nothing is drawn as a ping but the people the bot names, no masked link hides a
target that is not ours, no link leads to evil.example, no invite or preview comes of data,
and every title a person wrote is still shown."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.db.database import Database
from bot.discord.embeds import vote_custom_id
from bot.domain import PaperDraft
from bot.services import importing, recap
from tests.discord.conftest import MONDAY_9, DiscordHarness
from tests.fakediscord.fake import GUILD_ID
from tests.hostile.archive import COMMENT, TITLES, import_hostile
from tests.hostile.discord_view import (
    View,
    disguised,
    hidden,
    links_to,
    locked,
    payload_view,
    pings,
    plain,
    shows,
)

STRANGER = "1234567890123456789"  # a snowflake that is no member: a mention of it is a ping
# What Discord's server and client read that Slack's do not; <@&guild> is the @everyone role.
EXTRA = (
    f" @everyone @Here <@{STRANGER}> <@!{STRANGER}> <@&{GUILD_ID}> <#{STRANGER}> <t:1:R>"
    " discord.gg/evil https://discord.gg/evil discord.com/invite/evil"
    " [y](<https://evil.example>) <https://evil.example/a> **b** __u__ ||s|| ``c`` # h -# s"
)
HOSTILE_TITLES = [title + EXTRA for title in TITLES]
# No mention of a person or role: discord.py's clean_content, which the archive keeps, would
# show those by name.
DISCORD_COMMENT = (
    f"{COMMENT} @everyone discord.gg/evil [y](https://evil.example) **b** ||s|| ``c`` <t:1:R>"
)
TYPED_ADD = (
    f"https://example.org/x @everyone <@&{GUILD_ID}> discord.gg/evil "
    "[Read the thread](https://evil.example/login) **b**"
)
INVITE_URL = "https://discord.gg/evil"
QUERY = "wombat @everyone discord.gg/evil [x](<https://evil.example>) **b**"
VOUCHED = frozenset(f"https://example.org/paper/{n}" for n in range(len(TITLES)))
OUR_KINDS = frozenset({"bold", "italic", "code", "subtext"})
MESSAGE_PATHS = (
    ("POST", "/channels/{id}/messages"),
    ("PATCH", "/channels/{id}/messages/{message}"),
    ("POST", "/webhooks/{app}/{token}"),
    ("PATCH", "/webhooks/{app}/{token}/messages/{message}"),
)


@pytest.fixture
def hostile(sqlite_url: str) -> None:
    """Hostile papers first in the queue (the harness imports the sample after them)."""
    import_hostile(url=sqlite_url, now=MONDAY_9, extra=EXTRA)


def _bodies(harness: DiscordHarness) -> list[dict[str, Any]]:
    """Every message body the bot sent: posts, redraws, notices, follow-ups and their edits,
    and any interaction callback carrying a message (types 4 and 7)."""
    fake = harness.fake
    bodies = [r.json for method, path in MESSAGE_PATHS for r in fake.requests(method, path)]
    callbacks = fake.requests("POST", "/interactions/{id}/{token}/callback")
    bodies += [r.json["data"] for r in callbacks if r.json.get("type") in (4, 7)]
    return bodies


def _checked(
    payload: dict[str, Any], *, harness: DiscordHarness, vouched: frozenset[str] = VOUCHED
) -> View:
    """What a reader sees of one body, once it is known to be safe to read (`vouched`: the
    papers' own URLs, which the daily post may put behind their titles)."""
    fake = harness.fake
    seen = payload_view(payload=payload)
    assert locked(payload=payload), payload.get("allowed_mentions")
    # Alice (who commented) is named by the search hit for her comment: a PersonRef.
    assert pings(view=seen, people={fake.alice_id}) == [], seen.text
    assert set(seen.tokens) <= {f"<#{fake.channel_id}>"}, seen.tokens
    assert hidden(view=seen, vouched=vouched) == [], seen.links
    assert disguised(view=seen) == []
    assert links_to(view=seen, host="evil.example") == [], seen.links
    assert (seen.invites, seen.previews, seen.loose) == ((), (), ()), seen
    assert {kind for kind, _ in seen.formatted} <= OUR_KINDS, seen.formatted
    return seen


def _answered(harness: DiscordHarness, subcommand: str, **options: str) -> View:
    """Run /paperclub as alice; what she sees of the answer."""
    return payload_view(payload=harness.command(subcommand, options or None))


def _admin(harness: DiscordHarness, subcommand: str, **options: str) -> View:
    """Run /paperclub as bob, the guild's owner; what he sees of the answer."""
    answer = harness.command(subcommand, options or None, user=harness.fake.bob_id)
    return payload_view(payload=answer)


def test_nothing_pings_nothing_hides_and_every_title_shows(
    hostile: None, harness: DiscordHarness
) -> None:
    fake = harness.fake
    post = harness.daily_post()
    harness.events(lambda: fake.user_says(text=DISCORD_COMMENT, thread=post["id"]))
    with harness.database(write=False) as store:
        stored = store.post_by_message(channel=harness.key, message_id=post["id"])
    assert stored is not None
    fake.wait_callback(fake.click(post["id"], vote_custom_id(post_id=stored.id, up=True)).id)
    harness.redrawn()
    harness.clock.at = MONDAY_9 + timedelta(days=1)
    harness.sweep()  # yesterday's line carries the first title
    seen = {
        "help": _answered(harness, "help"),
        "queue": _answered(harness, "queue"),
        "top": _answered(harness, "top", period="week"),
        "add": _answered(harness, "add", paper=TYPED_ADD),
        "again": _answered(harness, "add", paper=TYPED_ADD),
        "refused": _answered(harness, "skip"),
        "skip": _admin(harness, "skip"),
        "zone": _admin(harness, "schedule", when=f"09:00 @everyone/<@&{GUILD_ID}>`discord.gg/x`"),
        "time": _admin(harness, "schedule", when=f"<@&{GUILD_ID}>@everyone 09:00"),
        "pause": _admin(harness, "pause"),
        "resume": _admin(harness, "resume"),
        "next": _admin(harness, "next"),
        "bad recap": _admin(harness, "recap", when="someday@everyone 16:00"),
        "recap": _admin(harness, "recap", when="fri 16:00"),
        "comment": _answered(harness, "search", query="quokka"),
    }
    friday = MONDAY_9 + timedelta(days=4, hours=7)
    assert recap.send_due_recaps(poster=harness.wiring.posters["discord"], now=friday) == 1
    page = harness.command("search", {"query": QUERY})
    [row] = page["components"]
    [more] = row["components"]
    assert more["custom_id"].startswith("paperclub:search_more:~")  # the long query is a key
    fake.wait_callback(fake.click(page["id"], more["custom_id"]).id)
    fake.wait_request("PATCH", "/webhooks/{app}/{token}/messages/{message}")

    bodies = _bodies(harness)
    visible = [_checked(body, harness=harness).text for body in bodies]
    # Two daily posts, a redraw, the weekly recap; 16 answers and the second search page.
    assert len(bodies) == 4 + 16 + 1
    threads = fake.requests("POST", f"/channels/{fake.channel_id}/messages/{{message}}/threads")
    names = [plain(text=r.json["name"]).text for r in threads]
    assert [shows(typed=t, visible=n) for t, n in zip(HOSTILE_TITLES, names)] == [True, True]
    # The first title: its post, the redraw, yesterday's line, top, the recap and two searches.
    assert sum(shows(typed=HOSTILE_TITLES[0], visible=v) for v in visible) >= 7
    assert all(any(shows(typed=t, visible=v) for v in visible) for t in HOSTILE_TITLES)
    assert all(shows(typed=t, visible=seen["queue"].text) for t in HOSTILE_TITLES[2:])
    assert shows(typed=HOSTILE_TITLES[2], visible=seen["skip"].text)
    assert shows(typed=DISCORD_COMMENT, visible=seen["comment"].text)
    assert f"<@{fake.alice_id}>" in seen["comment"].pings  # who said it: the one mention allowed
    typed_title = TYPED_ADD.split(" ", 1)[1]
    assert shows(typed=typed_title, visible=seen["add"].text)
    assert shows(typed=typed_title, visible=seen["again"].text)
    assert "already in the queue" in seen["again"].text
    assert "Only Paper Club admins" in seen["refused"].text
    assert shows(typed=f"@everyone/<@&{GUILD_ID}>`discord.gg/x`", visible=seen["zone"].text)
    assert shows(typed=f"<@&{GUILD_ID}>@everyone", visible=seen["time"].text)
    assert shows(typed="someday@everyone", visible=seen["bad recap"].text)
    # What Discord holds now: the redrawn post, and the page the button replaced.
    labels = [b["label"] for b in fake.message(post["id"])["components"][0]["components"]]
    assert labels == ["👍 1", "👎 0"]
    second = payload_view(payload=fake.message(page["id"]))
    assert second.text.startswith("Results 6–8 of 8") and shows(typed=QUERY, visible=second.text)


def _first_in_queue(*, url: str, draft: PaperDraft) -> None:
    """Import one paper into the migrated database at `url` before the harness's sample."""
    database = Database(url=url)
    try:
        importing.import_drafts(uow=database, drafts=[draft], now=MONDAY_9)
    finally:
        database.dispose()


@pytest.fixture
def invite(sqlite_url: str) -> None:
    """First in the queue: a paper whose own URL is a Discord invite."""
    draft = PaperDraft(
        title="Join us", abstract="A study.", url=INVITE_URL, origin="hostile:invite"
    )
    _first_in_queue(url=sqlite_url, draft=draft)


def test_a_paper_linking_to_an_invite_shows_it_inert(invite: None, harness: DiscordHarness) -> None:
    post = harness.daily_post()
    [create] = harness.fake.requests("POST", f"/channels/{harness.fake.channel_id}/messages")
    # Its own URL vouches for nothing here: a Discord URL is never hidden behind words.
    seen = _checked(create.json, harness=harness, vouched=frozenset())
    assert seen.links == ()  # not even shown as a link: Discord unfurls invites from it
    assert shows(typed=INVITE_URL, visible=seen.text)
    assert "url" not in post["embeds"][0]


@pytest.fixture
def disguise(sqlite_url: str) -> None:
    """First in the queue: a paper whose title is an arXiv URL and whose own URL is not."""
    draft = PaperDraft(
        title="https://arxiv.org/abs/1706.03762 Attention Is All You Need",
        abstract="The dominant sequence transduction models are recurrent.",
        authors=("Ada",),
        url="https://evil.example/login",
        origin="hostile:disguise",
    )
    _first_in_queue(url=sqlite_url, draft=draft)


def test_a_title_never_disguises_the_link_it_sits_on(
    disguise: None, harness: DiscordHarness
) -> None:
    harness.daily_post()
    [create] = harness.fake.requests("POST", f"/channels/{harness.fake.channel_id}/messages")
    seen = payload_view(payload=create.json)
    assert locked(payload=create.json) and pings(view=seen) == []
    # The paper's own URL may carry a label: one naming its own host.
    assert hidden(view=seen, vouched={"https://evil.example/login"}) == []
    # The title reads as an arXiv page; a click on it must not open evil.example.
    assert disguised(view=seen) == []


def test_every_search_hit_shows_its_title_on_its_page(
    hostile: None, harness: DiscordHarness
) -> None:
    fake = harness.fake
    first = harness.command("search", {"query": "wombat"})
    [row] = first["components"]
    [more] = row["components"]
    fake.wait_callback(fake.click(first["id"], more["custom_id"]).id)
    fake.wait_request("PATCH", "/webhooks/{app}/{token}/messages/{message}")
    pages = [payload_view(payload=first).text, payload_view(payload=fake.message(first["id"])).text]
    assert pages[0].startswith("Results 1–5 of 7") and pages[1].startswith("Results 6–7 of 7")
    for body in _bodies(harness):
        _checked(body, harness=harness)
    assert [t for t in HOSTILE_TITLES if not any(shows(typed=t, visible=p) for p in pages)] == []
