"""The poll that chooses a session's paper (issue 33): opened at its lead time with the
queue's first papers and the nominations, voted on by button and command, approval and ranked,
hidden until it closes, closed once with the winner announced once; the losers keep their
votes for the next poll."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.db.database import Database
from bot.messages import as_plain
from bot.services.clicks import Clicks
from bot.services.embedding import NO_SEMANTIC
from tests.services.conftest import follow, key, load_sample
from tests.services.meetings_support import C1, Clock, buttons, said, sweep
from tests.services.memory_chat import MemoryChat

# Thursdays 16:00 UTC: the poll of 5 March opens Monday 16:00 and closes Wednesday 16:00.
OPENS = datetime(2026, 3, 2, 16, 0, tzinfo=UTC)
CLOSES = datetime(2026, 3, 4, 16, 0, tzinfo=UTC)
HOSTILE = "<!channel> @everyone *bold* <@U999> " + "🧪" * 3000
# What a poll shows of it: a title typed as a reference is cut at its first clause.
SHOWN = "<!channel> @everyone *bold* <@U999>"


def _set_up(database: Database, chat: MemoryChat, *, poll: str) -> None:
    """A followed channel with the sample queue, a Thursday meeting, polls as told."""
    follow(database)
    load_sample(database)
    said(database, chat, "meeting set thu 16:00 UTC")
    said(database, chat, "meeting reminders off")
    said(database, chat, f"meeting poll {poll}")


def test_an_approval_poll_opens_once_takes_votes_closes_once_and_the_losers_carry_over(
    database: Database, chat: MemoryChat
) -> None:
    _set_up(database, chat, poll="approval size 2")
    assert "is put forward for the next poll" in said(
        database, chat, f"nominate {HOSTILE}", user="U1"
    )
    assert "No poll is open" in said(database, chat, "poll", user="U1")
    assert sweep(database, chat, now=OPENS - timedelta(minutes=1)) == 0
    assert sweep(database, chat, now=OPENS) == 1
    assert sweep(database, chat, now=OPENS + timedelta(minutes=1)) == 0
    (poll,) = chat.messages["C1"]
    text = as_plain(message=poll)
    assert "Choose the paper for Thu 05 Mar 2026, 16:00–17:00 UTC" in text
    assert SHOWN in text  # shown as plain text: each renderer escapes it
    papers = [b for b in buttons(poll) if b[1] == "poll_vote"]
    assert [label for label, _, _ in papers] == ["1", "2", "3"]  # U1's, then the queue's two
    clicks = Clicks(
        uow=database, clock=Clock(OPENS + timedelta(hours=1)), semantic_extra=NO_SEMANTIC
    )
    first = clicks.vote(channel=C1, user="U1", action="poll_vote", value=papers[0][2])
    assert "Your vote: 1." in as_plain(message=first.reply.message)
    assert first.redrawn is not None and "1 member voted so far" in as_plain(message=first.redrawn)
    assert first.posted == chat.notice_ids(channel="C1")[0]
    clicks.vote(channel=C1, user="U2", action="poll_vote", value=papers[0][2])
    clicks.vote(channel=C1, user="U2", action="poll_vote", value=papers[1][2])
    assert "Your vote: 1, 2." in said(
        database, chat, "poll 1 2", user="U3", now=OPENS + timedelta(hours=2)
    )
    assert "Usage" in said(database, chat, "poll 7", user="U3", now=OPENS + timedelta(hours=2))
    # Another workspace's channel, a forged value: nothing.
    other = clicks.vote(
        channel=key("C1", workspace="T2"), user="U4", action="poll_vote", value=papers[0][2]
    )
    assert other.redrawn is None and "not one of this channel's" in as_plain(
        message=other.reply.message
    )
    assert sweep(database, chat, now=CLOSES) == 1
    assert sweep(database, chat, now=CLOSES + timedelta(minutes=5)) == 0
    result = as_plain(message=chat.messages["C1"][1])
    assert "The group chose" in result and SHOWN in result and "(3 votes)" in result
    late = clicks.vote(channel=C1, user="U5", action="poll_vote", value=papers[0][2])
    assert late.redrawn is None  # closed: no vote changes it
    # The next week's poll: the winner is done; paper 1 keeps U2's and U3's votes.
    assert sweep(database, chat, now=OPENS + timedelta(days=7)) == 1
    nxt = chat.messages["C1"][2]
    assert SHOWN not in as_plain(message=nxt)
    (_, counts) = as_plain(message=nxt).split("\n", 1)
    assert "— 2 votes" in counts


def test_a_ranked_hidden_poll_shows_no_counts_until_it_closes_then_runs_off(
    database: Database, chat: MemoryChat
) -> None:
    _set_up(database, chat, poll="ranked hidden size 3")
    sweep(database, chat, now=OPENS)
    (poll,) = chat.messages["C1"]
    assert "the counts show when it closes" in as_plain(
        message=poll
    ) and "— 0 votes" not in as_plain(message=poll)
    at = OPENS + timedelta(hours=1)
    said(database, chat, "poll 1 2", user="U1", now=at)
    said(database, chat, "poll 2 1", user="U2", now=at)
    said(database, chat, "poll 3 2", user="U3", now=at)
    clicks = Clicks(uow=database, clock=Clock(at), semantic_extra=NO_SEMANTIC)
    early = clicks.vote(
        channel=C1,
        user="U1",
        action="poll_results",
        value=f"{poll.blocks and buttons(poll)[0][2].split('.')[0]}.result",
    )
    assert early.redrawn is None and "not one of this channel's" in as_plain(
        message=early.reply.message
    )
    sweep(database, chat, now=CLOSES)
    result = chat.messages["C1"][1]
    # Round 1: 1, 1, 1 (paper 3 eliminated last by the tie rule: nominated last); U3's vote
    # passes to 2, which wins with 2 of 3.
    (see,) = [b for b in buttons(result) if b[1] == "poll_results"]
    votes = clicks.vote(channel=C1, user="U1", action="poll_results", value=see[2])
    assert "Your vote: 1, 2." in as_plain(message=votes.reply.message)
    assert "(2 votes)" in as_plain(message=result)


def test_nobody_voting_chooses_nothing_and_says_so_once(
    database: Database, chat: MemoryChat
) -> None:
    _set_up(database, chat, poll="approval")
    sweep(database, chat, now=OPENS)
    assert sweep(database, chat, now=CLOSES) == 1
    assert "Nobody voted" in chat.notices["C1"][1]
    assert sweep(database, chat, now=CLOSES + timedelta(hours=1)) == 0


def test_poll_settings_are_checked(database: Database, chat: MemoryChat) -> None:
    _set_up(database, chat, poll="approval")
    assert "at least two hours" in said(database, chat, "meeting poll approval opens 1d closes 2d")
    assert "at least two hours" in said(
        database, chat, "meeting poll approval opens 1d closes 23h30m"
    )
    assert "not understood" in said(database, chat, "meeting poll approval loudly")
    assert "say approval or ranked" in said(database, chat, "meeting poll sometimes")
    assert "Only admins" in said(database, chat, "meeting poll off", user="U1")
    assert "have no poll" in said(database, chat, "meeting poll off")


def test_a_paper_is_chosen_once_and_a_cancelled_sessions_poll_closes_unsaid(
    database: Database, chat: MemoryChat
) -> None:
    _set_up(database, chat, poll="approval size 0")
    said(database, chat, "nominate Attention Is All You Need", user="U1")
    said(database, chat, "meeting once 2026-03-06 16:00")  # a Friday: two polls overlap
    sweep(database, chat, now=OPENS + timedelta(days=1))  # both open (Thu's and Fri's)
    assert sum("Choose the paper" in n for n in chat.notices["C1"]) == 2
    said(database, chat, "poll 1", user="U1", now=OPENS + timedelta(days=1, hours=1))
    sweep(database, chat, now=CLOSES)  # Thursday's closes: the paper is chosen for it
    sweep(database, chat, now=CLOSES + timedelta(days=1))  # Friday's: it stands no more
    results = [n for n in chat.notices["C1"] if "chose" in n or "Nobody voted" in n]
    assert len(results) == 2 and "The group chose" in results[0]
    assert "Nobody voted" in results[1]
    # A poll open when its session is cancelled closes without a word.
    said(database, chat, "nominate Deep Residual Learning", user="U1")
    sweep(database, chat, now=OPENS + timedelta(days=7))
    said(database, chat, "meeting skip 2026-03-12", now=OPENS + timedelta(days=7, hours=1))
    before = len(chat.notices["C1"])
    sweep(database, chat, now=CLOSES + timedelta(days=7))
    assert len(chat.notices["C1"]) == before
    shown = said(database, chat, "poll", user="U1", now=CLOSES + timedelta(7))
    assert "Deep Residual" not in shown  # the cancelled session's poll is nobody's result


def test_polls_turned_off_close_the_open_one_unsaid(database: Database, chat: MemoryChat) -> None:
    _set_up(database, chat, poll="approval")
    sweep(database, chat, now=OPENS)
    said(database, chat, "meeting poll off", now=OPENS + timedelta(hours=1))
    sweep(database, chat, now=OPENS + timedelta(hours=2))
    sweep(database, chat, now=CLOSES)
    assert [n for n in chat.notices["C1"] if "chose" in n or "Nobody voted" in n] == []
    assert "have no poll" in said(database, chat, "poll", user="U1", now=CLOSES)


def test_a_chosen_paper_leaves_the_slate_and_a_cancelled_sessions_choice_comes_back(
    database: Database, chat: MemoryChat
) -> None:
    # A channel whose daily post is paused: the queue keeps the papers polls choose.
    _set_up(database, chat, poll="approval size 2")
    said(database, chat, "pause")
    for week in range(3):
        opens, closes = OPENS + timedelta(weeks=week), CLOSES + timedelta(weeks=week)
        sweep(database, chat, now=opens)
        said(database, chat, "poll 1", user="U1", now=opens + timedelta(hours=1))
        sweep(database, chat, now=closes)
    polls = [m for m in chat.messages["C1"] if "Choose the paper" in as_plain(message=m)]
    assert [len([b for b in buttons(m) if b[1] == "poll_vote"]) for m in polls] == [2, 2, 2]
    chosen = [n for n in chat.notices["C1"] if "The group chose" in n]
    assert len(chosen) == 3 and len(set(chosen)) == 3  # three different papers
    # The third session is cancelled after its poll chose: its paper stands again.
    said(database, chat, "meeting skip 2026-03-19", now=CLOSES + timedelta(weeks=2, hours=1))
    sweep(database, chat, now=CLOSES + timedelta(weeks=2, hours=2))
    sweep(database, chat, now=OPENS + timedelta(weeks=3))
    last = [m for m in chat.messages["C1"] if "Choose the paper" in as_plain(message=m)][-1]
    third = chosen[2].split("The group chose ", 1)[1].split(" (", 1)[0]
    assert third in as_plain(message=last)
