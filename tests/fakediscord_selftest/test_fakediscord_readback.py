"""What a bot reads back after it was away: reactions and thread history over REST, the
people's actions that happen with or without a session, and per-route rate limits."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Coroutine
from typing import Any

import discord

from tests.fakediscord import FakeDiscord
from tests.fakediscord.client import running

Run = Callable[[Coroutine[Any, Any, None]], None]
MakeClient = Callable[..., discord.Client]


def rest(fake: FakeDiscord, path: str, **query: str | int) -> tuple[int, dict[str, str], Any]:
    """GET an API path as the bot -> (status, headers, JSON body)."""
    url = f"{fake.api_url}{urllib.parse.quote(path)}"
    if query:
        url += "?" + urllib.parse.urlencode(query)
    request = urllib.request.Request(url, headers={"Authorization": f"Bot {fake.token}"})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


def post_by_bot(fake: FakeDiscord, text: str = "today's paper") -> str:
    """A message of the bot's in #general -> its id."""
    stored, _ = fake.state.store.create(
        channel_id=fake.channel_id, author=fake.state.bot_user(), body={"content": text}
    )
    return str(stored["id"])


def test_reactions_are_kept_without_any_session_and_read_back_as_discord_answers(
    fake: FakeDiscord,
) -> None:
    post = post_by_bot(fake)
    people = [fake.add_member(f"p{i}") for i in range(5)]
    assert not fake.people.live
    for person in people:
        assert fake.people.react(post, "👍", user=person)
    assert fake.people.react(post, "👍🏽", user=fake.alice_id)
    assert fake.people.react(post, "paperclub:1234", user=fake.bob_id)
    assert not fake.people.react(post, "👍", user=people[0])  # once per person and emoji
    assert fake.people.unreact(post, "👍", user=people[4])
    status, _, message = rest(fake, f"/channels/{fake.channel_id}/messages/{post}")
    assert status == 200
    assert message["reactions"] == [
        {
            "emoji": {"id": None, "name": "👍"},
            "burst_colors": [],
            "me_burst": False,
            "count": 4,
            "count_details": {"burst": 0, "normal": 4},
            "me": False,
        },
        {
            "emoji": {"id": None, "name": "👍🏽"},
            "burst_colors": [],
            "me_burst": False,
            "count": 1,
            "count_details": {"burst": 0, "normal": 1},
            "me": False,
        },
        {
            "emoji": {"id": "1234", "name": "paperclub", "animated": False},
            "burst_colors": [],
            "me_burst": False,
            "count": 1,
            "count_details": {"burst": 0, "normal": 1},
            "me": False,
        },
    ]
    users = f"/channels/{fake.channel_id}/messages/{post}/reactions/👍"
    _, _, first = rest(fake, users, limit=3)
    assert [u["id"] for u in first] == sorted(people[:4], key=int)[:3]  # by id, ascending
    assert set(first[0]) >= {"id", "username", "global_name", "avatar", "discriminator"}
    _, _, rest_of = rest(fake, users, limit=3, after=first[-1]["id"])
    assert [u["id"] for u in rest_of] == sorted(people[:4], key=int)[3:]
    assert len(rest(fake, users)[2]) == 4  # limit 25 by default
    assert rest(fake, users, type=1)[2] == []  # super reactions: none
    custom = f"/channels/{fake.channel_id}/messages/{post}/reactions/paperclub:1234"
    assert [u["id"] for u in rest(fake, custom)[2]] == [fake.bob_id]
    assert rest(fake, f"/channels/{fake.channel_id}/messages/{post}/reactions/🎉")[2] == []
    unknown = rest(fake, f"/channels/{fake.channel_id}/messages/{post}/reactions/x:99")
    assert (unknown[0], unknown[2]["code"]) == (404, 10014)
    for bad in (0, 101):
        status, _, error = rest(fake, users, limit=bad)
        assert (status, error["code"]) == (400, 50035)
        assert "limit" in error["errors"]


