"""The console's read-eval-print loop: what a Slack member does, typed at a prompt.

`/paperclub ...` runs a command, `+1` / `-1` votes on today's post (the same again
withdraws), and any other line is a reply in today's thread. Everything goes through the
same services as Slack, so export and search see it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.console.chat import CHANNEL, USER, ConsoleChat
from bot.console.render import search_text
from bot.domain import Post, Schedule
from bot.ports import Clock, PaperLookup, UnitOfWork
from bot.services import commands, comments, posting, voting

PLATFORM = "console"
HINT = "Type /paperclub help, +1 or -1 to vote, or anything else to comment. Ctrl-D leaves."
VOTES = {"+1": 1, "-1": -1, ":+1:": 1, ":-1:": -1, "👍": 1, "👎": -1}


@dataclass(frozen=True, slots=True)
class Console:
    """The services' inputs for the terminal platform."""

    uow: UnitOfWork
    chat: ConsoleChat
    poster: posting.Poster
    clock: Clock
    defaults: Schedule
    on_reschedule: Callable[[], None]
    lookup: PaperLookup


def todays_post(*, app: Console) -> Post | None:
    """Today's delivered post in #console (in the channel's own time zone)."""
    with app.uow(write=False) as store:
        channel = store.channel(platform=PLATFORM, channel_id=CHANNEL)
        if channel is None:
            return None
        today = app.clock.now().astimezone(ZoneInfo(channel.schedule.timezone)).date()
        post = store.post_on(channel=channel, local_date=today)
    return post if post is not None and post.ts is not None else None


def handle_line(*, app: Console, line: str) -> None:
    """Act on one typed line."""
    text = line.strip()
    if not text:
        return
    if text.startswith("/paperclub") or text.startswith("/"):
        _command(app=app, text=text)
        return
    post = todays_post(app=app)
    if post is None or post.ts is None:
        app.chat.say(text="There is no paper today yet. `/paperclub next` posts one now.")
        return
    now = app.clock.now()
    event_id = f"console:{uuid.uuid4().hex}"
    if text in VOTES:
        outcome = voting.click(
            uow=app.uow, post_id=post.id, user=USER, value=VOTES[text], event_id=event_id, now=now
        )
        found = posting.card_of_post(uow=app.uow, platform=PLATFORM, post_id=post.id)
        if outcome.changed and found is not None:
            app.chat.update_post(channel=CHANNEL, ts=post.ts, card=found[1])
        return
    message = comments.ThreadMessage(
        platform=PLATFORM, channel_id=CHANNEL, thread_ts=post.ts, ts=app.chat.new_ts(),
        user=USER, event_id=event_id, now=now,
    )  # fmt: skip
    comments.reply(uow=app.uow, message=message, text=text)
    app.chat.say(text="💬 Saved your comment in today's thread.")


def _command(*, app: Console, text: str) -> None:
    """Run a /paperclub command as the console's admin."""
    name, _, rest = text.partition(" ")
    if name != "/paperclub":
        app.chat.say(text=f"Only `/paperclub` works here, not `{name[:30]}`. {HINT}")
        return
    call = commands.Invocation(
        uow=app.uow, chat=app.chat, poster=app.poster, platform=PLATFORM, team_id="",
        channel_id=CHANNEL, user=USER, admins=(USER,), defaults=app.defaults, now=app.clock.now(),
        lookup=app.lookup,
    )  # fmt: skip
    reply = commands.handle(call=call, text=rest)
    if reply.reschedule:
        app.on_reschedule()
    app.chat.say(text=search_text(result=reply.search) if reply.search else reply.text)
