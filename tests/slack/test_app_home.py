"""Issue 15's App Home over Socket Mode and HTTP: a member's and an admin's Home, the admin
buttons and the schedule form through the slash command's own services and admin check, a
forged admin click refused, and hostile titles and comments shown inert."""

from __future__ import annotations

import json
from datetime import time
from typing import Any

from bot.domain import ChannelKey, Schedule
from bot.slack import ids
from tests.fakeslack import interactive_body, message_event
from tests.fakeslack.payloads import (
    app_home_opened_event,
    home_block_actions_payload,
    view_submission_payload,
)
from tests.fakeslack.web_members import add_member
from tests.slack.conftest import ADMIN, CHANNEL, KEY, MEMBER, Harness

OTHER = "C0002"
NAMES = ("home_pause", "home_resume", "home_skip", "home_post_now", "home_schedule", "home_meeting")
HOME_ACTIONS = {ids.action_id(action=a) for a in NAMES}


def _published(harness: Harness, user: str) -> list[dict[str, Any]]:
    """Every Home published to a person, oldest first."""
    with harness.fake.ws.lock:
        return [view for who, view in harness.fake.ws.views.published if who == user]


def _wait_home(harness: Harness, user: str, before: int) -> dict[str, Any]:
    """The Home published after the first `before` ones (waits for it)."""
    ws = harness.fake.ws
    assert ws.wait_for(lambda: len(_published(harness, user)) > before, 10), "no Home published"
    return _published(harness, user)[-1]


def open_home(harness: Harness, user: str) -> dict[str, Any]:
    """Open the Home tab as the person; the Home the bot publishes."""
    before = len(_published(harness, user))
    harness.event(app_home_opened_event(user=user))
    return _wait_home(harness, user, before)


def _deliver(harness: Harness, payload: dict[str, Any]) -> dict[str, Any]:
    """Deliver an interaction as this mode does; the ack's payload (empty when none)."""
    if harness.mode == "socket":
        ack = harness.fake.wait_ack(harness.fake.push("interactive", payload))
        return dict(ack.get("payload") or {})
    status, body = harness.post(interactive_body(payload))
    assert status == 200
    return dict(json.loads(body)) if body.strip() else {}


def press(harness: Harness, action: str, *, user: str, value: str = CHANNEL) -> None:
    """Click a Home button (a forged one too: nothing stops a hand-made payload)."""
    with harness.fake.ws.lock:
        trigger = harness.fake.ws.views.issue_trigger(user)
    payload = home_block_actions_payload(
        ids.action_id(action=action), value, user_id=user, trigger_id=trigger
    )
    _deliver(harness, payload)


def press_and_wait(harness: Harness, action: str, *, user: str) -> dict[str, Any]:
    """Click a Home button; the Home published after it."""
    before = len(_published(harness, user))
    press(harness, action, user=user)
    return _wait_home(harness, user, before)


def texts(view: dict[str, Any]) -> str:
    """Every text a person reads on a view, zero-width fences taken out."""
    out: list[str] = []
    for block in view["blocks"]:
        if "text" in block:
            out.append(block["text"]["text"])
        out.extend(e["text"] for e in block.get("elements", []) if isinstance(e.get("text"), str))
        out.extend(
            e["text"]["text"] for e in block.get("elements", []) if block["type"] == "actions"
        )
    return "\n".join(out).replace("\u200b", "")


def buttons(view: dict[str, Any]) -> list[tuple[str, str]]:
    """(action_id, value) of every button on a view."""
    return [
        (e["action_id"], e["value"])
        for b in view["blocks"]
        if b["type"] == "actions"
        for e in b["elements"]
    ]


def _channel(harness: Harness, key: ChannelKey = KEY) -> Any:
    """The followed channel as stored."""
    with harness.bot.database(write=False) as store:
        return store.channel(key=key)


def queue_titles(harness: Harness) -> list[str]:
    """The channel's next titles, as `/paperclub queue` lists them (the first few words each)."""
    shown = harness.command("queue", user=MEMBER)
    return [ln.split(". ", 1)[1][:30] for ln in shown.splitlines() if ln[:1].isdigit()]


def _follow_other(harness: Harness) -> None:
    """A second followed channel the member is not in."""
    harness.fake.add_channel(OTHER, "random")
    assert "now posts here" in harness.command("schedule 10:00 Europe/Berlin", channel_id=OTHER)