def test_a_thread_lists_its_starter_then_replies_newest_first_in_each_page(
    fake: FakeDiscord,
) -> None:
    post = post_by_bot(fake)
    fake.people.start_thread(post, "the paper", user=fake.alice_id)
    said = [fake.people.say(post, f"reply {i}", user=fake.alice_id) for i in range(5)]
    fake.people.edit(said[1]["id"], "reply 1, edited")
    fake.people.delete(said[2]["id"])
    history = f"/channels/{post}/messages"
    _, _, page = rest(fake, history, after=0, limit=3)
    # The three oldest after the anchor, answered newest first (as GET messages always is).
    assert [m["id"] for m in page] == [said[1]["id"], said[0]["id"], post]
    starter = page[-1]
    assert (starter["type"], starter["message_reference"]["message_id"]) == (21, post)
    assert starter["referenced_message"]["content"] == "today's paper"
    assert page[0]["content"] == "reply 1, edited" and page[0]["edited_timestamp"]
    assert page[1]["edited_timestamp"] is None
    _, _, newer = rest(fake, history, after=page[0]["id"], limit=3)
    assert [m["id"] for m in newer] == [said[4]["id"], said[3]["id"]]  # the deleted one gone
    _, _, older = rest(fake, history, before=said[4]["id"], limit=2)
    assert [m["id"] for m in older] == [said[3]["id"], said[1]["id"]]
    _, _, around = rest(fake, history, around=said[3]["id"], limit=2)
    assert [m["id"] for m in around] == [said[3]["id"], said[1]["id"]]
    assert rest(fake, "/channels/1100000000000009999/messages")[2]["code"] == 10003


def test_enforced_limits_count_down_per_channel_then_answer_429(fake: FakeDiscord) -> None:
    other = fake.add_channel("other")
    fake.limit_rate("GET", "/channels/{c}/messages", limit=2, per=60)
    first = rest(fake, f"/channels/{fake.channel_id}/messages")
    second = rest(fake, f"/channels/{fake.channel_id}/messages")
    third = rest(fake, f"/channels/{fake.channel_id}/messages")
    elsewhere = rest(fake, f"/channels/{other}/messages")
    assert [r[0] for r in (first, second, third, elsewhere)] == [200, 200, 429, 200]
    assert [first[1]["X-RateLimit-Remaining"], second[1]["X-RateLimit-Remaining"]] == ["1", "0"]
    assert first[1]["X-RateLimit-Limit"] == "2"
    assert float(first[1]["X-RateLimit-Reset-After"]) <= 60
    buckets = {r[1]["X-RateLimit-Bucket"] for r in (first, second, third, elsewhere)}
    assert len(buckets) == 1  # one route, one bucket hash; the channel keeps its own budget
    assert elsewhere[1]["X-RateLimit-Remaining"] == "1"
    body = third[2]
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 0 < body["retry_after"] <= 60
    assert int(third[1]["Retry-After"]) >= 1 and third[1]["X-RateLimit-Scope"] == "user"
    # Routes without an enforced limit say plenty is left, each in its own bucket.
    me = rest(fake, "/users/@me")[1]
    assert me["X-RateLimit-Remaining"] == "49"
    assert me["X-RateLimit-Bucket"] not in buckets
    assert fake.state.limits.refused == 1


def test_what_people_do_while_the_bot_is_gone_reaches_no_new_session(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    post = post_by_bot(fake)

    async def scenario() -> None:
        async with running(make_client(), fake):
            assert fake.people.live
        await fake.wait_until_async(lambda: not fake.people.live)  # its socket closed
        fake.people.react(post, "👍", user=fake.alice_id)  # the bot is gone
        fake.people.say(fake.channel_id, "while away", user=fake.alice_id)
        client = make_client()
        heard: list[int] = []
        client.event(_recorder(heard))
        async with running(client, fake):
            fake.people.react(post, "👍", user=fake.bob_id)  # live: delivered
            await client.wait_for("raw_reaction_add", timeout=5)
        assert heard == [int(fake.bob_id)]

    run(scenario())
    assert fake.counts["identifies"] == 2 and fake.counts["replayed"] == 0
    assert fake.people.reactions(post) == {"👍": [fake.alice_id, fake.bob_id]}


def _recorder(heard: list[int]) -> Callable[[discord.RawReactionActionEvent], Any]:
    """An on_raw_reaction_add listener that notes who reacted."""

    async def on_raw_reaction_add(payload: discord.RawReactionActionEvent) -> None:
        heard.append(payload.user_id)

    return on_raw_reaction_add


def test_what_people_do_while_the_connection_is_down_is_replayed_on_resume(
    fake: FakeDiscord, run: Run, make_client: MakeClient
) -> None:
    post = post_by_bot(fake)

    async def scenario() -> None:
        client = make_client()
        async with running(client, fake):
            with fake.disconnected():
                assert not fake.people.live
                fake.people.react(post, "👎", user=fake.alice_id)
            added = await client.wait_for("raw_reaction_add", timeout=5)
            assert (added.user_id, str(added.emoji)) == (int(fake.alice_id), "👎")
            await fake.wait_resumed_async()

    run(scenario())
    assert fake.counts["resumes"] == 1 and fake.counts["replayed"] >= 1
