"""After a session (issue 33): the message asking how it was goes once when the session ends
(with the paper its poll chose), not for a cancelled session nor after two days down; its
buttons count one answer a question a member, changeable, redrawn in place, and refuse another
channel's session; `/paperclub sessions rate` does the same typed, and `sessions notes` adds
links (http and https only, nothing a chat's markup reads) that the message shows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.db.database import Database
from bot.messages import Link, Message, as_plain
from bot.services.clicks import Clicks
from bot.services.embedding import NO_SEMANTIC
from bot.services.session_memory_commands import read_link
from tests.services.conftest import follow, key, load_sample
from tests.services.meetings_support import C1, Clock, buttons, said, sweep
from tests.services.memory_chat import MemoryChat

# Thursdays 16:00-17:00 UTC: the poll of 5 March opens Monday 16:00 and closes Wednesday 16:00.
OPENS = datetime(2026, 3, 2, 16, 0, tzinfo=UTC)
CLOSES = datetime(2026, 3, 4, 16, 0, tzinfo=UTC)
ENDS = datetime(2026, 3, 5, 17, 0, tzinfo=UTC)
WHEN = "Thu 05 Mar 2026, 16:00–17:00 UTC"
HOSTILE = "<!channel> @everyone *bold* <@U999> " + "🧪" * 3000
SHOWN = "<!channel> @everyone *bold* <@U999>"  # the title a reference typed so is given
NO_RATINGS = "👍 Worth it 0 · 👎 Not really 0 · 💬 Good discussion 0 · 🤐 Quiet 0"


def links(message: Message) -> list[Link]:
    """A message's links."""
    return [
        run
        for block in message.blocks
        for run in getattr(block, "runs", ())
        if isinstance(run, Link)
    ]


def _meeting(database: Database, chat: MemoryChat) -> None:
    """A followed channel with a Thursday meeting and no reminders."""
    follow(database)
    said(database, chat, "meeting set thu 16:00 UTC")
    said(database, chat, "meeting reminders off")


def _chosen(database: Database, chat: MemoryChat) -> None:
    """A poll chooses the hostile nomination for 5 March."""
    load_sample(database)
    said(database, chat, "meeting poll approval size 1")
    said(database, chat, f"nominate {HOSTILE}", user="U1")
    sweep(database, chat, now=OPENS)
    said(database, chat, "poll 1", user="U1", now=OPENS + timedelta(hours=1))
    sweep(database, chat, now=CLOSES)
    assert "The group chose" in chat.notices["C1"][-1]


def test_the_question_goes_once_when_the_session_ends_and_names_the_chosen_paper(
    database: Database, chat: MemoryChat
) -> None:
    _meeting(database, chat)
    _chosen(database, chat)
    before = len(chat.messages["C1"])
    assert sweep(database, chat, now=ENDS - timedelta(minutes=1)) == 0
    assert sweep(database, chat, now=ENDS) == 1
    assert sweep(database, chat, now=ENDS + timedelta(minutes=1)) == 0
    assert sweep(database, chat, now=ENDS + timedelta(days=1)) == 0
    (asked,) = chat.messages["C1"][before:]
    text = as_plain(message=asked)
    assert f"How was the session on {WHEN} (“{SHOWN}" in text, text  # cut at its clause
    assert NO_RATINGS in text and "/paperclub sessions notes <link>" in text
    shown = buttons(asked)
    assert [label for label, _, _ in shown] == [
        "👍 Worth it",
        "👎 Not really",
        "💬 Good discussion",
        "🤐 Quiet",
    ]
    assert len({value for _, _, value in shown}) == 1 and shown[0][2].isdigit()


def test_clicks_count_one_answer_a_question_changeable_and_refuse_other_channels(
    database: Database, chat: MemoryChat
) -> None:
    _meeting(database, chat)
    sweep(database, chat, now=ENDS)
    (asked,) = chat.messages["C1"]
    value = buttons(asked)[0][2]
    clicks = Clicks(
        uow=database, clock=Clock(ENDS + timedelta(hours=1)), semantic_extra=NO_SEMANTIC
    )
    first = clicks.rate(channel=C1, user="U1", action="rate_worth", value=value)
    assert f"You said worth it: {WHEN}." in as_plain(message=first.reply.message)
    assert first.redrawn is not None
    assert "👍 Worth it 1 · 👎 Not really 0 · 💬 Good discussion 0" in as_plain(
        message=first.redrawn
    )
    assert first.posted == chat.notice_ids(channel="C1")[0]
    again = clicks.rate(channel=C1, user="U1", action="rate_worth", value=value)
    assert "You had said worth it" in as_plain(message=again.reply.message)
    changed = clicks.rate(channel=C1, user="U1", action="rate_not", value=value)
    talk = clicks.rate(channel=C1, user="U1", action="rate_lively", value=value)
    assert changed.redrawn is not None and talk.redrawn is not None
    # The other question's answer is kept: one member, "not really" and "good discussion".
    assert "👍 Worth it 0 · 👎 Not really 1 · 💬 Good discussion 1 · 🤐 Quiet 0" in as_plain(
        message=talk.redrawn
    )
    clicks.rate(channel=C1, user="U2", action="rate_quiet", value=value)
    # Another workspace's channel, a session that is not, a forged value or action: nothing.
    other = key("C1", workspace="T2")
    for channel, action, forged in (
        (other, "rate_worth", value),
        (C1, "rate_worth", "999"),
        (C1, "rate_worth", "1; DROP TABLE sessions"),
        (C1, "rate_everything", value),
        (C1, "rate_worth", "9" * 40),
    ):
        refused = clicks.rate(channel=channel, user="U3", action=action, value=forged)
        assert refused.redrawn is None and "not one to rate here" in as_plain(
            message=refused.reply.message
        )
    # Typed as the console does: the last session held, one answer changed.
    later = ENDS + timedelta(hours=2)
    assert f"You said worth it: {WHEN}" in said(
        database, chat, "sessions rate worth", user="U2", now=later
    )
    assert "Usage" in said(database, chat, "sessions rate loudly", user="U2", now=later)
    assert "Usage" in said(database, chat, "sessions rate worth tomorrow", user="U2", now=later)
    redrawn = clicks.rate(channel=C1, user="U3", action="rate_lively", value=value).redrawn
    assert redrawn is not None
    assert "👍 Worth it 1 · 👎 Not really 1 · 💬 Good discussion 2 · 🤐 Quiet 1" in as_plain(
        message=redrawn
    )