def test_member_sees_their_channels_papers_and_own_activity(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, MEMBER)
    _follow_other(harness)
    ts, value = harness.daily_post()
    harness.click(ids.VOTE_UP, user=MEMBER, message_ts=ts, value=value)
    harness.event(message_event(channel=CHANNEL, user=MEMBER, text="Loved section 3", thread_ts=ts))
    harness.event(message_event(channel=CHANNEL, user=ADMIN, text="Not mine", thread_ts=ts))
    queued = queue_titles(harness)[:3]
    shown = texts(open_home(harness, MEMBER))
    assert f"<#{CHANNEL}>" in shown and f"<#{OTHER}>" not in shown  # only the member's channels
    assert "09:00 Europe/Berlin, weekdays (Mon–Fri)" in shown and "next paper tomorrow" in shown
    assert len(queued) == 3 and all(title in shown for title in queued)
    assert "Your recent votes" in shown and "👍" in shown
    assert "Loved section 3" in shown and "Not mine" not in shown
    assert not buttons(open_home(harness, MEMBER))  # no admin buttons for a member


def test_a_person_in_no_followed_channel_is_told_so(harness: Harness) -> None:
    shown = texts(open_home(harness, MEMBER))
    assert "None of the channels you are in follows the reading list yet" in shown


def test_admin_pauses_resumes_skips_and_posts_now(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, ADMIN)
    home = open_home(harness, ADMIN)
    assert {a for a, _ in buttons(home)} == HOME_ACTIONS - {ids.action_id(action="home_resume")}
    assert {v for _, v in buttons(home)} == {CHANNEL}
    paused = press_and_wait(harness, "home_pause", user=ADMIN)
    assert _channel(harness).paused and "Paused" in texts(paused)
    assert "paused" in texts(paused) and ids.action_id(action="home_resume") in dict(
        buttons(paused)
    )
    resumed = press_and_wait(harness, "home_resume", user=ADMIN)
    assert not _channel(harness).paused and "Resumed. Next paper" in texts(resumed)
    head = queue_titles(harness)[0]
    skipped = press_and_wait(harness, "home_skip", user=ADMIN)
    assert "it will not be posted" in texts(skipped) and queue_titles(harness)[0] != head
    posted = press_and_wait(harness, "home_post_now", user=ADMIN)
    assert "Posted today's paper." in texts(posted) and len(harness.posts()) == 1


def _values(*, at: str | None, zone: str | None, days: list[str]) -> dict[str, Any]:
    """The schedule form's state as Slack sends it on submission."""
    option = {"text": {"type": "plain_text", "text": zone}, "value": zone} if zone else None
    return {
        ids.SCHEDULE_TIME: {ids.SCHEDULE_TIME: {"type": "timepicker", "selected_time": at}},
        ids.SCHEDULE_ZONE: {
            ids.SCHEDULE_ZONE: {"type": "static_select", "selected_option": option}
        },
        ids.SCHEDULE_DAYS: {
            ids.SCHEDULE_DAYS: {
                "type": "checkboxes",
                "selected_options": [
                    {"text": {"type": "plain_text", "text": d}, "value": d} for d in days
                ],
            }
        },
    }


def _open_form(harness: Harness, user: str) -> dict[str, Any]:
    """Press "Set the schedule…"; the modal the bot opened."""
    ws = harness.fake.ws
    press(harness, "home_schedule", user=user)
    assert ws.wait_for(lambda: bool(ws.views.opened), 10), "no modal opened"
    with ws.lock:
        who, view = ws.views.opened[-1]
    assert who == user
    return view


def test_admin_sets_the_schedule_in_the_modal(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, ADMIN)
    view = _open_form(harness, ADMIN)
    assert view["callback_id"] == ids.SCHEDULE_VIEW and view["private_metadata"] == CHANNEL
    inputs = {b["block_id"]: b["element"] for b in view["blocks"] if b["type"] == "input"}
    assert inputs[ids.SCHEDULE_TIME]["initial_time"] == "09:00"
    assert inputs[ids.SCHEDULE_ZONE]["initial_option"]["value"] == "Europe/Berlin"
    assert [o["value"] for o in inputs[ids.SCHEDULE_DAYS]["initial_options"]] == [
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
    ]
    groups = inputs[ids.SCHEDULE_ZONE]["option_groups"]
    assert all(len(g["options"]) <= 100 for g in groups)
    assert "America/New_York" in {o["value"] for g in groups for o in g["options"]}
    wrong = _values(at=None, zone="Mars/Olympus", days=[])
    bad = view_submission_payload(view=view, user_id=ADMIN, values=wrong)
    answer = _deliver(harness, bad)
    assert answer["response_action"] == "errors"
    assert set(answer["errors"]) == {ids.SCHEDULE_TIME, ids.SCHEDULE_ZONE, ids.SCHEDULE_DAYS}
    odd = _values(at="25:00", zone="Europe/Berlin", days=["mon", "someday"])
    answer = _deliver(harness, view_submission_payload(view=view, user_id=ADMIN, values=odd))
    assert set(answer["errors"]) == {ids.SCHEDULE_TIME, ids.SCHEDULE_DAYS}
    assert answer["errors"][ids.SCHEDULE_DAYS] == "Tick at least one day."
    assert _channel(harness).schedule.post_time == time(9, 0)  # nothing changed
    before = len(_published(harness, ADMIN))
    good = view_submission_payload(
        view=view,
        user_id=ADMIN,
        values=_values(at="10:30", zone="America/New_York", days=["mon", "wed"]),
    )
    assert "response_action" not in _deliver(harness, good)  # valid: the modal closes
    home = _wait_home(harness, ADMIN, before)
    assert _channel(harness).schedule == Schedule(
        post_time=time(10, 30), timezone="America/New_York", weekdays=frozenset({1, 3})
    )
    shown = texts(home)
    assert "Schedule changed: Paper Club posts at 10:30 America/New" in shown
    assert "<#C0001> · 10:30 America/New" in shown and "York, Mon, Wed · next paper" in shown


