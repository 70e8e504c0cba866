"""Issue 32's suggestions tray on Slack, over Socket Mode and HTTP: posted by the sweep, Add to
queue and Not for us clicked (the tray redrawn in place for everyone, the clicker answered
alone), a second click told what became of it, a value naming another channel's suggestion
refused, hostile titles inert, and the tray on the App Home."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from bot.config.settings import Settings
from bot.domain import ChannelKey
from bot.slack import ids
from bot.wording.suggestions import ADD, HIDE
from tests.fakeslack import FakeSlack, block_actions_payload, interactive_body
from tests.fakeslack.web_members import add_member
from tests.slack.conftest import CHANNEL, KEY, MEMBER, Harness, _running, shown_mrkdwn
from tests.slack.test_app_home import buttons, open_home, press, texts
from tests.slack.tray_support import (
    HOSTILE,
    load_short,
    numbers,
    post_trays,
    state_of,
    suggest,
)

OTHER = "C0002"
OTHER_KEY = ChannelKey(platform="slack", workspace="T0001", channel=OTHER)
TITLES = ("Sparse attention at scale", "Tiny recurrent nets", "Better optimisers")


@pytest.fixture(params=["socket", "http"])
def harness(
    request: pytest.FixtureRequest, fake: FakeSlack, settings: Settings, sqlite_url: str
) -> Iterator[Harness]:
    """The bot in Socket Mode or HTTP mode, with a queue short enough to show its end."""
    yield from _running(
        mode=request.param, fake=fake, settings=settings, url=sqlite_url, load=load_short
    )


def _tray(harness: Harness, channel: str = CHANNEL) -> dict[str, Any]:
    """The channel's tray message, as it stands in the fake."""
    add = ids.action_id(action=ADD)
    [tray] = [
        m
        for m in harness.fake.messages(channel)
        if any(
            e.get("action_id") == add
            for b in m.get("blocks") or []
            if b["type"] == "actions"
            for e in b["elements"]
        )
        or "New papers from your watches" in shown_mrkdwn(m)
    ]
    return tray


def _posted(harness: Harness, titles: tuple[str, ...] = TITLES) -> dict[str, int]:
    """Suggestions found for #general and its tray posted; title -> number."""
    uow, now = harness.bot.database, harness.clock.now()
    suggest(uow=uow, channel=KEY, titles=titles, now=now)
    assert post_trays(uow=uow, chat=harness.bot.chat, platform="slack", now=now) == 1
    return numbers(uow=uow, channel=KEY)


def _click(
    harness: Harness,
    action: str,
    number: int | str,
    *,
    user: str = MEMBER,
    ts: str | None = None,
) -> dict[str, Any]:
    """Click a tray button in #general as this mode delivers it; the answer to the clicker."""
    url = harness.fake.new_response_url()
    payload = block_actions_payload(
        ids.action_id(action=action),
        str(number),
        user_id=user,
        channel_id=CHANNEL,
        message_ts=ts or str(_tray(harness)["ts"]),
        response_url=url,
    )
    if harness.mode == "socket":
        harness.fake.wait_ack(harness.fake.push("interactive", payload))
    else:
        assert harness.post(interactive_body(payload))[0] == 200
    return harness.fake.wait_response(url, timeout=10)


def _values(message: dict[str, Any]) -> set[str]:
    """The values of a message's buttons."""
    return {
        e["value"]
        for b in message.get("blocks") or []
        if b["type"] == "actions"
        for e in b["elements"]
    }


def test_add_to_queue_queues_the_paper_and_redraws_the_tray(harness: Harness) -> None:
    number = _posted(harness)[TITLES[0]]
    tray = _tray(harness)
    assert str(number) in _values(tray)
    assert "Added" not in shown_mrkdwn(tray)

    answer = _click(harness, ADD, number)

    assert answer["response_type"] == "ephemeral"
    assert answer["replace_original"] is False
    assert f"Added *{TITLES[0]}* to the queue" in shown_mrkdwn(answer)
    redrawn = _tray(harness)
    assert redrawn["ts"] == tray["ts"]  # in place, not a new message
    assert "✅ Added to the queue by bo" in shown_mrkdwn(redrawn)
    assert str(number) not in _values(redrawn)  # its buttons gave way to its fate
    assert len(_values(redrawn)) == len(TITLES) - 1  # the others still wait
    assert TITLES[0] in harness.command("queue")
    assert state_of(uow=harness.bot.database, channel=KEY, number=number) == "promoted"


