"""Admin subcommands: each reply says what changed, in the channel's local time, and a channel
that does not follow the list is told so instead of failing."""

from __future__ import annotations

from datetime import time, timedelta

import pytest

from bot.db.database import Database
from bot.domain import PaperDraft, Schedule
from bot.services import admin, importing, listing
from bot.wording import replies
from tests.services.conftest import WEEKDAYS, follow, key, load_sample, make_poster
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, plain

C1 = key("C1")
EARLY = MONDAY - timedelta(hours=1)  # 08:00 in Berlin, before the post


def _schedule(database: Database, chat: MemoryChat, *args: str) -> admin.Reply:
    """`/paperclub schedule <args>` in C1, an hour before Monday's post."""
    return admin.schedule(
        uow=database, chat=chat, channel=C1, args=list(args), defaults=WEEKDAYS, now=EARLY
    )


def test_admin_is_the_configured_list_else_the_platforms_word(chat: MemoryChat) -> None:
    chat.admins.add("UCHAT")
    assert admin.is_admin(channel=C1, user="UCHAT", admins=(), chat=chat)
    assert not admin.is_admin(channel=C1, user="U1", admins=(), chat=chat)
    # With PAPERCLUB_ADMINS set, the platform's admins are not asked.
    assert admin.is_admin(channel=C1, user="U1", admins=("U1",), chat=chat)
    assert not admin.is_admin(channel=C1, user="UCHAT", admins=("U1",), chat=chat)
    assert admin.refusal(command="skip").message == replies.refusal(command="skip")


def test_schedule_follows_the_channel_then_changes_it(database: Database, chat: MemoryChat) -> None:
    first = _schedule(database, chat, "09:30", "Europe/Berlin", "mon,wed,fri")
    assert first.reschedule
    assert first.message == replies.scheduled(
        new=True,
        when="09:30 Europe/Berlin",
        days="Mon, Wed, Fri",
        next_post="today at 09:30 (Europe/Berlin)",
        paused=False,
    )
    # The days stay as they were; past today's new time and not posted yet: due at once.
    changed = _schedule(database, chat, "06:45", "UTC")
    assert changed.message == replies.scheduled(
        new=False,
        when="06:45 UTC",
        days="Mon, Wed, Fri",
        next_post="today at 07:00 (UTC)",
        paused=False,
    )
    followed = listing.find_channel(uow=database, name="C1")
    assert followed.schedule == Schedule(
        post_time=time(6, 45), timezone="UTC", weekdays=frozenset({1, 3, 5})
    )
    assert not followed.private


def test_schedule_records_a_private_channel_and_a_paused_one_says_so(
    database: Database, chat: MemoryChat
) -> None:
    chat.private.add("C1")
    _schedule(database, chat, "09:00")
    assert listing.find_channel(uow=database, name="C1").private
    admin.set_paused(uow=database, channel=C1, paused=True, now=EARLY)
    reply = _schedule(database, chat, "10:00")
    assert "The channel is paused" in plain(reply.message)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((), "Usage: /paperclub schedule"),
        (("25:00",), "I couldn't read the time"),
        (("9h",), "I couldn't read the time"),
        (("09:00", "Mars/Olympus"), "Mars/Olympus is not a time zone I know"),
        (("09:00", "America/Indiana"), "not a time zone"),  # a folder of zones,
        (("09:00", "../../etc/passwd"), "not a time zone"),
        (("09:00", "someday"), "I couldn't read the days"),
        (("09:00", "<!channel>"), "I couldn't read the days"),
    ],
)
def test_schedule_refuses_what_it_cannot_read(
    database: Database, chat: MemoryChat, args: tuple[str, ...], said: str
) -> None:
    reply = _schedule(database, chat, *args)
    assert said in plain(reply.message) and not reply.reschedule
    with pytest.raises(listing.UnknownChannel):  # nothing was saved
        listing.find_channel(uow=database, name="C1")