def test_a_session_not_ended_cancelled_or_long_past_is_not_asked_about(
    database: Database, chat: MemoryChat
) -> None:
    _meeting(database, chat)
    said(database, chat, "meeting skip 2026-03-12")
    soon = ENDS - timedelta(minutes=1)  # not over yet
    assert "no past session" in said(database, chat, "sessions rate worth", now=soon)
    # Down from before the session ended until two days after: no question, late.
    assert sweep(database, chat, now=ENDS + timedelta(days=2)) == 0
    assert "C1" not in chat.messages
    # 12 March is skipped; 19 March is asked about.
    assert sweep(database, chat, now=ENDS + timedelta(days=7)) == 0
    assert sweep(database, chat, now=ENDS + timedelta(days=14)) == 1
    # The past session can still be rated by command, and a date names which.
    at = ENDS + timedelta(days=14, hours=1)
    assert "Thu 05 Mar" in said(database, chat, "sessions rate quiet 2026-03-05", now=at)
    assert "no past session" in said(database, chat, "sessions rate quiet 2026-03-12", now=at)


def test_a_refused_question_is_sent_again_within_the_window(
    database: Database, chat: MemoryChat
) -> None:
    _meeting(database, chat)
    chat.fail_notices(code="not_in_channel", posted_nothing=True)
    assert sweep(database, chat, now=ENDS) == 0
    assert sweep(database, chat, now=ENDS + timedelta(minutes=31)) == 1
    assert len(chat.messages["C1"]) == 1


def test_notes_links_are_checked_added_once_and_shown_on_the_question(
    database: Database, chat: MemoryChat
) -> None:
    _meeting(database, chat)
    assert "no past session" in said(database, chat, "sessions notes https://example.org/n")
    at = ENDS - timedelta(minutes=30)  # during the session: not over, nothing to add to
    assert "no past session" in said(database, chat, "sessions notes https://example.org/n", now=at)
    at = ENDS + timedelta(minutes=5)
    notes = "https://example.org/club/notes.pdf?v=2#p3"
    assert "Added example.org/club/notes.pdf" in said(
        database, chat, f"sessions notes {notes}", user="U1", now=at
    )
    assert "already" in said(database, chat, f"sessions notes {notes}", user="U2", now=at)
    slides = "http://slides.example/deck"
    assert "Added" in said(database, chat, f"sessions notes {slides} 2026-03-05", now=at)
    assert "No notes" not in said(database, chat, "sessions notes", now=at)
    sweep(database, chat, now=at)
    (asked,) = chat.messages["C1"]
    assert [(link.url, link.label) for link in links(asked)] == [
        (notes, "example.org/club/notes.pdf"),
        (slides, "slides.example/deck"),
    ]
    assert "🔗 Notes and slides: example.org/club/notes.pdf · slides.example/deck" in as_plain(
        message=asked
    )
    for hostile in (
        "javascript:alert(1)",
        "ftp://example.org/notes",
        "https://good.example@evil.example/",
        "https://example.org/<!channel>",
        "https://example.org/a|b",
        "https://example.org/\u202enotes",
        "https://",
        "example.org/notes",
        "https://example.org:port/",
        "https://example.org/" + "a" * 2000,
    ):
        assert "Usage" in said(database, chat, f"sessions notes {hostile}", now=at), hostile
    assert "Usage" in said(database, chat, "sessions notes https://example.org/a b", now=at)


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("https://example.org/x", True),
        ("HTTP://Example.org", True),
        ("https://[::1]:8080/notes", True),
        ("https://[::1/notes", False),
        ("mailto:someone@example.org", False),
        ('https://example.org/"onmouseover', False),
        ("https://user:pw@example.org/", False),
    ],
)
def test_read_link(typed: str, kept: bool) -> None:
    assert (read_link(word=typed) is not None) is kept


def test_a_session_keeps_at_most_ten_links(database: Database, chat: MemoryChat) -> None:
    """The message after a session lists its links: an eleventh is refused, clearly."""
    _meeting(database, chat)
    at = ENDS + timedelta(minutes=5)
    for n in range(10):
        said_now = said(database, chat, f"sessions notes https://example.org/s/{n}", now=at)
        assert "Added" in said_now
    refused = said(database, chat, "sessions notes https://example.org/s/10", now=at)
    assert "ten links already" in refused
