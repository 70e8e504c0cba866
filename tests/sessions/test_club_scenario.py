"""Issue 33's polls and presenters, per platform, over six weekly sessions (tests/sessions/
club_support): members nominate papers by command (one title hostile), vote by button and by
command, approval then ranked choice with hidden counts; each poll opens and closes at its
instant, its winner is announced once, and the papers that lost keep their votes for the next
poll. Three members take turns presenting: one is away for two weeks, one volunteers and
then asks for a swap, accepted by button; the rotation stays fair and each presenter gets
their direct messages."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import date, timedelta

import pytest

from tests.sessions.club_rooms import console_club, discord_club, slack_club
from tests.sessions.club_support import (
    AWAY,
    AWAY_AT,
    CLOSES,
    DIRECTS,
    END,
    EXPERTS,
    GROKKING,
    HEADS,
    HOSTILE,
    HOSTILE_SHOWN,
    OPENS,
    PRESENTERS,
    RANKED,
    RANKED_AT,
    SESSIONS,
    SET_AT,
    SETUP,
    SPARSE,
    SWAP,
    SWAP_AT,
    VOLUNTEER,
    VOLUNTEER_AT,
    WINNERS,
    ClubRoom,
    Weeks,
)

Club = Callable[..., AbstractContextManager[ClubRoom]]
CLUBS: dict[str, Club] = {"console": console_club, "slack": slack_club, "discord": discord_club}
COUNTED = re.compile(r"— \d+ votes?")  # a paper's count in a poll (none while hidden)
VOTE_AT = timedelta(hours=1)  # the members vote an hour after a poll opens


def _words(text: str) -> str:
    """Text without bold and italic marks (Slack's `*`, Discord's `**`), for phrase checks."""
    return text.replace("*", "")


def _set_up(*, club: ClubRoom) -> None:
    """The admin sets the meeting and approval polls; the third member nominates the hostile
    title, the member and the admin one paper each; all three join the rotation, a minute
    apart (the order they keep)."""
    admin, member, third = club.people
    for text in SETUP:
        club.say(text, user=admin)
    steps = (
        (third, f"nominate {HOSTILE}", "is put forward for the next poll"),
        (member, f"nominate {SPARSE}", "is put forward for the next poll"),
        (admin, f"nominate {HEADS}", "is put forward for the next poll"),
        (member, f"nominate {HEADS}", "was put forward already"),
        (admin, "presenters join", "You are in the rotation."),
        (member, "presenters join", "You are in the rotation."),
        (third, "presenters join", "You are in the rotation."),
    )
    for n, (user, text, expected) in enumerate(steps, start=1):
        club.clock.at = SET_AT + timedelta(minutes=n)
        said = _words(club.say(text, user=user))
        assert expected in said, said[:600]


def _approval(*, club: ClubRoom, weeks: Weeks) -> None:
    """The first two polls, approval voting with the counts shown: votes by command and by
    button; the second poll opens with the first's losing votes."""
    admin, member, third = club.people
    weeks.run(until=OPENS[0] + VOTE_AT)
    [poll] = club.polls()
    shown = _words(club.shown(message_id=poll))
    assert "Choose the paper for Mon 02 Mar 2026, 18:00–19:30 Europe/Berlin" in shown, shown
    assert club.harmful(message_id=poll, typed=HOSTILE_SHOWN) == [], shown[:800]
    assert "Your vote: 1, 3." in club.say("poll 1 3", user=admin)
    assert "Your vote: 2." in club.vote(message_id=poll, numbers=(2,), user=member)
    assert "Your vote: 2." in club.vote(message_id=poll, numbers=(2,), user=third)
    counts = _words(club.say("poll", user=member))
    assert f"{SPARSE} — 2 votes" in counts and f"{HEADS} — 1 vote" in counts, counts
    if club.redraws():
        assert "3 members voted so far" in club.shown(message_id=poll)
    weeks.run(until=AWAY_AT)
    assert "away until Mon 23 Mar 2026" in club.say(AWAY, user=third)
    assert "is put forward" in _words(club.say(f"nominate {EXPERTS}", user=member))
    weeks.run(until=OPENS[1] + VOTE_AT)
    poll = club.polls()[1]
    shown = _words(club.shown(message_id=poll))  # the admin's votes carried: 1 and 2
    assert "Choose the paper for Mon 09 Mar 2026" in shown, shown
    assert f"{HEADS} — 1 vote" in shown and f"{EXPERTS} — 0 votes" in shown, shown
    assert "1 member voted so far" in shown
    assert "Your vote: 2." in club.vote(message_id=poll, numbers=(2,), user=member)
    assert "Your vote: 3." in club.say("poll 3", user=third)
    counts = _words(club.say("poll", user=third))
    assert f"{HEADS} — 2 votes" in counts and f"{EXPERTS} — 1 vote" in counts, counts