def test_pause_and_resume(database: Database) -> None:
    assert admin.set_paused(uow=database, channel=C1, paused=True, now=EARLY).message == (
        replies.NOT_FOLLOWED
    )
    follow(database)
    paused = admin.set_paused(uow=database, channel=C1, paused=True, now=EARLY)
    assert paused.message == replies.PAUSED and paused.reschedule
    assert listing.find_channel(uow=database, name="C1").paused
    again = admin.set_paused(uow=database, channel=C1, paused=True, now=EARLY)
    assert again.message == replies.already_paused(paused=True) and not again.reschedule
    resumed = admin.set_paused(uow=database, channel=C1, paused=False, now=EARLY)
    assert resumed.message == replies.resumed(next_post="today at 09:00 (Europe/Berlin)")
    assert resumed.reschedule and not listing.find_channel(uow=database, name="C1").paused
    running = admin.set_paused(uow=database, channel=C1, paused=False, now=EARLY)
    assert running.message == replies.already_paused(paused=False)


def test_skip_drops_the_head_of_the_queue_for_good(database: Database) -> None:
    assert admin.skip(uow=database, channel=C1, now=EARLY).message == replies.NOT_FOLLOWED
    follow(database)
    assert admin.skip(uow=database, channel=C1, now=EARLY).message == replies.NOTHING_TO_SKIP
    load_sample(database)
    [view] = listing.queues(uow=database, workspace=C1.workspace_key)
    first, second = view.papers[:2]
    reply = admin.skip(uow=database, channel=C1, now=EARLY)
    assert reply.message == replies.skipped(
        title=first.title, next_title=second.title, next_post="today at 09:00 (Europe/Berlin)"
    )
    [after] = listing.queues(uow=database, workspace=C1.workspace_key)
    assert after.total == view.total - 1 and after.papers[0].id == second.id


def test_skipping_the_last_paper_says_the_queue_is_empty(database: Database) -> None:
    alone = PaperDraft(title="Alone", abstract="The only one.", origin="t:1")
    importing.import_drafts(uow=database, drafts=[alone], now=EARLY)
    follow(database)
    reply = admin.skip(uow=database, channel=C1, now=EARLY)
    assert "The queue is now empty." in plain(reply.message) and "Alone" in plain(reply.message)


def test_post_next_posts_once_a_day(database: Database, chat: MemoryChat) -> None:
    poster = make_poster(database, chat)
    assert admin.post_next(poster=poster, channel=C1, now=EARLY).message == replies.NOT_FOLLOWED
    follow(database)
    empty = admin.post_next(poster=poster, channel=C1, now=EARLY)
    assert empty.message == replies.POST_NEXT["empty"]
    load_sample(database)
    assert (
        admin.post_next(poster=poster, channel=C1, now=EARLY).message
        == (replies.POST_NEXT["posted"])
    )
    assert chat.count("C1") == 1  # posted before its time: forced
    again = admin.post_next(poster=poster, channel=C1, now=MONDAY)
    assert again.message == replies.POST_NEXT["already"] and chat.count("C1") == 1


def test_post_next_says_what_the_platform_refused(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    follow(database)
    chat.fail_next(code="not_in_channel", posted_nothing=True)
    reply = admin.post_next(poster=make_poster(database, chat), channel=C1, now=EARLY)
    assert reply.message == replies.post_refused(
        platform="slack", code="not_in_channel", hint="test"
    )
    assert plain(reply.message).startswith("Slack refused the post")


def test_post_next_for_another_platforms_channel(database: Database, chat: MemoryChat) -> None:
    elsewhere = key("C1", platform="discord")
    reply = admin.post_next(poster=make_poster(database, chat), channel=elsewhere, now=EARLY)
    assert reply.message == replies.NOT_FOLLOWED and chat.count("C1") == 0


def test_the_next_post_is_named_by_its_day_when_not_soon(
    database: Database, chat: MemoryChat
) -> None:
    reply = _schedule(database, chat, "09:00", "Europe/Berlin", "sat")
    assert "Next paper: Sat 10 Jan at 09:00 (Europe/Berlin)." in plain(reply.message)
    tomorrow = _schedule(database, chat, "09:00", "tue")
    assert "Next paper: tomorrow at 09:00 (Europe/Berlin)." in plain(tomorrow.message)