def test_a_member_forging_admin_clicks_changes_nothing(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, MEMBER)
    queued = queue_titles(harness)
    for action in ("home_pause", "home_skip", "home_post_now"):
        home = press_and_wait(harness, action, user=MEMBER)
        assert "Only Paper Club admins can use" in texts(home) and not buttons(home)
    schedule_refused = press_and_wait(harness, "home_schedule", user=MEMBER)
    assert "Only Paper Club admins can change the schedule" in texts(schedule_refused)
    assert not harness.fake.ws.views.opened  # no form for a member
    forged_view = {
        "id": "V0FORGED",
        "type": "modal",
        "callback_id": ids.SCHEDULE_VIEW,
        "private_metadata": CHANNEL,
        "blocks": [],
    }
    forged = view_submission_payload(
        view=forged_view, user_id=MEMBER, values=_values(at="03:00", zone="UTC", days=["sun"])
    )
    answer = _deliver(harness, forged)
    assert answer["response_action"] == "errors"
    channel = _channel(harness)
    assert not channel.paused and channel.schedule.post_time == time(9, 0)
    assert not harness.posts()
    assert queue_titles(harness) == queued


HOSTILE = "<!channel> <@U0ADMIN> *bold* _it_ ~s~ `c` <https://evil.test|click me> &amp; :tada: 🎉"


def test_hostile_titles_and_comments_are_inert_and_within_limits(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, ADMIN)
    followed = _channel(harness)
    typed = HOSTILE.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert "Added" in harness.command("add " + typed + " " + "x" * 10_000)
    ts, value = harness.daily_post()
    harness.click(ids.VOTE_DOWN, user=ADMIN, message_ts=ts, value=value)
    said = "&lt;!here&gt; &lt;@U0001&gt; " + typed + " " + "y" * 10_000
    harness.event(message_event(channel=CHANNEL, user=ADMIN, text=said, thread_ts=ts))
    with harness.bot.database() as store:
        for n in range(3, 30):  # many more channels than a Home has room for
            key = ChannelKey(platform="slack", workspace="T0001", channel=f"C{n:04d}")
            store.save_channel(key=key, schedule=followed.schedule, private=False)
    for n in range(3, 30):
        harness.fake.add_channel(f"C{n:04d}", f"c{n}")
        add_member(harness.fake.ws, f"C{n:04d}", ADMIN)
    home = open_home(harness, ADMIN)  # the fake refuses any view past Slack's limits
    assert len(home["blocks"]) <= 100
    for block in home["blocks"]:
        if block["type"] == "section":
            assert len(block["text"]["text"]) <= 3000 and block["text"].get("verbatim")
        for element in block.get("elements", []):
            if block["type"] == "actions":
                assert len(element["text"]["text"]) <= 75
                assert len(element["action_id"]) <= 255 and len(element["value"]) <= 255
    shown = texts(home)
    for live in ("<!channel>", "<!here>", "<@U0", "<https://evil", "*bold*"):
        assert live not in shown
    assert "&lt;!channel&gt;" in shown and "&lt;!here&gt;" in shown
    assert "more channels" in shown


def test_slack_failures_leave_a_readable_home(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, MEMBER)
    harness.fake.fail_next("users.conversations", error="internal_error")
    shown = texts(open_home(harness, MEMBER))
    assert "I could not find out which channels you are in just now" in shown
    harness.fake.fail_next("views.publish", error="internal_error")
    harness.event(app_home_opened_event(user=MEMBER))  # refused: logged, nothing raised
    assert harness.fake.ws.wait_for(lambda: len(harness.fake.requests("views.publish")) >= 2, 10)
    assert f"<#{CHANNEL}>" in texts(open_home(harness, MEMBER))  # the next open works
