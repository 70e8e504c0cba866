"""Issue 32's suggestions tray on Discord: posted by the sweep, Add to queue and Not for us
clicked (the tray's message edited to its new state, the clicker answered alone), a second
click told what became of it, a button naming another channel's suggestion refused, hostile
titles inert."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from bot.config.settings import Settings
from bot.db.database import Database
from bot.discord.render import custom_id
from bot.domain import ChannelKey
from bot.messages import Button, Buttons, Message, line
from bot.ports import ChatError
from bot.services import suggestions
from bot.wording.suggestions import ADD, ADD_LABEL, HIDE
from tests.discord.conftest import WAIT, DiscordHarness, running
from tests.fakediscord import FakeDiscord
from tests.hostile.discord_view import links_to, locked, payload_view, pings
from tests.slack.tray_support import (
    HOSTILE,
    load_short,
    numbers,
    post_trays,
    state_of,
    suggest,
)

EPHEMERAL = 64
TITLES = ("Sparse attention at scale", "Tiny recurrent nets", "Better optimisers")


@pytest.fixture
def harness(fake: FakeDiscord, settings: Settings, sqlite_url: str) -> Iterator[DiscordHarness]:
    """The bot connected to the fake, with a queue short enough to show its end."""
    database = Database(url=sqlite_url)
    load_short(database)
    try:
        yield from running(fake=fake, settings=settings, database=database)
    finally:
        database.dispose()


def _posted(harness: DiscordHarness, titles: tuple[str, ...] = TITLES) -> dict[str, int]:
    """Suggestions found for #general and its tray posted; title -> number."""
    now = harness.clock.now()
    suggest(uow=harness.database, channel=harness.key, titles=titles, now=now)
    chat = harness.platform.chat
    assert post_trays(uow=harness.database, chat=chat, platform="discord", now=now) == 1
    return numbers(uow=harness.database, channel=harness.key)


def _custom_ids(message: dict[str, Any]) -> set[str]:
    """Every button's custom id on a message."""
    return {c["custom_id"] for row in message.get("components") or [] for c in row["components"]}


def _tray(harness: DiscordHarness, channel_id: str | None = None) -> dict[str, Any]:
    """The channel's tray message as it stands in the fake."""
    [tray] = [
        m
        for m in harness.fake.messages(channel_id)
        if m["author"]["id"] == harness.fake.bot_id
        and "New papers from your watches" in m.get("content", "")
    ]
    return tray


def _click(
    harness: DiscordHarness, action: str, number: int, *, on: str | None = None, user: str = ""
) -> tuple[str, dict[str, Any]]:
    """Click a tray button (on the tray, or on message `on`); the interaction's token and the
    answer the clicker got."""
    fake = harness.fake
    message = on or _tray(harness)["id"]
    record = fake.click(message, custom_id(action=action, value=str(number)), user=user or None)

    def answered() -> bool:
        return bool(fake.state.interactions.lookup(interaction_id=record.id).followup_ids)

    fake.wait_until(answered, timeout=WAIT)
    [answer] = fake.interaction(record.id).followup_ids
    return record.token, fake.message(answer)


def test_add_to_queue_queues_the_paper_and_edits_the_tray(harness: DiscordHarness) -> None:
    number = _posted(harness)[TITLES[0]]
    tray = _tray(harness)
    add = custom_id(action=ADD, value=str(number))
    assert add in _custom_ids(tray)

    _, answer = _click(harness, ADD, number)

    assert answer["flags"] & EPHEMERAL
    assert f"Added **{TITLES[0]}** to the queue" in answer["content"]
    redrawn = harness.fake.message(tray["id"])
    assert f"✅ Added to the queue by <@{harness.fake.alice_id}>" in redrawn["content"]
    assert add not in _custom_ids(redrawn)
    assert len(_custom_ids(redrawn)) == 2 * (len(TITLES) - 1)  # the others still wait
    assert TITLES[0] in harness.command("queue")["content"]
    assert state_of(uow=harness.database, channel=harness.key, number=number) == "promoted"


def test_not_for_us_then_a_second_click_is_told_what_became_of_it(
    harness: DiscordHarness,
) -> None:
    fake = harness.fake
    number = _posted(harness)[TITLES[1]]
    tray = _tray(harness)
    # A copy of the tray as it was, as a stale screen would still show it.
    stale = harness.platform.chat.send_notice(
        channel=harness.key,
        message=Message(
            blocks=(Buttons(buttons=(Button(label=ADD_LABEL, action=ADD, value=str(number)),)),)
        ),
    )
    assert stale is not None

    _, hidden = _click(harness, HIDE, number)
    assert f"Hidden **{TITLES[1]}**" in hidden["content"]
    # Discord's markdown would read the parentheses; they are escaped.
    assert f"🙈 Not for us \\(<@{fake.alice_id}>\\)" in fake.message(tray["id"])["content"]

    _, again = _click(harness, ADD, number, on=stale, user=fake.bob_id)
    assert again["flags"] & EPHEMERAL
    assert "🙈 Not for us" in again["content"]
    assert TITLES[1] not in harness.command("queue")["content"]
    assert state_of(uow=harness.database, channel=harness.key, number=number) == "hidden"