def test_not_for_us_then_a_second_click_is_told_what_became_of_it(harness: Harness) -> None:
    number = _posted(harness)[TITLES[1]]
    ts = str(_tray(harness)["ts"])

    hidden = _click(harness, HIDE, number, ts=ts)
    assert f"Hidden *{TITLES[1]}*" in shown_mrkdwn(hidden)
    assert "🙈 Not for us (bo)" in shown_mrkdwn(_tray(harness))
    updates = len(harness.fake.calls("chat.update"))

    # A second click (a stale copy of the tray, or someone faster) changes nothing.
    again = _click(harness, ADD, number, user="U0ADMIN", ts=ts)
    assert "🙈 Not for us (bo)" in shown_mrkdwn(again)
    assert TITLES[1] not in harness.command("queue")
    assert state_of(uow=harness.bot.database, channel=KEY, number=number) == "hidden"
    assert len(harness.fake.calls("chat.update")) == updates + 1  # redrawn as it stands


def test_a_value_naming_another_channels_suggestion_is_refused(harness: Harness) -> None:
    _posted(harness)
    harness.fake.add_channel(OTHER, "random")
    # A channel that only watches keeps the default schedule: 09:00 UTC.
    uow, now = harness.bot.database, harness.clock.now() + timedelta(hours=2)
    suggest(uow=uow, channel=OTHER_KEY, titles=("Theirs, not ours",), now=now, first=50)
    assert post_trays(uow=uow, chat=harness.bot.chat, platform="slack", now=now) == 1
    theirs = numbers(uow=uow, channel=OTHER_KEY)["Theirs, not ours"]
    ours = _tray(harness)

    answer = _click(harness, ADD, theirs)  # in #general, with #random's number

    assert f"There is no suggestion #{theirs} here" in shown_mrkdwn(answer)
    assert state_of(uow=uow, channel=OTHER_KEY, number=theirs) == "shown"
    assert _tray(harness) == ours  # nothing redrawn
    assert str(theirs) in _values(_tray(harness, OTHER))
    assert "Theirs, not ours" not in harness.command("queue")
    for forged in ("12abc", "-1", "9" * 40, "<!channel>"):
        assert "There is no suggestion" in shown_mrkdwn(_click(harness, HIDE, forged))


def test_hostile_titles_are_inert_in_the_tray_and_the_answers(harness: Harness) -> None:
    [number] = _posted(harness, titles=(HOSTILE,)).values()
    tray = _tray(harness)
    text = shown_mrkdwn(tray)
    assert "<!channel>" not in text and "<@U0ADMIN>" not in text and "<#C0001>" not in text
    assert "&lt;!channel&gt;" in text
    assert len(tray["blocks"]) <= 50

    answer = _click(harness, ADD, number)
    said = shown_mrkdwn(answer) + str(answer.get("text"))
    assert "<!channel>" not in said and "<@U0ADMIN>" not in said
    assert "✅ Added to the queue by bo" in shown_mrkdwn(_tray(harness))
    assert state_of(uow=harness.bot.database, channel=KEY, number=number) == "promoted"


def test_the_app_home_shows_todays_tray_and_decides_in_its_channel(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, MEMBER)
    number = _posted(harness)[TITLES[2]]
    home = open_home(harness, MEMBER)
    assert "Suggestions" in texts(home) and TITLES[2] in texts(home)
    value = f"{CHANNEL}:{number}"
    assert (ids.action_id(action="home_suggestion_add"), value) in buttons(home)

    before = len(harness.fake.ws.views.published)
    press(harness, "home_suggestion_add", user=MEMBER, value=value)
    assert harness.fake.ws.wait_for(lambda: len(harness.fake.ws.views.published) > before, 10)
    republished = harness.fake.ws.views.published[-1][1]

    assert f"Added {TITLES[2]} to the queue" in texts(republished).replace("*", "")
    assert (ids.action_id(action="home_suggestion_add"), value) not in buttons(republished)
    assert "✅ Added to the queue by bo" in shown_mrkdwn(_tray(harness))  # the channel's too
    assert TITLES[2] in harness.command("queue")


def test_a_home_click_for_a_channel_the_person_is_not_in_decides_nothing(
    harness: Harness,
) -> None:
    number = _posted(harness)[TITLES[0]]  # MEMBER is not in #general here
    before = len(harness.fake.ws.views.published)
    press(harness, "home_suggestion_hide", user=MEMBER, value=f"{CHANNEL}:{number}")
    assert harness.fake.ws.wait_for(lambda: len(harness.fake.ws.views.published) > before, 10)
    assert state_of(uow=harness.bot.database, channel=KEY, number=number) == "shown"
    assert "🙈" not in shown_mrkdwn(_tray(harness))
