"""The daily post beyond test_posting.py: channels the poster does not serve, the sweep over
several channels, a post's card redrawn with fresh counts, pending posts of days that are over,
a refilled queue saying "empty" again next time, and each workspace's own queue."""

from __future__ import annotations

from datetime import timedelta

from bot.db.database import Database
from bot.domain import PaperDraft
from bot.services import admin, importing
from bot.services.delivery import POST_ATTEMPTS
from bot.services.embedding import NO_SEMANTIC
from bot.services.post_card import card_of_post
from bot.services.posting import Outcome, post_due, post_today, resolve_stale_days
from bot.wording import archive
from tests.services.conftest import follow, key, load_sample, make_poster
from tests.services.memory_chat import MemoryChat
from tests.services.support import HOSTILE, MONDAY, deliver, follow_key, plain, vote

C1 = key("C1")


def test_channels_the_poster_does_not_serve(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    follow_key(database, key("C1", platform="discord", workspace="G1"))
    poster = make_poster(database, chat)  # Slack's
    elsewhere = key("C1", platform="discord", workspace="G1")
    for channel in (elsewhere, key("C9")):
        result = post_today(poster=poster, channel=channel, now=MONDAY, force=True)
        assert result.outcome is Outcome.UNKNOWN_CHANNEL
    assert post_due(poster=poster, now=MONDAY) == {}
    assert chat.posts == {}


def test_the_sweep_posts_every_due_channel_of_its_platform(
    database: Database, chat: MemoryChat
) -> None:
    load_sample(database)
    c1, c2, c3 = (follow(database, f"C{n}") for n in (1, 2, 3))
    admin.set_paused(uow=database, channel=c3, paused=True, now=MONDAY)
    results = post_due(poster=make_poster(database, chat), now=MONDAY)
    assert {k: r.outcome for k, r in results.items()} == {
        c1: Outcome.POSTED,
        c2: Outcome.POSTED,
        c3: Outcome.PAUSED,
    }
    # One paper per channel: the shared list gives each its own.
    assert chat.posts["C1"][0].paper.id != chat.posts["C2"][0].paper.id
    forced = post_today(poster=make_poster(database, chat), channel=c3, now=MONDAY, force=True)
    assert forced.outcome is Outcome.POSTED  # /paperclub next posts in a paused channel


def test_a_cards_counts_are_fresh_and_undelivered_posts_have_none(
    database: Database, chat: MemoryChat
) -> None:
    load_sample(database)
    channel = follow(database)
    post, card = deliver(database, chat, channel)
    assert (card.votes.up, card.votes.down) == (0, 0)
    vote(database, post, user="U1", value=1, event="v", now=MONDAY)
    found = card_of_post(uow=database, post_id=post.id, semantic_extra=NO_SEMANTIC)
    assert found is not None and found[1].votes.up == 1 and found[1].paper == card.paper
    assert card_of_post(uow=database, post_id=post.id + 100, semantic_extra=NO_SEMANTIC) is None
    # Every attempt fails without an answer: claimed, never delivered.
    chat.fail_next(code="connection_error", posted_nothing=False, times=POST_ATTEMPTS)
    pending = post_today(
        poster=make_poster(database, chat), channel=follow(database, "C2"), now=MONDAY
    )
    assert pending.outcome is Outcome.FAILED and pending.post is not None
    assert card_of_post(uow=database, post_id=pending.post.id, semantic_extra=NO_SEMANTIC) is None


def test_a_pending_post_of_a_day_that_is_over(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    c1, c2 = follow(database, "C1"), follow(database, "C2")
    dead = make_poster(database, chat, owner="host:1:dead")
    # C1's message landed but the answer was lost (the retry finds it in history); none of
    # C2's attempts reached the platform.
    chat.fail_next(code="http_500", posted_nothing=False, after_effect=True)
    chat.fail_next(code="connection_error", posted_nothing=False, times=POST_ATTEMPTS)
    lost = post_today(poster=dead, channel=c1, now=MONDAY).post
    never = post_today(poster=dead, channel=c2, now=MONDAY).post
    assert lost is not None and never is not None
    tuesday = MONDAY + timedelta(days=1)
    resolve_stale_days(poster=make_poster(database, chat, owner="host:2:new"), now=tuesday)
    assert (
        card_of_post(uow=database, post_id=lost.id, semantic_extra=NO_SEMANTIC) is not None
    )  # recorded
    assert card_of_post(uow=database, post_id=never.id, semantic_extra=NO_SEMANTIC) is None
    # The never-posted paper is back in the queue; Monday is not posted late.
    results = post_due(poster=make_poster(database, chat, owner="host:2:new"), now=tuesday)
    assert results[c1].outcome is results[c2].outcome is Outcome.POSTED
    [c2_tuesday] = chat.posts["C2"]
    c1_monday, c1_tuesday = chat.posts["C1"]
    assert c2_tuesday.local_date == c1_tuesday.local_date == tuesday.date()
    # The shared list's head again: the sweep gives it to the first channel.
    assert c1_tuesday.paper.id == never.paper_id != c1_monday.paper.id


def test_an_empty_queue_is_said_again_after_it_was_refilled(
    database: Database, chat: MemoryChat
) -> None:
    channel = follow(database)
    poster = make_poster(database, chat)
    assert post_today(poster=poster, channel=channel, now=MONDAY).outcome is Outcome.EMPTY
    draft = PaperDraft(title=HOSTILE[0], abstract=HOSTILE[1], origin="t:1")
    importing.import_drafts(uow=database, drafts=[draft], now=MONDAY)
    tuesday = MONDAY + timedelta(days=1)
    assert post_today(poster=poster, channel=channel, now=tuesday).outcome is Outcome.POSTED
    [card] = chat.posts["C1"]
    assert card.paper.title == HOSTILE[0] and card.paper.abstract == HOSTILE[1]  # as typed
    wednesday = tuesday + timedelta(days=1)
    assert post_today(poster=poster, channel=channel, now=wednesday).outcome is Outcome.EMPTY
    assert chat.notices["C1"] == [plain(archive.EMPTY_QUEUE)] * 2


def test_each_workspace_posts_its_own_queue(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    ours = follow(database)
    theirs = follow_key(database, key("C1", workspace="T2"))
    poster = make_poster(database, chat)
    assert post_today(poster=poster, channel=ours, now=MONDAY).outcome is Outcome.POSTED
    assert post_today(poster=poster, channel=theirs, now=MONDAY).outcome is Outcome.EMPTY