def test_a_button_naming_another_channels_suggestion_is_refused(harness: DiscordHarness) -> None:
    fake = harness.fake
    _posted(harness)
    other = fake.add_channel("random")
    theirs_key = ChannelKey(platform="discord", workspace=fake.guild_id, channel=other)
    # A channel that only watches keeps the default schedule: 09:00 UTC.
    now = harness.clock.now() + timedelta(hours=2)
    suggest(uow=harness.database, channel=theirs_key, titles=("Theirs",), now=now, first=50)
    chat = harness.platform.chat
    assert post_trays(uow=harness.database, chat=chat, platform="discord", now=now) == 1
    theirs = numbers(uow=harness.database, channel=theirs_key)["Theirs"]
    forged = chat.send_notice(
        channel=harness.key,
        message=Message(
            blocks=(
                line("Looks like a tray"),
                Buttons(buttons=(Button(label=ADD_LABEL, action=ADD, value=str(theirs)),)),
            )
        ),
    )
    assert forged is not None
    before = fake.message(forged)

    token, answer = _click(harness, ADD, theirs, on=forged)

    assert f"There is no suggestion \\#{theirs} here" in answer["content"]  # "#" escaped
    assert fake.message(forged)["content"] == before["content"]
    assert not fake.requests("PATCH", f"/webhooks/{fake.app_id}/{token}/messages/@original")
    assert state_of(uow=harness.database, channel=theirs_key, number=theirs) == "shown"
    assert "Theirs" not in harness.command("queue")["content"]


def test_hostile_titles_are_inert_in_the_tray_and_the_answers(harness: DiscordHarness) -> None:
    fake = harness.fake
    [number] = _posted(harness, titles=(HOSTILE,)).values()
    [sent] = [
        r.json
        for r in fake.requests("POST", "/channels/{id}/messages")
        if "New papers" in r.json.get("content", "")
    ]
    token, _ = _click(harness, ADD, number)
    hook = f"/webhooks/{fake.app_id}/{token}"
    [edit] = [r.json for r in fake.requests("PATCH", f"{hook}/messages/@original")]
    [answer] = [r.json for r in fake.requests("POST", hook)]
    for body in (sent, edit, answer):
        assert locked(payload=body), body.get("allowed_mentions")
        seen = payload_view(payload=body)
        assert pings(view=seen, people={fake.alice_id}) == [], seen.text
        assert links_to(view=seen, host="evil.example") == [], seen.links
        assert 0 < len(body["content"]) <= 2000
    assert "✅ Added to the queue" in fake.message(_tray(harness)["id"])["content"]
    assert state_of(uow=harness.database, channel=harness.key, number=number) == "promoted"


def _shown(harness: DiscordHarness, *numbers: int) -> Message:
    """A tray of these suggestion numbers, as bot/wording/suggestions shows it now."""
    with harness.database(write=False) as store:
        shown = suggestions.tray_message(store=store, channel=harness.key, ids=numbers)
    assert shown is not None
    return shown


def test_find_notice_finds_the_posted_tray_by_its_buttons(harness: DiscordHarness) -> None:
    fake, chat = harness.fake, harness.platform.chat
    numbers = _posted(harness, titles=(HOSTILE[:200], *TITLES))
    tray = _tray(harness)
    # After it: our own notice without buttons, and members' chatter.
    chat.send_notice(channel=harness.key, message=Message(blocks=(line(HOSTILE),)))
    for n in range(3):
        fake.user_says(text=f"@everyone chatter {n} 🧪")
    since = harness.clock.now() - timedelta(days=1)

    # A single number in common is enough: a decided suggestion's buttons are gone.
    one = _shown(harness, numbers[TITLES[1]])
    assert chat.find_notice(channel=harness.key, message=one, since=since) == tray["id"]
    assert (
        chat.find_notice(
            channel=harness.key, message=_shown(harness, *numbers.values()), since=since
        )
        == tray["id"]
    )
    other = Message(blocks=(Buttons(buttons=(Button(label=ADD_LABEL, action=ADD, value="999"),)),))
    assert chat.find_notice(channel=harness.key, message=other, since=since) is None


def test_find_notice_says_when_history_cannot_be_read(harness: DiscordHarness) -> None:
    numbers = _posted(harness)
    chat, since = harness.platform.chat, harness.clock.now() - timedelta(days=1)
    harness.fake.fail_next("GET", "/channels/{id}/messages", status=403, code=50001)

    with pytest.raises(ChatError):
        chat.find_notice(
            channel=harness.key, message=_shown(harness, *numbers.values()), since=since
        )

    found = chat.find_notice(
        channel=harness.key, message=_shown(harness, *numbers.values()), since=since
    )
    assert found == _tray(harness)["id"]
