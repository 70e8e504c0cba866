"""The real SlackChat reading posts back from the fake Slack: reactions (reactions.get),
threads (conversations.replies) and the crash look-up (find_post), within Slack's limits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.domain import ChannelKey
from bot.ports.readback import ReadBack, SeenReaction, SeenReply
from bot.services.telemetry import Telemetry
from bot.slack import ids
from bot.slack.chat import SlackChat
from bot.slack.client import make_client
from bot.slack.pacing import NON_MARKETPLACE, HistoryLimits, Pacer
from bot.slack.readback import SlackReadBack
from tests.fakeslack import FakeSlack

CHANNEL = "C0001"
KEY = ChannelKey(platform="slack", workspace="T0001", channel=CHANNEL)
VOTES = frozenset({"+1", "thumbsup", "-1"})
HOSTILE = "<!channel> *bold* <https://evil.test|click> &amp; " + "💥" * 3000


def _chat(fake: FakeSlack, *, limits: str = "tiers", pacer: Pacer | None = None) -> SlackChat:
    """SlackChat as single.py wires it: a reader client without slack_sdk's 429 retries."""
    telemetry = Telemetry()
    client = make_client(token=fake.bot_token, base_url=fake.base_url, telemetry=telemetry)
    reader_client = make_client(
        token=fake.bot_token, base_url=fake.base_url, telemetry=telemetry, rate_limit_retries=False
    )
    reader = SlackReadBack(client=reader_client, limits=HistoryLimits(kind=limits), pacer=pacer)
    return SlackChat(client=client, post_client=client, reader=reader)


@pytest.fixture
def limited() -> Iterator[FakeSlack]:
    """A fake under the non-Marketplace limits, one history call a second."""
    with FakeSlack(history_window=1) as f:
        f.add_channel(CHANNEL, "general")
        yield f


def _post(fake: FakeSlack) -> str:
    return str(fake.client().chat_postMessage(channel=CHANNEL, text="paper")["ts"])


def test_slack_chat_offers_readback(fake: FakeSlack) -> None:
    assert isinstance(_chat(fake), ReadBack)


def test_reactions_read_back_per_person_skin_tones_kept_bot_left_out(fake: FakeSlack) -> None:
    ts = _post(fake)
    fake.client().reactions_add(channel=CHANNEL, timestamp=ts, name="+1")  # the bot's own
    for n in range(120):
        fake.people.react(f"U1{n:04d}", CHANNEL, ts, "+1")
    fake.people.react("U0001", CHANNEL, ts, "+1::skin-tone-4")
    fake.people.react("U0001", CHANNEL, ts, "tada")  # not a vote
    fake.people.react("U0002", CHANNEL, ts, "-1")
    fake.people.react("U0002", CHANNEL, ts, "thumbsup")
    fake.people.unreact("U0002", CHANNEL, ts, "thumbsup")
    seen = _chat(fake).reactions_on(channel=KEY, message_id=ts, names=VOTES)
    assert len(seen) == 122
    assert SeenReaction(user="U0001", name="+1::skin-tone-4", emoji="+1::skin-tone-4") in seen
    assert SeenReaction(user="U0002", name="-1", emoji="-1") in seen
    assert all(r.user != fake.bot_user_id for r in seen)
    assert {r.name for r in seen} == {"+1", "+1::skin-tone-4", "-1"}
    assert fake.calls("reactions.get")[-1]["full"] in ("1", True)


def test_hostile_reaction_names_are_data(fake: FakeSlack) -> None:
    ts = _post(fake)
    fake.people.react("U0001", CHANNEL, ts, "<script>::skin-tone-2")
    fake.people.react("U0001", CHANNEL, ts, "+1")
    chat = _chat(fake)
    seen = chat.reactions_on(channel=KEY, message_id=ts, names=frozenset({"<script>"}))
    assert seen == [
        SeenReaction(user="U0001", name="<script>::skin-tone-2", emoji="<script>::skin-tone-2")
    ]


