"""5,000 generated slash-command texts and interaction payloads (hypothesis): each gets a reply
or a clean refusal, none a traceback. Most commands go straight to bot.services.commands.handle;
a few hundred, and every interaction and event, go through the real Bolt app."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from slack_bolt import BoltRequest

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.runtime.parts import make_lookup
from bot.services import commands, posting
from bot.slack import ids
from bot.wording.archive import more_value
from tests.fakeslack import (
    FakeSlack,
    block_actions_payload,
    event_envelope_payload,
    slash_command_payload,
)
from tests.faults.support import (
    ADMIN,
    BERLIN_WEEKDAYS,
    MEMBER,
    MONDAY_9,
    SLOW,
    FakeClock,
    LogTrap,
    daily_posts,
    prepare_database,
    scaled,
    slack_settings,
    trap_logs,
)
from tests.wired import SlackBot, build_slack_bot

# Time zone names that are folders in the tz database: ZoneInfo raises IsADirectoryError.
DIRECTORY_ZONES = ("America/Argentina", "America/Indiana", "America/Kentucky")
ZONES = (
    "Europe/Berlin",
    "America/New_York",
    "UTC",
    "utc",
    "Etc/GMT+5",
    "Etc/GMT-14",
    "Asia/Kolkata",
    "Europe/Berlin/",
    "../etc/passwd",
    "/etc/localtime",
    "America/",
    "Asia",
    "right/UTC",
    "posix/Europe/Berlin",
    "Mars/Olympus_Mons",
    "Europe//Berlin",
    "Factory",
    "A/B/C/D/E",
    *DIRECTORY_ZONES,
)
SUBCOMMANDS = (
    "help",
    "queue",
    "schedule",
    "pause",
    "resume",
    "skip",
    "next",
    "add",
    "top",
    "recap",
    "search",
    "HELP",
    "Schedule",
    "NEXT",
    "",
    "payload",
    "schedule\u00a0",
    "scheduIe",
)
FIXED_TOKENS = (
    "09:00",
    "9:00",
    "24:00",
    "23:59",
    "00:00",
    "9",
    "09:60",
    "-1:00",
    "9:00am",
    "١٢:٠٠",
    "mon-fri",
    "daily",
    "mon,wed,fri",
    "fri-mon",
    "sun-sat",
    "weekends",
    "mon,,",
    ",",
    "-",
    "mon-",
    "moon",
    "Monday",
    "mondays",
    "week",
    "month",
    "year",
    "all",
    "off",
    "fri",
    "16:00",
    "2104.04473",
    "arXiv:2104.04473v2",
    "https://arxiv.org/abs/2104.04473",
    "cs/0112017",
    "10.1000/xyz123",
    "doi:10.1145/3292500.3330701",
    "https://doi.org/10.1/a",
    "http://x",
    "<https://arxiv.org/abs/2401.01234|link>",
    "'; DROP TABLE papers; --",
    '"',
    "*",
    "NEAR",
    "title:attention",
    "OR",
    "AND NOT",
    "a\x00b",
    "\u202e",
    "🧪",
    "x" * 400,
    "(",
    ")",
    "^a",
    "-x",
    "+y",
    "{title abstract}:x",
    "NEAR(a b, 3)",
    "a*b",
    '"unclosed',
    "''",
    "\\",
    "%",
    "_",
)

token = st.one_of(
    st.sampled_from(FIXED_TOKENS),
    st.sampled_from(ZONES),
    st.from_regex(r"[0-9]{1,3}:[0-9]{1,3}", fullmatch=True),
    st.from_regex(
        r"(mon|tue|wed|thu|fri|sat|sun|x)([,-](mon|tue|wed|thu|fri|sat|sun|y)){0,3}", fullmatch=True
    ),
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=12),
)
separator = st.sampled_from((" ", "  ", "\t", "\n", "\u00a0", "\u3000", " \r\n "))


@st.composite
def command_text(draw: st.DrawFn) -> str:
    """What someone might type after /paperclub."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=200))
    words = [draw(st.sampled_from(SUBCOMMANDS)), *draw(st.lists(token, max_size=5))]
    sep = draw(separator)
    return sep.join(words)


