"""/paperclub on Discord: every subcommand of the Slack command, ephemeral and deferred, admins
by Manage Server, and search with its 'More results' button."""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import unquote

from bot.config.settings import Settings
from bot.config.web import WebSettings
from bot.db.database import Database
from bot.discord.render import read_custom_id
from bot.services.commands import TABLE
from bot.services.web_links import Signer
from tests.discord.conftest import DiscordHarness, running
from tests.fakediscord import FakeDiscord

DEFERRED_CHANNEL_MESSAGE = 5
EPHEMERAL = 1 << 6
SIGNIN_KEY = b"k" * 32


def test_one_group_with_every_subcommand_is_registered(harness: DiscordHarness) -> None:
    """What Discord received on sync is the command table: every entry, each with its
    arguments as options, required or not, offering its choices."""
    [command] = harness.fake.commands()
    assert command["name"] == "paperclub"
    registered = {option["name"]: option for option in command["options"]}
    assert set(registered) == {entry.name for entry in TABLE}
    for entry in TABLE:
        sent = registered[entry.name]
        assert sent["description"] == entry.about
        options = {
            o["name"]: (o.get("required", False), [c["value"] for c in o.get("choices", [])])
            for o in sent.get("options", [])
        }
        assert options == {a.name: (a.required, list(a.choices)) for a in entry.arguments}


def test_web_without_sign_in_says_there_are_no_links(harness: DiscordHarness) -> None:
    """`/paperclub web`, which the help lists everywhere, when the archive needs no sign-in."""
    assert "no sign-in links" in _words(harness.command("web")["content"])


def test_web_hands_out_a_link_to_this_servers_archive(
    fake: FakeDiscord, settings: Settings, sqlite_url: str
) -> None:
    """With PAPERCLUB_WEB_SIGNIN_KEY set, a link that signs in to this server's archive and no
    other."""
    web = WebSettings(signin_key=SIGNIN_KEY, url="https://club.example/archive")
    database = Database(url=sqlite_url)
    try:
        for harness in running(fake=fake, settings=replace(settings, web=web), database=database):
            content = harness.command("web")["content"]
            now = harness.clock.now()
            workspace = harness.key.workspace_key
    finally:
        database.dispose()
    signer = Signer(key=SIGNIN_KEY, base="https://club.example/archive")
    found = re.search(r"<(https://club\.example/archive/signin\?token=[^>]+)>", content)
    assert found is not None, content
    token = unquote(found.group(1).split("token=", 1)[1])
    assert signer.check(token=token, now=now) == workspace


def test_answers_are_deferred_and_ephemeral(harness: DiscordHarness) -> None:
    record = harness.fake.slash("paperclub", "help")
    callback = harness.fake.wait_callback(record.id)
    assert callback["type"] == DEFERRED_CHANNEL_MESSAGE
    assert callback["data"]["flags"] & EPHEMERAL
    answer = harness.answer(record.id)
    assert "Paper Club" in answer["content"]
    [followup] = [r for r in harness.fake.requests("POST") if "/webhooks/" in r.path]
    assert followup.json["allowed_mentions"]["parse"] == []


def test_admin_commands_need_manage_server(harness: DiscordHarness) -> None:
    fake = harness.fake
    refused = harness.command("pause", user=fake.alice_id)["content"]
    assert "Only Paper Club admins" in refused
    done = harness.command("pause", user=fake.bob_id)["content"]  # bob owns the server
    assert "Only Paper Club admins" not in done
    with harness.database(write=False) as store:
        channel = store.channel(key=harness.key)
    assert channel is not None and channel.paused
    harness.command("resume", user=fake.bob_id)
    with harness.database(write=False) as store:
        channel = store.channel(key=harness.key)
    assert channel is not None and not channel.paused


def test_schedule_follows_a_new_channel_and_rebuilds_the_jobs(harness: DiscordHarness) -> None:
    fake = harness.fake
    reading = fake.add_channel("reading")
    answer = harness.command(
        "schedule", {"when": "10:30 Europe/Paris mon,wed"}, user=fake.bob_id, channel=reading
    )
    assert "10:30" in answer["content"]
    with harness.database(write=False) as store:
        channel = store.channel(
            key=harness.key.__class__(platform="discord", workspace=fake.guild_id, channel=reading)
        )
    assert channel is not None
    assert channel.schedule.timezone == "Europe/Paris"
    assert channel.schedule.weekdays == frozenset({1, 3})


def _queued_titles(harness: DiscordHarness, *, limit: int = 3) -> list[str]:
    """The next titles of #general's queue, from the archive."""
    with harness.database(write=False) as store:
        return [
            p.title
            for p in store.queued(
                workspace=harness.key.workspace_key,
                channel=store.channel(key=harness.key),
                limit=limit,
            )
        ]


def _words(text: str) -> str:
    """Shown text without markdown escapes, to look for words in it."""
    return text.replace("\\", "")


def test_queue_add_skip_next_and_top(harness: DiscordHarness) -> None:
    fake = harness.fake
    first, second, _ = _queued_titles(harness)
    assert first.split()[0] in _words(harness.command("queue")["content"])
    added = harness.command("add", {"paper": "A paper about wombat scheduling"})["content"]
    assert "wombat scheduling" in _words(added)
    assert "queue" in added.lower()
    harness.command("skip", user=fake.bob_id)
    assert _queued_titles(harness)[0] == second
    harness.command("next", user=fake.bob_id)
    [post] = harness.posts()
    assert second.split()[0] in _words(post["content"])
    top = harness.command("top", {"period": "week"})["content"]
    assert second.split()[0] in _words(top)


def test_search_pages_with_the_more_button(harness: DiscordHarness) -> None:
    fake = harness.fake
    first = harness.command("search", {"query": "training"})
    [row] = first["components"]
    [more] = row["components"]
    assert read_custom_id(custom_id=more["custom_id"]) is not None
    click = fake.click(first["id"], more["custom_id"])
    page = harness.answer(click.id)
    assert page["id"] == first["id"]  # the next page replaces this one
    assert page["content"] != first["content"]
    assert "Results 6–" in page["content"]


def test_a_long_query_pages_by_key_and_a_forgotten_key_says_stale(
    harness: DiscordHarness,
) -> None:
    fake = harness.fake
    query = "training " + " ".join(["-zzz"] * 30)  # too long for a custom id: a key rides
    first = harness.command("search", {"query": query})
    [more] = first["components"][0]["components"]
    assert more["custom_id"].startswith("paperclub:search_more:~")
    page = harness.answer(fake.click(first["id"], more["custom_id"]).id)
    assert "Results 6–" in page["content"]
    fresh = harness.command("search", {"query": query})
    [more] = fresh["components"][0]["components"]
    harness.platform.chat.keys.forget()  # as a restart does
    stale = harness.answer(fake.click(fresh["id"], more["custom_id"]).id)
    assert "no longer works" in stale["content"]


def test_order_is_for_admins_and_related_answers(harness: DiscordHarness) -> None:
    fake = harness.fake
    refused = harness.command("order", {"how": "taste"}, user=fake.alice_id)["content"]
    assert "Only Paper Club admins" in refused
    done = harness.command("order", {"how": "taste"}, user=fake.bob_id)["content"]
    assert "picked by the group's taste" in done
    with harness.database(write=False) as store:
        channel = store.channel(key=harness.key)
    assert channel is not None and channel.pick_order == "taste"
    # Without the semantic extra in this process, related says why it cannot answer.
    first = _queued_titles(harness)[0]
    answer = harness.command("related", {"paper": first})["content"]
    assert "Related papers are not available here" in answer
