"""Votes: one per person per post, by button or reaction; the latest action wins, a repeated
event changes nothing, and reactions anywhere but on a daily post are ignored."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey, Post
from bot.services import voting
from bot.services.telemetry import Telemetry
from tests.services.conftest import follow, key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, deliver, vote, votes


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("+1", 1),
        ("thumbsup", 1),
        ("+1::skin-tone-3", 1),
        ("-1", -1),
        ("thumbsdown::skin-tone-6", -1),
        ("tada", None),
        ("", None),
        ("<!channel>", None),
    ],
)
def test_reaction_value_reads_the_voting_reactions(name: str, value: int | None) -> None:
    assert voting.reaction_value(name=name) == value


def test_reaction_value_takes_the_configured_reactions() -> None:
    up, down = frozenset({"👍", "rocket"}), frozenset({"👎"})
    assert voting.reaction_value(name="rocket", up=up, down=down) == 1
    assert voting.reaction_value(name="👎", up=up, down=down) == -1
    assert voting.reaction_value(name="+1", up=up, down=down) is None


def _posted(database: Database, chat: MemoryChat) -> tuple[ChannelKey, Post]:
    """The sample list followed in C1, with today's paper posted."""
    load_sample(database)
    channel = follow(database)
    post, _card = deliver(database, chat, channel)
    return channel, post


def test_a_click_votes_the_same_again_withdraws_the_other_switches(
    database: Database, chat: MemoryChat
) -> None:
    _, post = _posted(database, chat)

    def click(value: int, event: str) -> voting.VoteOutcome:
        return vote(database, post, user="U1", value=value, event=event, now=MONDAY)

    assert click(1, "e1") == voting.VoteOutcome(post_id=post.id, changed=True)
    assert votes(database, post) == (1, 0)
    assert click(-1, "e2").changed and votes(database, post) == (0, 1)
    assert click(-1, "e3").changed and votes(database, post) == (0, 0)
    vote(database, post, user="U2", value=1, event="e4", now=MONDAY)
    assert click(1, "e5").changed and votes(database, post) == (2, 0)


def test_a_redelivered_click_changes_nothing(database: Database, chat: MemoryChat) -> None:
    _, post = _posted(database, chat)
    first = vote(database, post, user="U1", value=1, event="same", now=MONDAY)
    again = vote(
        database, post, user="U1", value=1, event="same", now=MONDAY + timedelta(seconds=3)
    )
    assert first.changed and not again.changed and again.post_id == post.id
    assert votes(database, post) == (1, 0)  # not withdrawn by the second delivery


def test_a_click_from_another_channel_stores_nothing(database: Database, chat: MemoryChat) -> None:
    """A button's value is the clicker's to write: a post id carried into another channel (of
    this workspace, another one, another platform) takes no vote."""
    _, post = _posted(database, chat)
    elsewhere = (key("C9"), key("C1", workspace="T2"), key("C1", platform="discord"))
    for n, channel in enumerate(elsewhere):
        outcome = voting.click(
            telemetry=Telemetry(),
            uow=database,
            post_id=post.id,
            channel=channel,
            user="U1",
            value=1,
            event_id=f"forged{n}",
            now=MONDAY,
        )
        assert not outcome.changed, channel
    assert votes(database, post) == (0, 0)


def test_a_click_on_no_post_is_nothing(database: Database) -> None:
    outcome = voting.click(
        telemetry=Telemetry(),
        uow=database,
        post_id=999,
        channel=key("C1"),
        user="U1",
        value=1,
        event_id="e",
        now=MONDAY,
    )
    assert outcome is voting.NOTHING


def test_reactions_vote_and_the_latest_action_wins(database: Database, chat: MemoryChat) -> None:
    channel, post = _posted(database, chat)
    assert post.message_id is not None

    def react(reaction: str, added: bool, event: str) -> voting.VoteOutcome:
        return voting.react(
            telemetry=Telemetry(),
            uow=database,
            channel=channel,
            message_id=post.message_id or "",
            user="U1",
            reaction=reaction,
            added=added,
            event_id=event,
            now=MONDAY,
        )

    assert react("+1::skin-tone-2", True, "r1").changed and votes(database, post) == (1, 0)
    vote(database, post, user="U1", value=-1, event="c1", now=MONDAY)
    assert votes(database, post) == (0, 1)
    # Taking the 👍 back does not undo the 👎 clicked after it.
    assert not react("+1", False, "r2").changed and votes(database, post) == (0, 1)
    assert react("-1", True, "r3").changed
    assert react("-1", False, "r4").changed and votes(database, post) == (0, 0)
    assert not react("-1", False, "r4").changed  # the same removal delivered twice


def test_reactions_elsewhere_are_ignored(database: Database, chat: MemoryChat) -> None:
    channel, post = _posted(database, chat)
    assert post.message_id is not None
    cases = [
        (channel, "1.999999", "+1"),  # another message
        (channel, post.message_id, "tada"),  # no voting reaction
        (key("C1", workspace="T2"), post.message_id, "+1"),  # the same ids in another workspace
        (key("C1", platform="discord"), post.message_id, "+1"),  # ... on another platform
    ]
    for where, message_id, reaction in cases:
        outcome = voting.react(
            telemetry=Telemetry(),
            uow=database,
            channel=where,
            message_id=message_id,
            user="U1",
            reaction=reaction,
            added=True,
            event_id=f"x-{where}-{reaction}-{message_id}",
            now=MONDAY,
        )
        assert outcome is voting.NOTHING, (where, message_id, reaction)
    assert votes(database, post) == (0, 0)


def test_reactions_without_event_ids_count_once_while_present(
    database: Database, chat: MemoryChat
) -> None:
    channel, post = _posted(database, chat)
    present = f"{post.message_id}:U1:+1"

    def react(added: bool) -> bool:
        return voting.react(
            telemetry=Telemetry(),
            uow=database,
            channel=channel,
            message_id=post.message_id or "",
            user="U1",
            reaction="+1",
            added=added,
            event_id=None,
            now=MONDAY,
            present_key=present,
        ).changed

    assert react(True) and votes(database, post) == (1, 0)
    assert not react(True)  # Discord delivered the add again
    assert react(False) and votes(database, post) == (0, 0)
    assert react(True) and votes(database, post) == (1, 0)  # added again after taking it back
