"""The day's tray: opened and posted once after the post time, at most N new suggestions in
ranked order, decided once by anyone; autofill keeps the queue from running empty."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from bot.db.database import Database
from bot.domain import Schedule
from bot.messages import Buttons, Message, as_plain
from bot.ports.sources import TraySettings, WatchSpec
from bot.services import suggestions, trays
from bot.services.commands import handle
from bot.services.embedding import NO_SEMANTIC
from bot.services.reply import ClickAnswer
from bot.sources.candidates import Candidate
from bot.wording import suggestions as words
from tests.services.conftest import follow, key
from tests.services.memory_chat import MemoryChat
from tests.services.support import invocation

UTC_NINE = Schedule(post_time=time(9, 0), timezone="UTC", weekdays=frozenset(range(1, 8)))
MORNING = datetime(2024, 9, 2, 8, 0, tzinfo=UTC)
AFTER_NINE = datetime(2024, 9, 2, 9, 30, tzinfo=UTC)
HOSTILE = "<!channel> @everyone *bold* <@U123> " + "🧪" * 50


def candidate(n: int, title: str = "") -> Candidate:
    return Candidate(
        title=title or f"Speculative decoding trick number {n}",
        source="watch:1",
        authors=("Ada Lovelace", "Grace Hopper", "Alan Turing", "Emmy Noether"),
        abstract=f"We study decoding, variant {n}.",
        arxiv_id=f"2409.{n:05d}",
        url=f"https://arxiv.org/abs/2409.{n:05d}",
    )


def seed(database: Database, *, count: int, channel: str = "C1") -> None:
    with database() as store:
        number = store.add_watch(
            channel=key(channel),
            spec=WatchSpec(kind="arxiv", target="cs.LG"),
            user="U1",
            now=MORNING,
        )
        store.add_suggestions(
            channel=key(channel),
            watch_id=number,
            candidates=[candidate(n) for n in range(1, count + 1)],
            now=MORNING,
        )


def post(database: Database, chat: MemoryChat, *, now: datetime) -> int:
    return trays.post_due_trays(poster=poster_of(database, chat), now=now, defaults=UTC_NINE)


def poster_of(database: Database, chat: MemoryChat, owner: str = "host:1:a") -> trays.TrayPoster:
    """This test process posting Slack's trays (every other claim's process alive)."""
    return trays.TrayPoster(
        uow=database, chat=chat, platform="slack", owner=owner, owner_alive=lambda _o: True
    )


def tray_ids(database: Database, *, now: datetime) -> tuple[int, ...]:
    with database(write=False) as store:
        tray = store.tray_on(channel=key("C1"), day=now.date())
    assert tray is not None
    return tray.suggestion_ids


def test_the_tray_waits_for_the_post_time_holds_at_most_n_and_is_posted_once(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, schedule=UTC_NINE)
    seed(database, count=7)
    assert post(database, chat, now=MORNING) == 0  # before the post time
    assert post(database, chat, now=AFTER_NINE) == 1
    assert post(database, chat, now=AFTER_NINE + timedelta(minutes=1)) == 0
    (shown,) = chat.messages["C1"]
    rows = [b for b in shown.blocks if isinstance(b, Buttons)]
    assert len(rows) == 3 == len(tray_ids(database, now=AFTER_NINE))
    labels = {b.label for row in rows for b in row.buttons}
    assert labels == {words.ADD_LABEL, words.HIDE_LABEL}
    assert "Ada Lovelace, Grace Hopper, Alan Turing et al." in chat.notices["C1"][0]
    # The next day: nothing new found, no tray (older ones still wait)...
    tomorrow = AFTER_NINE + timedelta(days=1)
    assert post(database, chat, now=tomorrow) == 0
    # ... until a watch finds one: the three shown pass, and three others come.
    with database() as store:
        (watch,) = store.watches(channel=key("C1"))
        fresh = [candidate(8)]
        store.add_suggestions(channel=key("C1"), watch_id=watch.id, candidates=fresh, now=tomorrow)
    assert post(database, chat, now=tomorrow) == 1
    assert set(tray_ids(database, now=tomorrow)).isdisjoint(tray_ids(database, now=AFTER_NINE))
    with database(write=False) as store:
        passed = store.suggestions(channel=key("C1"), states=("passed",), limit=10)
    assert len(passed) == 3


def test_a_day_with_nothing_new_has_no_tray_and_size_zero_none(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, schedule=UTC_NINE)
    with database() as store:
        store.add_watch(
            channel=key("C1"), spec=WatchSpec(kind="arxiv", target="cs.LG"), user="U1", now=MORNING
        )
    assert post(database, chat, now=AFTER_NINE) == 0 and "C1" not in chat.messages
    seed(database, count=2)
    with database() as store:
        store.save_tray_settings(channel=key("C1"), settings=TraySettings(per_day=0))
    assert post(database, chat, now=AFTER_NINE) == 0


def test_promote_queues_the_paper_once_and_hide_hides_it(
    database: Database, chat: MemoryChat
) -> None:
    channel = follow(database, schedule=UTC_NINE)
    seed(database, count=3)
    post(database, chat, now=AFTER_NINE)
    first, second, _ = tray_ids(database, now=AFTER_NINE)

    def decide(number: int | str, how: str, user: str = "U2") -> ClickAnswer:
        return suggestions.decide(
            uow=database,
            channel=channel,
            number=str(number),
            how="promoted" if how == "add" else "hidden",
            user=user,
            now=AFTER_NINE,
            semantic_extra=NO_SEMANTIC,
        )

    added = decide(first, "add")
    assert "to the queue (position 1)" in as_text(added.reply.message)
    assert added.redrawn is not None
    assert "✅ Added to the queue by U2." in as_text(added.redrawn)
    again = decide(first, "hide", user="U3")
    assert "✅ Added to the queue by U2" in as_text(again.reply.message)
    with database(write=False) as store:
        followed = store.channel(key=channel)
        assert store.count_queued(workspace=channel.workspace_key, channel=followed) == 1
    hidden = decide(second, "hide")
    assert "will not be suggested here again" in as_text(hidden.reply.message)
    assert hidden.redrawn is not None and "🙈 Not for us (U2)." in as_text(hidden.redrawn)
    remaining = [b for b in hidden.redrawn.blocks if isinstance(b, Buttons)]
    assert len(remaining) == 1  # only the undecided one keeps its buttons
    # A number of another channel, or no number at all, decides nothing.
    assert "no suggestion #" in as_text(decide("999999", "add").reply.message)
    assert "no suggestion #" in as_text(decide("1; DROP TABLE", "add").reply.message)


def test_another_channels_suggestion_cannot_be_decided_here(
    database: Database, chat: MemoryChat
) -> None:
    seed(database, count=1, channel="C2")
    with database(write=False) as store:
        (theirs,) = store.suggestions(channel=key("C2"), states=("waiting",), limit=5)
    answer = suggestions.decide(
        uow=database,
        channel=key("C1"),
        number=str(theirs.id),
        how="hidden",
        user="U9",
        now=AFTER_NINE,
        semantic_extra=NO_SEMANTIC,
    )
    assert answer.redrawn is None and "no suggestion" in as_text(answer.reply.message)
    with database(write=False) as store:
        still = store.suggestion(channel=key("C2"), suggestion_id=theirs.id)
    assert still is not None and still.state == "waiting"


def test_autofill_fills_an_empty_queue_with_the_top_suggestion_only_when_on(
    database: Database, chat: MemoryChat
) -> None:
    channel = follow(database, schedule=UTC_NINE)
    seed(database, count=2)
    fill = trays.autofill_low_queues
    assert fill(uow=database, chat=chat, platform="slack", now=AFTER_NINE) == 0
    with database() as store:
        store.save_tray_settings(channel=channel, settings=TraySettings(autofill=True))
    assert fill(uow=database, chat=chat, platform="slack", now=AFTER_NINE) == 1
    assert "the top suggestion joined it" in chat.notices["C1"][-1]
    assert fill(uow=database, chat=chat, platform="slack", now=AFTER_NINE) == 0  # not empty now
    with database(write=False) as store:
        promoted = store.suggestions(channel=channel, states=("promoted",), limit=5)
    assert len(promoted) == 1 and promoted[0].decided_by == ""


def test_hostile_titles_stay_data_in_the_tray(database: Database, chat: MemoryChat) -> None:
    follow(database, schedule=UTC_NINE)
    with database() as store:
        number = store.add_watch(
            channel=key("C1"), spec=WatchSpec(kind="arxiv", target="cs.LG"), user="U1", now=MORNING
        )
        store.add_suggestions(
            channel=key("C1"),
            watch_id=number,
            candidates=[candidate(1, title=HOSTILE)],
            now=MORNING,
        )
    post(database, chat, now=AFTER_NINE)
    assert HOSTILE in chat.notices["C1"][0]  # kept whole as a run's text: each platform escapes


def as_text(message: object) -> str:
    assert isinstance(message, Message)
    return as_plain(message=message)


def test_a_channel_that_only_watches_uses_the_defaults_and_the_shared_queue(
    database: Database, chat: MemoryChat
) -> None:
    seed(database, count=2, channel="C3")  # never followed: the watch made its row alone
    ten = Schedule(post_time=time(10, 0), timezone="UTC", weekdays=frozenset(range(1, 8)))
    due, poster = trays.post_due_trays, poster_of(database, chat)
    assert due(poster=poster, now=AFTER_NINE, defaults=ten) == 0
    later = AFTER_NINE + timedelta(hours=1)
    assert due(poster=poster, now=later, defaults=ten) == 1
    with database(write=False) as store:
        tray = store.tray_on(channel=key("C3"), day=later.date())
    assert tray is not None
    suggestions.decide(
        uow=database,
        channel=key("C3"),
        number=str(tray.suggestion_ids[0]),
        how="promoted",
        user="U2",
        now=later,
        semantic_extra=NO_SEMANTIC,
    )
    with database(write=False) as store:
        assert store.channel(key=key("C3")) is None
        assert store.count_queued(workspace=key("C3").workspace_key, channel=None) == 1


def test_autofill_is_refused_where_there_is_no_daily_post(database: Database) -> None:
    seed(database, count=1, channel="C4")  # watches, never followed
    chat = MemoryChat()
    call = invocation(database, chat, key("C4"), user="UADMIN")
    said = as_text(handle(call=call, text="suggestions autofill on").message)
    assert "no daily post" in said
    with database(write=False) as store:
        assert store.tray_settings(channel=key("C4")).autofill is False