def _hidden(*, club: ClubRoom, weeks: Weeks) -> None:
    """Ranked choice with hidden counts from the third poll: none shown until it closes
    (whoever looks, however the poll is redrawn), then the final counts by button."""
    admin, member, _ = club.people
    weeks.run(until=RANKED_AT)
    said = _words(club.say(RANKED, user=admin))
    assert "ranked choice" in said and "results hidden until it closes" in said, said
    assert "is put forward" in _words(club.say(f"nominate {GROKKING}", user=admin))
    weeks.run(until=OPENS[2] + VOTE_AT)
    poll = club.polls()[2]
    shown = club.shown(message_id=poll)
    assert "the counts show when it closes" in shown and not COUNTED.search(shown), shown
    assert "2 members voted so far" in shown  # carried: the admin's for 1, the third's for 2
    assert "Your vote: 3, 1." in club.say("poll 3 1", user=admin)
    assert "Your vote: 3, 2." in club.vote(message_id=poll, numbers=(3, 2), user=member)
    for user in club.people:
        looked = club.say("poll", user=user)
        assert "3 members voted so far" in looked and not COUNTED.search(looked), looked
    assert not COUNTED.search(club.shown(message_id=poll))
    weeks.run(until=CLOSES[2] + VOTE_AT)
    result = club.results()[2]
    counts = _words(club.see_votes(message_id=result, user=admin))
    assert f"{GROKKING} — 2 votes" in counts and "Your vote: 3, 1." in counts, counts
    weeks.run(until=OPENS[3] + VOTE_AT)
    shown = club.shown(message_id=club.polls()[3])  # everyone's votes carried, none shown
    assert "3 members voted so far" in shown and not COUNTED.search(shown), shown


def _presenters(*, club: ClubRoom, weeks: Weeks) -> None:
    """The member volunteers for 6 April; the rotation then gives 30 March to the admin; the
    member asks to swap, and the admin accepts by button (typed on the console)."""
    admin, member, _ = club.people
    weeks.run(until=VOLUNTEER_AT)
    assert "you present on Mon 06 Apr 2026" in _words(club.say(VOLUNTEER, user=member))
    weeks.run(until=SWAP_AT)
    assert _presenting(club=club)[4] == (admin, "rotation")
    assert "Asked" in club.say(SWAP, user=member)
    said = _words(club.accept_swap(user=admin))
    assert "accepted: the two sessions' presenters are swapped" in said, said


@pytest.mark.parametrize("name", sorted(CLUBS))
def test_six_weeks_of_polls_and_presenters_on_each_platform(name: str, sqlite_url: str) -> None:
    with CLUBS[name](url=sqlite_url) as club:
        weeks = Weeks(room=club)
        club.clock.at = SET_AT
        _set_up(club=club)
        _approval(club=club, weeks=weeks)
        _hidden(club=club, weeks=weeks)
        _presenters(club=club, weeks=weeks)
        weeks.run(until=END)
        _check_polls(club=club, weeks=weeks)
        _check_presenters(club=club)


def _check_polls(*, club: ClubRoom, weeks: Weeks) -> None:
    """Five polls, each opened and closed at its instant, each winner said once, naming the
    papers as typed and pinging nobody; the sixth session has nothing left to choose from."""
    assert weeks.polls == list(OPENS) and weeks.results == list(CLOSES)
    assert len(club.polls()) == len(OPENS) and len(club.results()) == len(CLOSES)
    for n, (title, votes) in enumerate(WINNERS):
        result = club.results()[n]
        shown = _words(club.shown(message_id=result, result=True))
        assert "The group chose " in shown, shown
        # The title as typed: in a member's view of the message (Slack's text escapes it).
        assert f"({votes} vote" in shown and f"{SESSIONS[n]:%a %d %b %Y}" in shown, shown
        assert club.harmful(message_id=result, typed=title, result=True) == [], shown[:800]
    assert "No poll is open" in club.say("poll 1", user=club.people[1])


def _presenting(*, club: ClubRoom) -> list[tuple[str, str]]:
    """Each session's presenter and how they came to present, from the archive."""
    with club.database(write=False) as store:
        records = store.session_records(
            channel=club.key, since=SET_AT, until=SET_AT + timedelta(weeks=6)
        )
        found = [store.presenter_of(session_id=r.id) for r in records]
    assert [r.session.local_start.date() for r in records] == list(SESSIONS)
    return [(p.user, p.how) if p is not None else ("", "") for p in found]


def _check_presenters(*, club: ClubRoom) -> None:
    """Who presents each session; between two turns of one member, every other member
    available that day presented; each presenter's direct messages."""
    people = club.people
    presenting = _presenting(club=club)
    assert [user for user, _ in presenting] == [people[n] for n in PRESENTERS]
    assert [how for _, how in presenting] == ["rotation"] * 4 + ["swap"] * 2
    away = {people[2]: date(2026, 3, 23)}
    users = [user for user, _ in presenting]
    for i, user in enumerate(users):
        turns = [j for j in range(i) if users[j] == user]
        if not turns:
            continue
        between = set(users[turns[-1] + 1 : i])
        due = {p for p in people if p != user and SESSIONS[i] >= away.get(p, SESSIONS[i])}
        assert due <= between, (SESSIONS[i], user, between)
    for user, count in zip(people, DIRECTS, strict=True):
        got = club.directs(user=user)
        if got is not None:
            assert len(got) == count, (user, got)
    every = club.all_directs()
    assert len(every) == sum(DIRECTS), every
    assert all("present" in d for d in every), every
