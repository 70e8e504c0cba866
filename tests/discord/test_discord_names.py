"""Discord's names for the web archive (bot.discord.names): a channel from discord.py's guild
cache with no REST call, else GET /channels/{id}; people from GET /users/{id}, kept an hour; an
id Discord does not know is left out; a hostile name is kept as the text it is, and nothing is
said in any channel."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.discord.deps import channel_key
from bot.ports.names import CHANNEL, PERSON
from tests.discord.conftest import DiscordHarness

NOW = datetime(2026, 1, 5, 9, tzinfo=UTC)
HOSTILE = "<@&1> @everyone @here <script>alert(1)</script> **bold** `code` 🧮👩🏽‍🔬 " * 150


def _asked(harness: DiscordHarness, path: str) -> int:
    """How many GETs of this route template the fake has answered."""
    return len(harness.fake.requests("GET", path))


def test_a_channel_in_the_guild_cache_takes_no_rest_call(harness: DiscordHarness) -> None:
    """#general is in discord.py's cache; people are not (without the privileged members
    intent discord.py caches no members), so each is asked once and then kept for an hour."""
    fake, chat = harness.fake, harness.platform.chat
    channels, users = _asked(harness, "/channels/{id}"), _asked(harness, "/users/{id}")
    for _ in range(2):
        named = chat.names_of(channel=harness.key, people=[fake.alice_id, fake.bob_id])
        assert named.channel == "general"
        # alice's global name; bob has none, so his username.
        assert named.people == {fake.alice_id: "Alice A", fake.bob_id: "bob"}
    assert _asked(harness, "/channels/{id}") == channels
    assert _asked(harness, "/users/{id}") == users + 2


def test_names_the_cache_lacks_come_from_rest(harness: DiscordHarness) -> None:
    """A channel made after the bot connected and a user in none of our guilds."""
    fake, chat = harness.fake, harness.platform.chat
    room = fake.add_channel("reading-room")  # no CHANNEL_CREATE: not in discord.py's cache
    carol = fake.add_user("carol", global_name="Carol C")
    dave = fake.add_user("dave")
    named = chat.names_of(
        channel=channel_key(guild_id=fake.guild_id, channel_id=room), people=[carol, dave]
    )
    assert named.channel == "reading-room"
    assert named.people == {carol: "Carol C", dave: "dave"}
    assert [r.path for r in fake.requests("GET", "/channels/{id}")][-1].endswith(f"/{room}")
    asked_users = {r.path.rpartition("/")[2] for r in fake.requests("GET", "/users/{id}")}
    assert {carol, dave} <= asked_users


def test_an_unknown_id_is_left_out(harness: DiscordHarness) -> None:
    fake, chat = harness.fake, harness.platform.chat
    # A person Discord does not know (404 Unknown User), and one that is no Discord id at all.
    named = chat.names_of(channel=harness.key, people=["999999999999999999", "U9"])
    assert named.channel == "general" and named.people == {}
    assert not any(r.path.endswith("/U9") for r in fake.requests("GET", "/users/{id}"))
    # A channel Discord does not know: no names at all, and no traceback.
    gone = chat.names_of(
        channel=channel_key(guild_id=fake.guild_id, channel_id="999999999999999998"),
        people=[fake.alice_id],
    )
    assert gone.channel is None and gone.people == {}


def test_a_hostile_name_is_stored_as_inert_text(harness: DiscordHarness) -> None:
    """Markup, mentions, emoji, 10,000 characters: the same text back, the archive keeps its
    first 200 characters, and not one message goes out (nothing pings)."""
    fake, chat = harness.fake, harness.platform.chat
    assert len(HOSTILE) >= 10_000
    thread = fake.add_thread(name=HOSTILE[:100])  # Discord's limit for a thread's name
    mallory = fake.add_user("mallory", global_name=HOSTILE)
    posted = len(fake.requests("POST", None))
    key = channel_key(guild_id=fake.guild_id, channel_id=thread)
    named = chat.names_of(channel=key, people=[mallory])
    assert named.channel == HOSTILE[:100]
    assert named.people == {mallory: HOSTILE}
    with harness.database() as store:
        store.record_names(
            workspace=key.workspace_key, kind=CHANNEL, names={thread: named.channel}, now=NOW
        )
        store.record_names(workspace=key.workspace_key, kind=PERSON, names=named.people, now=NOW)
    with harness.database(write=False) as store:
        assert store.names_in(workspace=key.workspace_key, kind=CHANNEL)[thread] == HOSTILE[:100]
        assert store.names_in(workspace=key.workspace_key, kind=PERSON)[mallory] == HOSTILE[:200]
    assert len(fake.requests("POST", None)) == posted