@dataclass
class World:
    """The real bot on a FakeClock with today's posts made, shared by the examples."""

    fake: FakeSlack
    slack: SlackBot
    database: Database
    lookup: Any
    post_values: list[str]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One workspace for all examples (hypothesis runs many inputs per test function)."""
    folder: Path = tmp_path_factory.mktemp("fuzz")
    with FakeSlack(ts_base=int(MONDAY_9.timestamp()) - 86_400) as fake:
        fake.add_channel("C0001", "general")
        fake.add_channel("C0002", "payload-club")
        fake.add_user(ADMIN, "ana", is_admin=True)
        fake.add_user(MEMBER, "bo")
        url = prepare_database(
            folder / "club.db", channels=["C0001", "C0002"], schedule=BERLIN_WEEKDAYS
        )
        database = Database(url=url)
        settings_ = slack_settings(fake, url)
        slack = build_slack_bot(
            settings=settings_, database=database, clock=FakeClock(MONDAY_9), mode="socket"
        )
        try:
            posting.post_due(poster=slack.poster, now=MONDAY_9)
            values = []
            for channel in ("C0001", "C0002"):
                for message in daily_posts(fake, channel):
                    actions = next(b for b in message["blocks"] if b["type"] == "actions")
                    values.append(str(actions["elements"][0]["value"]))
            lookup = make_lookup(settings=settings_)
            yield World(
                fake=fake, slack=slack, database=database, lookup=lookup, post_values=values
            )
        finally:
            slack.close()
            database.dispose()


def _call(world: World, *, user: str, channel: str, admins: tuple[str, ...]) -> Any:
    """An Invocation as the /paperclub listener builds it."""
    return commands.Invocation(
        uow=world.database,
        chat=world.slack.chat,
        poster=world.slack.poster,
        channel=ChannelKey(platform="slack", workspace="T0001", channel=channel),
        user=user,
        admins=admins,
        defaults=BERLIN_WEEKDAYS,
        now=MONDAY_9,
        lookup=world.lookup,
        telemetry=world.slack.poster.telemetry,
        semantic_extra=world.slack.poster.semantic_extra,
    )


def _no_tracebacks(trap: LogTrap) -> None:
    found = trap.tracebacks()
    assert not found, found[0]


def fuzz(examples: int) -> settings:
    """No deadline (the database is real), no example database (the tests leave no files);
    the same examples on every default (CI) run, fresh ones under PAPERCLUB_SLOW=1."""
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=not SLOW,
        suppress_health_check=[HealthCheck.too_slow],
    )


@pytest.mark.timeout(scaled(300, 3600))
@fuzz(scaled(800, 20_000))
@given(
    text=command_text(),
    user=st.sampled_from((ADMIN, MEMBER, "U0NOBODY", "")),
    channel=st.sampled_from(("C0001", "C0002", "C0NEW", "")),
    admins=st.sampled_from(((ADMIN,), ())),
)
@example(text="schedule 09:00 Europe/Berlin mon-fri", user=ADMIN, channel="C0001", admins=())
@example(text="schedule 25:00", user=ADMIN, channel="C0001", admins=(ADMIN,))
@example(text="add 2104.04473", user=MEMBER, channel="C0001", admins=(ADMIN,))
@example(text="next", user=MEMBER, channel="C0001", admins=(ADMIN,))
def test_every_command_text_gets_a_reply(
    world: World, text: str, user: str, channel: str, admins: tuple[str, ...]
) -> None:
    with trap_logs() as trap:
        reply = commands.handle(
            call=_call(world, user=user, channel=channel, admins=admins), text=text
        )
    assert isinstance(reply.text, str) and reply.text.strip(), repr(text)
    _no_tracebacks(trap)


@pytest.mark.parametrize("zone", DIRECTORY_ZONES)
def test_a_time_zone_folder_gets_a_clean_refusal(world: World, zone: str) -> None:
    with trap_logs() as trap:
        reply = commands.handle(
            call=_call(world, user=ADMIN, channel="C0001", admins=(ADMIN,)),
            text=f"schedule 09:00 {zone}",
        )
    assert "time zone" in reply.text
    _no_tracebacks(trap)


@pytest.mark.timeout(scaled(300, 3600))
@fuzz(scaled(300, 2000))
@given(
    text=command_text(),
    user=st.sampled_from((ADMIN, MEMBER)),
    channel=st.sampled_from((("C0001", "general"), ("C0002", "payload-club"))),
)
def test_slash_commands_through_bolt_are_answered(
    world: World, text: str, user: str, channel: tuple[str, str]
) -> None:
    url = world.fake.new_response_url()
    body = slash_command_payload(
        text=text, user_id=user, channel_id=channel[0], channel_name=channel[1], response_url=url
    )
    with trap_logs() as trap:
        response = world.slack.app.dispatch(BoltRequest(body=body, mode="socket_mode"))
        assert response.status == 200, (text, response.body)
        # The answer comes from a lazy listener, after the ack, through response_url.
        answer = world.fake.wait_response(url, timeout=15)
    assert isinstance(answer.get("text"), str) and answer["text"].strip(), repr(text)
    _no_tracebacks(trap)


# -- interactions and events ------------------------------------------------------------------
# Mangled within Slack's own schema: a string field holds any string or is missing, an object
# field any object of the right shape or is missing. (A float where Slack always sends an
# object is no input a Slack app can receive; see the module docstring.)

MISSING = object()
some_text = st.one_of(st.text(max_size=30), st.sampled_from(("", " ", "null", "0", "U0001")))
post_value = st.one_of(
    st.sampled_from(("1", "2", "0", "-1", "01", "1.0", " 1", "9" * 19, "9" * 40, "1e3", "")),
    st.from_regex(r"[0-9]{1,25}", fullmatch=True),
    some_text,
)
ts_text = st.one_of(
    st.sampled_from(("1767513600.000100", "1767513600.000200", "1.0", "", "abc")),
    st.from_regex(r"1767[0-9]{6}\.[0-9]{6}", fullmatch=True),
    some_text,
)


def _put(target: dict[str, Any], key: str, value: object) -> None:
    """Set a field, or leave it out."""
    if value is MISSING:
        target.pop(key, None)
    else:
        target[key] = value


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The value, or the field left out."""
    return st.one_of(strategy, st.just(MISSING))


