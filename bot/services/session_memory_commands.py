"""`/paperclub sessions rate worth|not|lively|quiet [date]` and `/paperclub sessions notes
[<link>] [date]`: what the rating message's buttons do, typed (the console's way to press
them), and the links (notes, slides) a member adds to a past session. Verbs of `sessions`, not
subcommands of their own: Discord holds 25 in the command group.

A link is kept only as an http(s) address a chat shows as a link and nothing else: no spaces,
quotes, angle brackets or other characters a chat's markup reads, no user name or password
before the host (`https://good.example@evil.example` looks like one site and is another)."""

from __future__ import annotations

from datetime import date
from urllib.parse import urlsplit

from bot.meetings.meeting_text import MeetingTextError, read_date
from bot.services.invocation import Invocation
from bot.services.reply import Reply
from bot.services.session_ratings import past_session
from bot.wording import ratings as words

VERBS = ("rate", "notes")
# The longest link kept (schema_session_memory.MAX_LINK): chats and browsers take about 2,000.
LINK_LIMIT = 2000
# Printable ASCII but these, which a chat's markup or a quoted attribute reads.
_UNSAFE = frozenset("<>\"'`\\^{}|")
# The typed word for each rating button (`rate worth`), by its action.
_ANSWERS = {word: words.RATE_ACTIONS[action] for action, word in words.RATE_WORDS.items()}

# Links a session keeps: the message after it lists them, and a platform cuts a long one.
MAX_LINKS = 10


def read_link(*, word: str) -> str | None:
    """An http(s) link as typed, or None when it is not one to keep (see the module)."""
    if not word or len(word) > LINK_LIMIT:
        return None
    if any(not 33 <= ord(c) < 127 or c in _UNSAFE for c in word):
        return None
    try:
        parts = urlsplit(word)
        _ = parts.port  # a port that is no number raises
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    if "@" in parts.netloc:
        return None
    return word


def _date_of(args: list[str]) -> tuple[bool, date | None]:
    """The optional date after a verb's word: whether the rest read, and the date."""
    if not args:
        return True, None
    if len(args) > 1:
        return False, None
    try:
        return True, read_date(word=args[0])
    except MeetingTextError:
        return False, None


def after(*, call: Invocation, verb: str, args: list[str]) -> Reply:
    """`sessions rate ...` or `sessions notes ...`."""
    return rate(call=call, args=args) if verb == "rate" else notes(call=call, args=args)


def rate(*, call: Invocation, args: list[str]) -> Reply:
    """`rate worth|not|lively|quiet [date]`: the member's answer for the last session held."""
    found = _ANSWERS.get(args[0].lower()) if args else None
    read, day = _date_of(args[1:])
    if found is None or not read:
        return Reply(message=words.RATE_USAGE)
    question, answer = found
    with call.uow() as store:
        record = past_session(store=store, channel=call.channel, now=call.now, day=day)
        if record is None:
            return Reply(message=words.NO_SESSION)
        changed = store.rate_session(
            session_id=record.id, user=call.user, question=question, answer=answer, now=call.now
        )
    return Reply(
        message=words.rated(record=record, question=question, answer=answer, changed=changed)
    )


def notes(*, call: Invocation, args: list[str]) -> Reply:
    """`notes` (the last session's links), `notes <link> [date]` (add one)."""
    if not args:
        with call.uow(write=False) as store:
            record = past_session(store=store, channel=call.channel, now=call.now, day=None)
            links = store.session_links(session_id=record.id) if record is not None else []
        if record is None:
            return Reply(message=words.NO_SESSION)
        return Reply(message=words.links_said(record=record, links=links))
    url = read_link(word=args[0])
    read, day = _date_of(args[1:])
    if url is None or not read:
        return Reply(message=words.NOTES_USAGE)
    with call.uow() as store:
        record = past_session(store=store, channel=call.channel, now=call.now, day=day)
        if record is None:
            return Reply(message=words.NO_SESSION)
        if len(store.session_links(session_id=record.id)) >= MAX_LINKS:
            return Reply(message=words.TOO_MANY_LINKS)
        added = store.add_session_link(session_id=record.id, url=url, user=call.user, now=call.now)
    return Reply(message=words.link_added(record=record, url=url, added=added))
