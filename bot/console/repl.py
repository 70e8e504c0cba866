"""The console's read-eval-print loop: what a chat member does, typed at a prompt.

`/paperclub ...` runs a command, `+1` / `-1` votes on today's post (the same again
withdraws), `more` shows the next page of search results, and any other line is a reply in
today's thread. Everything goes through the same services as every platform, so export and
search see it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.console.chat import KEY, PLATFORM, USER, ConsoleChat
from bot.console.typed import cleaned
from bot.domain import Post
from bot.ports import ArchiveUnavailable
from bot.services.room import Room
from bot.services.thread_event import ThreadEvent
from bot.wording import archive, replies
from bot.wording import console as words

VOTES = {"+1": 1, "-1": -1, ":+1:": 1, ":-1:": -1, "👍": 1, "👎": -1}


@dataclass(frozen=True, slots=True)
class Console:
    """The terminal's Room of the club (it redraws a post inline: ConsoleChat.update_post
    prints the new counts), and its Chat."""

    room: Room
    chat: ConsoleChat


def todays_post(*, app: Console) -> Post | None:
    """Today's delivered post in #console (in the channel's own time zone)."""
    with app.room.uow(write=False) as store:
        channel = store.channel(key=KEY)
        if channel is None:
            return None
        zone = ZoneInfo(channel.schedule.timezone)
        post = store.post_on(
            channel=channel, local_date=app.room.clock.now().astimezone(zone).date()
        )
    return post if post is not None and post.message_id is not None else None


def handle_line(*, app: Console, line: str) -> None:
    """Act on one typed line, cleaned first: no escape sequence or control character of it is
    ever stored, run or voted with; a line that held nothing else is ignored, and said so.
    When the archive cannot take it, the person reads so, as on every platform, and the
    console reads the next line (the cause is logged where it was raised, in bot/db)."""
    text = cleaned(line=line)
    if not text:
        if line.strip():
            app.chat.say(message=words.CONTROL_ONLY)
        return
    if text.startswith("/"):
        _command(app=app, text=text)
        return
    if text.lower() == words.TYPED_ACTIONS[archive.SEARCH_MORE]:
        _more_results(app=app)
        return
    try:
        _in_thread(app=app, text=text)
    except ArchiveUnavailable:  # today's post could not be read, or the comment not written
        app.chat.say(message=replies.VOTE_NOT_SAVED if text in VOTES else replies.NOT_SAVED)


def _in_thread(*, app: Console, text: str) -> None:
    """A vote or a comment on today's post."""
    post = todays_post(app=app)
    if post is None or post.message_id is None:
        app.chat.say(message=words.NO_PAPER_YET)
        return
    token = uuid.uuid4().hex  # nothing at a terminal is delivered twice: any unique token
    if text in VOTES:
        # Typed, not clicked: the metrics count it as the console's own source of votes.
        outcome = app.room.click(
            channel=KEY, post_id=post.id, user=USER, value=VOTES[text], token=token, via=PLATFORM
        )
        if outcome.answer is not None:  # not saved: the counts printed stay as they were
            app.chat.say(message=outcome.answer)
        return
    about = ThreadEvent(
        channel=KEY,
        thread_id=post.message_id,
        message_id=app.chat.new_id(),
        user=USER,
        delivery=f"console:{token}",
    )
    app.room.reply(about=about, text=text)
    app.chat.say(message=words.COMMENT_SAVED)


def _more_results(*, app: Console) -> None:
    """The last answer's 'More results' button, pressed by typing its word."""
    value = app.chat.pressable.get(archive.SEARCH_MORE)
    if value is None:
        app.chat.say(message=words.NOTHING_MORE)
        return
    try:
        reply = app.room.more_results(value=value, viewer=KEY)
    except ArchiveUnavailable:
        app.chat.say(message=replies.NOT_AVAILABLE)
        app.chat.pressable[archive.SEARCH_MORE] = value  # typing it again asks the same page
        return
    app.chat.say(message=archive.STALE_BUTTON if reply is None else reply.message)


def _command(*, app: Console, text: str) -> None:
    """Run a /paperclub command as the console's admin."""
    name, _, rest = text.partition(" ")
    if name != "/paperclub":
        app.chat.say(message=words.only_paperclub(typed=name[:30]))
        return
    reply = app.room.command(channel=KEY, user=USER, text=rest)
    app.chat.say(message=reply.message)