@st.composite
def button_click(draw: st.DrawFn, values: list[str], response_url: str) -> dict[str, Any]:
    """A block_actions payload with its inner fields mangled."""
    action_id = draw(
        st.sampled_from((ids.VOTE_UP, ids.VOTE_DOWN, ids.VOTE_UP, "other_action", ids.SEARCH_MORE))
    )
    body = block_actions_payload(
        action_id,
        "1",
        user_id=draw(st.one_of(st.sampled_from((MEMBER, ADMIN)), some_text)),
        channel_id=draw(st.one_of(st.sampled_from(("C0001", "C0002", "C0NOPE")), some_text)),
        message_ts=draw(ts_text),
        block_id=ids.VOTE_BLOCK,
        response_url=response_url,
    )
    action = body["actions"][0]
    more = st.builds(
        lambda q, o: more_value(text=q, offset=o), st.text(max_size=40), st.integers(0, 500)
    )
    _put(action, "value", draw(maybe(st.one_of(st.sampled_from(values), post_value, more))))
    _put(action, "action_ts", draw(maybe(ts_text)))
    _put(body, "user", draw(maybe(st.fixed_dictionaries({}, optional={"id": some_text}))))
    _put(
        body,
        "container",
        draw(
            maybe(
                st.fixed_dictionaries(
                    {"type": st.sampled_from(("message", "view"))},
                    optional={"message_ts": ts_text, "channel_id": some_text},
                )
            )
        ),
    )
    _put(body, "channel", draw(maybe(st.fixed_dictionaries({}, optional={"id": some_text}))))
    _put(body, "message", draw(maybe(st.fixed_dictionaries({}, optional={"ts": ts_text}))))
    return body