def test_a_thread_of_40_read_in_pages_of_15_with_429s_waited_out(limited: FakeSlack) -> None:
    ts = _post(limited)
    written = [limited.people.reply(f"U{n % 7:04d}", CHANNEL, ts, f"r{n}").ts for n in range(40)]
    limited.people.edit(CHANNEL, written[3], HOSTILE)
    limited.people.delete(CHANNEL, written[5])
    limited.client().chat_postMessage(channel=CHANNEL, thread_ts=ts, text="the bot's own")
    chat = _chat(limited, limits=NON_MARKETPLACE)
    replies: list[SeenReply] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = chat.thread_page(channel=KEY, message_id=ts, cursor=cursor)
        replies += page.replies
        pages += 1
        if page.cursor is None:
            break
        cursor = page.cursor
    assert [r.message_id for r in replies] == [t for t in written if t != written[5]]
    assert replies[3].text == HOSTILE.replace("&amp;", "&").replace(
        "<!channel>", "@channel"
    ).replace("<https://evil.test|click>", "click (https://evil.test)")
    assert replies[3].edited_at is not None and replies[0].edited_at is None
    assert replies[0].written_at.timestamp() == pytest.approx(float(written[0]))
    asked = limited.requests("conversations.replies")
    assert {c.params["limit"] for c in asked} == {"15"}
    assert pages == 3 and any(c.status == 429 for c in asked)
    # The wait was remembered: after the first 429, every call waited first and got through.
    assert sum(c.status == 429 for c in asked) == 1


def test_no_thread_is_an_empty_last_page(fake: FakeSlack) -> None:
    ts = _post(fake)
    chat = _chat(fake)
    page = chat.thread_page(channel=KEY, message_id=ts, cursor=None)
    assert page.replies == () and page.cursor is None
    gone = chat.thread_page(channel=KEY, message_id="1600000000.000100", cursor=None)
    assert gone.replies == () and gone.cursor is None


def test_find_post_under_the_limits(limited: FakeSlack) -> None:
    chat = _chat(limited, limits=NON_MARKETPLACE)
    metadata = {"event_type": ids.METADATA_EVENT_TYPE, "event_payload": {"post_id": 7}}
    posted = limited.client().chat_postMessage(channel=CHANNEL, text="p", metadata=metadata)
    for n in range(40):
        limited.add_message(CHANNEL, f"chatter {n}", "U0001")
    limited.client().conversations_history(channel=CHANNEL)  # the allowance is spent
    found = chat.find_post(channel=KEY, post_id=7, since=None)
    assert found is not None and found.message_id == posted["ts"]
    asked = limited.requests("conversations.history")
    assert all(c.params.get("limit") == "15" for c in asked[1:])
    assert any(c.status == 429 for c in asked)


def test_a_halted_pacer_gives_up_at_once(limited: FakeSlack) -> None:
    ts = _post(limited)
    pacer = Pacer()
    chat = _chat(limited, limits=NON_MARKETPLACE, pacer=pacer)
    limited.limits.non_marketplace(window=600)
    chat.thread_page(channel=KEY, message_id=ts, cursor=None)
    pacer.halt()
    with pytest.raises(Exception) as info:
        chat.thread_page(channel=KEY, message_id=ts, cursor=None)
    assert getattr(info.value, "code", None) == "stopping"


def test_more_to_read_without_a_cursor_is_an_incomplete_read_not_the_end() -> None:
    """Taken as the last page, the unread replies would count as deleted."""
    from typing import Any, cast

    from bot.ports import ChatError
    from bot.slack.readback import _next_cursor

    def answer(body: dict[str, Any]) -> Any:
        return cast(Any, body)

    assert _next_cursor(answer=answer({"has_more": False, "response_metadata": {}})) is None
    assert _next_cursor(answer=answer({"response_metadata": {"next_cursor": "c2"}})) == "c2"
    with pytest.raises(ChatError):
        _next_cursor(answer=answer({"has_more": True, "response_metadata": {"next_cursor": ""}}))
