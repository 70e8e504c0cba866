"""A tray opened and posted by a process that died before noting it: the next sweep finds its
message in the channel's history (Chat.find_notice) and notes it instead of posting it again;
history that cannot be read posts nothing until it can be."""

from __future__ import annotations

from datetime import timedelta

from bot.db.database import Database
from bot.messages import Buttons, message
from bot.services import notices_once, suggestions, trays
from tests.services.conftest import follow, key
from tests.services.memory_chat import MemoryChat
from tests.services.test_trays import AFTER_NINE, UTC_NINE, post, poster_of, seed

C1 = key("C1")


def _opened_and_sent(database: Database, chat: MemoryChat) -> tuple[int, str]:
    """What a process killed between the send and the note leaves: the tray opened, its
    message on the platform, no message id in the database; (tray id, the message's id)."""
    with database() as store:
        chosen = suggestions.picks(store=store, channel=C1, now=AFTER_NINE, limit=3, scorer=None)
        opened = store.open_tray(channel=C1, day=AFTER_NINE.date(), picks=chosen, now=AFTER_NINE)
        assert opened is not None
        shown = suggestions.tray_message(store=store, channel=C1, ids=opened.suggestion_ids)
    assert shown is not None
    sent = chat.send_notice(channel=C1, message=shown)
    assert sent is not None
    return opened.id, sent


def _noted(database: Database) -> str | None:
    """Today's tray's message id."""
    with database(write=False) as store:
        tray = store.tray_on(channel=C1, day=AFTER_NINE.date())
    assert tray is not None
    return tray.message_id


def test_a_tray_sent_and_never_noted_is_found_and_noted_not_posted_again(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, schedule=UTC_NINE)
    seed(database, count=5)
    _, sent = _opened_and_sent(database, chat)
    # A notice of ours without the tray's buttons comes after it.
    chat.send_notice(channel=C1, message=message("<!channel> @everyone " + "🧪" * 5000))

    assert post(database, chat, now=AFTER_NINE + timedelta(minutes=1)) == 1

    assert len(chat.messages["C1"]) == 2  # the tray once, and the other notice
    assert _noted(database) == sent
    assert chat.lookups == 1
    assert post(database, chat, now=AFTER_NINE + timedelta(minutes=2)) == 0
    assert chat.lookups == 1  # noted: never looked for again


def test_a_tray_that_never_reached_the_platform_is_posted_once_after_the_look(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, schedule=UTC_NINE)
    seed(database, count=5)
    _opened_and_sent(database, MemoryChat())  # it went to another platform's memory: lost

    assert post(database, chat, now=AFTER_NINE + timedelta(minutes=1)) == 1

    (shown,) = chat.messages["C1"]
    assert any(isinstance(block, Buttons) for block in shown.blocks)
    assert "Speculative decoding trick number" in chat.notices["C1"][0]
    assert chat.lookups == 1
    assert _noted(database) == "1.000200"


def test_history_unreadable_posts_nothing_until_it_can_be_read(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, schedule=UTC_NINE)
    seed(database, count=5)
    _, sent = _opened_and_sent(database, chat)
    chat.fail_lookups(code="ratelimited", times=2)

    assert post(database, chat, now=AFTER_NINE + timedelta(minutes=1)) == 0
    assert post(database, chat, now=AFTER_NINE + timedelta(minutes=2)) == 0
    assert _noted(database) is None  # unknown: left for a later sweep, never posted blind
    assert len(chat.messages["C1"]) == 1

    assert post(database, chat, now=AFTER_NINE + timedelta(minutes=3)) == 1
    assert _noted(database) == sent
    assert len(chat.messages["C1"]) == 1
    assert chat.lookups == 3


def test_a_tray_refused_outright_is_tried_again_later_without_looking_in_history(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, schedule=UTC_NINE)
    seed(database, count=3)
    chat.fail_notices(code="not_in_channel", posted_nothing=True)
    assert post(database, chat, now=AFTER_NINE) == 0  # refused: nothing posted
    for minutes in (1, 10, 29):  # not at every sweep, and no history to read
        assert post(database, chat, now=AFTER_NINE + timedelta(minutes=minutes)) == 0
    assert chat.lookups == 0 and "C1" not in chat.messages
    chat.fail_notices(code="not_in_channel", posted_nothing=True)
    assert post(database, chat, now=AFTER_NINE + timedelta(minutes=30)) == 0  # refused again
    assert post(database, chat, now=AFTER_NINE + timedelta(minutes=45)) == 0  # waits again
    assert post(database, chat, now=AFTER_NINE + timedelta(minutes=60)) == 1  # let in: posted
    assert len(chat.messages["C1"]) == 1 and chat.lookups == 0
    assert _noted(database) is not None


def test_a_tray_claimed_by_a_live_process_is_left_to_it_until_its_claim_goes_stale(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, schedule=UTC_NINE)
    seed(database, count=3)
    frozen, other = poster_of(database, chat, owner="a:1:x"), poster_of(database, chat, "b:2:y")
    # What a leader frozen after opening its tray, before sending it, leaves behind.
    with database() as store:
        chosen = suggestions.picks(store=store, channel=C1, now=AFTER_NINE, limit=3, scorer=None)
        opened = store.open_tray(channel=C1, day=AFTER_NINE.date(), picks=chosen, now=AFTER_NINE)
        assert opened is not None
        assert store.claim_tray(tray_id=opened.id, owner="a:1:x", now=AFTER_NINE, holder=None)
        shown = suggestions.tray_message(store=store, channel=C1, ids=opened.suggestion_ids)
    assert shown is not None
    due = trays.post_due_trays
    assert due(poster=other, now=AFTER_NINE + timedelta(minutes=1), defaults=UTC_NINE) == 0
    assert chat.lookups == 0 and "C1" not in chat.messages  # a live, fresh claim: left alone
    # Five minutes of silence: the other replica takes it over, looks, and posts it once.
    assert due(poster=other, now=AFTER_NINE + timedelta(minutes=6), defaults=UTC_NINE) == 1
    assert chat.lookups == 1 and len(chat.messages["C1"]) == 1
    # The frozen one resumes where it stopped, about to send: its claim is gone, it sends not.
    resumed = AFTER_NINE + timedelta(minutes=7)
    sent = notices_once.send(
        sender=trays.sender_of(poster=frozen),
        record_id=opened.id,
        channel=C1,
        shown=shown,
        now=resumed,
    )
    assert sent is False and len(chat.messages["C1"]) == 1


def test_a_tray_whose_claimant_died_is_taken_over_at_once(database: Database) -> None:
    chat = MemoryChat()
    follow(database, schedule=UTC_NINE)
    seed(database, count=2)
    with database() as store:
        chosen = suggestions.picks(store=store, channel=C1, now=AFTER_NINE, limit=3, scorer=None)
        opened = store.open_tray(channel=C1, day=AFTER_NINE.date(), picks=chosen, now=AFTER_NINE)
        assert opened is not None
        assert store.claim_tray(tray_id=opened.id, owner="dead:9:z", now=AFTER_NINE, holder=None)
    restarted = trays.TrayPoster(
        uow=database, chat=chat, platform="slack", owner="new:1:a", owner_alive=lambda _o: False
    )
    later = AFTER_NINE + timedelta(seconds=30)
    assert trays.post_due_trays(poster=restarted, now=later, defaults=UTC_NINE) == 1
    assert len(chat.messages["C1"]) == 1