@st.composite
def odd_event(draw: st.DrawFn) -> dict[str, Any]:
    """An Events API callback with a plausible type and mangled fields."""
    kinds = (
        "reaction_added",
        "reaction_removed",
        "message",
        "message",
        "app_mention",
        "member_joined_channel",
        "tokens_revoked",
    )
    kind = draw(st.sampled_from(kinds))
    event: dict[str, Any] = {"type": kind}
    if kind.startswith("reaction"):
        _put(event, "user", draw(maybe(st.one_of(st.sampled_from((MEMBER, "")), some_text))))
        _put(
            event,
            "reaction",
            draw(
                maybe(
                    st.one_of(
                        st.sampled_from(("+1", "thumbsup", "-1::skin-tone-3", "::", "+1::", "")),
                        some_text,
                    )
                )
            ),
        )
        _put(
            event,
            "item",
            draw(
                maybe(
                    st.fixed_dictionaries(
                        {"type": st.sampled_from(("message", "file", "file_comment", ""))},
                        optional={
                            "channel": st.one_of(st.just("C0001"), some_text),
                            "ts": ts_text,
                            "file": some_text,
                        },
                    )
                )
            ),
        )
        _put(event, "event_ts", draw(maybe(ts_text)))
    elif kind == "message":
        subtype = draw(
            st.sampled_from(
                (
                    None,
                    "thread_broadcast",
                    "message_changed",
                    "message_deleted",
                    "file_share",
                    "bot_message",
                    "channel_join",
                    "weird_new_subtype",
                )
            )
        )
        if subtype:
            event["subtype"] = subtype
        inner = st.fixed_dictionaries(
            {},
            optional={
                "ts": ts_text,
                "user": some_text,
                "text": st.text(max_size=50),
                "thread_ts": ts_text,
                "bot_id": some_text,
            },
        )
        for key, value in (
            ("channel", st.one_of(st.just("C0001"), some_text)),
            ("user", st.one_of(st.sampled_from((MEMBER, ADMIN)), some_text)),
            ("ts", ts_text),
            ("thread_ts", ts_text),
            ("text", st.text(max_size=50)),
            ("message", inner),
            ("previous_message", inner),
            ("deleted_ts", ts_text),
        ):
            _put(event, key, draw(maybe(value)))
    else:
        _put(event, "user", draw(maybe(some_text)))
        _put(event, "channel", draw(maybe(some_text)))
    return event


@pytest.mark.timeout(scaled(300, 3600))
@fuzz(scaled(300, 7000))
@given(data=st.data())
def test_mangled_button_clicks_are_acked_or_refused_cleanly(
    world: World, data: st.DataObject
) -> None:
    url = world.fake.new_response_url()
    body = data.draw(button_click(world.post_values, url))
    action_id = body["actions"][0]["action_id"]
    with trap_logs() as trap:
        response = world.slack.app.dispatch(BoltRequest(body=body, mode="socket_mode"))
        if action_id == ids.SEARCH_MORE and response.status == 200:
            # The next page (or a clean refusal) comes from a lazy listener via response_url.
            answer = world.fake.wait_response(url, timeout=15)
            assert isinstance(answer.get("text"), str) and answer["text"].strip()
    ours = action_id in (ids.VOTE_UP, ids.VOTE_DOWN, ids.SEARCH_MORE)
    # Our buttons are always acked; an action the bot does not listen for may get Bolt's 404.
    assert response.status == 200 or (not ours and response.status == 404), (
        response.status,
        json.dumps(body, default=str)[:500],
    )
    _no_tracebacks(trap)


@pytest.mark.timeout(scaled(300, 3600))
@fuzz(scaled(400, 10_000))
@given(event=odd_event(), retry=st.sampled_from((None, "1", "3")))
def test_mangled_events_are_acked_without_a_traceback(
    world: World, event: dict[str, Any], retry: str | None
) -> None:
    body = event_envelope_payload(event)
    headers = {"x-slack-retry-num": retry, "x-slack-retry-reason": "timeout"} if retry else None
    with trap_logs() as trap:
        response = world.slack.app.dispatch(
            BoltRequest(body=body, mode="socket_mode", headers=headers)
        )
    assert response.status == 200, (response.status, json.dumps(event, default=str)[:500])
    _no_tracebacks(trap)
