"""The weekly recap: off by default, once per week at the chosen local time, ranked."""

from __future__ import annotations

from datetime import timedelta

from bot.services import recap
from bot.slack import ids
from tests.slack.conftest import CHANNEL, MEMBER, MONDAY_9, Harness, shown_mrkdwn

FRIDAY_16 = MONDAY_9 + timedelta(days=4, hours=7)  # Fri 9 Jan 2026, 16:00 Berlin


def _notices(harness: Harness) -> list[str]:
    return [shown_mrkdwn(m) for m in harness.fake.messages(CHANNEL) if not m.get("metadata")]


def test_weekly_recap(harness: Harness) -> None:
    assert recap.send_due_recaps(poster=harness.bot.poster, now=FRIDAY_16) == 0  # off by default
    for day in range(5):
        harness.clock.at = MONDAY_9 + timedelta(days=day)
        harness.sweep()
    posts = harness.posts()
    value = next(b for b in posts[2]["blocks"] if b["type"] == "actions")["elements"][0]["value"]
    harness.click(ids.VOTE_UP, user=MEMBER, message_ts=str(posts[2]["ts"]), value=value)
    assert "Only Paper Club admins" in harness.command("recap fri 16:00", user=MEMBER)
    assert "couldn't read" in harness.command("recap someday 16:00")
    reply = harness.command("recap weekly fri 16:00")
    assert "every Fri at 16:00 Europe/Berlin" in reply
    poster = harness.bot.poster
    assert recap.send_due_recaps(poster=poster, now=FRIDAY_16 - timedelta(minutes=1)) == 0
    assert recap.send_due_recaps(poster=poster, now=FRIDAY_16) == 1
    assert recap.send_due_recaps(poster=poster, now=FRIDAY_16 + timedelta(hours=1)) == 0
    [text] = _notices(harness)
    assert text.startswith("*This week in Paper Club*")
    lines = text.splitlines()[1:]
    assert len(lines) == 5 and "👍 1 · 👎 0" in lines[0]
    assert "off" in harness.command("recap off")
    next_friday = FRIDAY_16 + timedelta(days=7)
    assert recap.send_due_recaps(poster=poster, now=next_friday) == 0
