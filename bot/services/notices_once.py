"""A message the bot sends once, whatever crashes, restarts or replicas do: a suggestions tray,
a session's reminder. Its record is opened first (once: unique in the archive) and claimed by
the process that sends it; the message id is noted after the send.

A record opened and never noted (a crash in between, a platform that refused) is sent by a
later pass, but never twice: the channel's history since it was opened is looked at first
(Chat.find_notice, by the message's buttons), since a process killed after the platform took
the message and before it was noted leaves it there (tests/faults). Found, its id is noted
instead; history that cannot be read leaves it unsent until a pass can read it. A send whose
outcome is unknown (a timeout) is noted as sent ("") and not tried again. The claim is renewed
just before each send: another replica takes a record over only from a dead process or one
silent for STALE_CLAIM, and a frozen one that resumes finds its claim gone and sends nothing.
One the platform refused outright (the bot removed from the channel, a missing permission) is
tried again REFUSED_AGAIN later, without a look in the history it cannot be in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Generic, Protocol, TypeVar

from bot.domain import ChannelKey
from bot.messages import Message
from bot.ports import Chat, ChatError, UnitOfWork

log = logging.getLogger("paperclub")

# History is read from this long before a record was opened: the platform's clock may be
# behind ours (its message then looks older than the record).
CLOCK_SKEW = timedelta(minutes=10)
REFUSED_AGAIN = timedelta(minutes=30)
# A claim not renewed for this long is taken over, as a daily post's is.
STALE_CLAIM = timedelta(minutes=5)

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)
# Whether a claim's process may still be running (bot.runtime.process.owner_alive).
OwnerAlive = Callable[[str], bool]


class Record(Protocol):
    """What a record of a message sent once says (ports.sources.Tray, ports.meetings.Notice)."""

    @property
    def id(self) -> int:
        """Its number."""
        ...

    @property
    def channel(self) -> ChannelKey:
        """Where it goes."""
        ...

    @property
    def opened_at(self) -> datetime:
        """When it was opened (history is read from a little before)."""
        ...

    @property
    def claimed_by(self) -> str | None:
        """The process that holds it."""
        ...

    @property
    def claimed_at(self) -> datetime | None:
        """When that process last renewed its claim."""
        ...

    @property
    def refused_at(self) -> datetime | None:
        """When the platform last refused it outright."""
        ...


class Noting(Protocol[S_contra]):
    """How one kind of record is claimed and noted in the archive."""

    def claim(
        self, store: S_contra, *, record_id: int, owner: str, now: datetime, holder: str | None
    ) -> bool:
        """Take or renew the claim if `holder` still holds it; whether `owner` holds it now."""
        ...

    def refused(self, store: S_contra, *, record_id: int, at: datetime | None) -> None:
        """Note an outright refusal (None: a new try is under way)."""
        ...

    def sent(self, store: S_contra, *, record_id: int, message_id: str) -> None:
        """Note the message ("" when it may have gone out)."""
        ...


@dataclass(frozen=True, slots=True)
class Sender(Generic[S]):
    """Who sends one kind of message: the archive and how it notes that kind, the platform's
    Chat, this process's claim name and how to tell that a claim's process died
    (posting.Poster's); `what` names the message in the log."""

    uow: UnitOfWork[S]
    noting: Noting[S]
    chat: Chat
    owner: str
    owner_alive: OwnerAlive
    what: str


def send(
    *, sender: Sender[S], record_id: int, channel: ChannelKey, shown: Message, now: datetime
) -> bool:
    """Send a message whose record this process holds the claim on, renewed first, and note
    it; whether it went out."""
    noting = sender.noting
    with sender.uow() as store:
        if not noting.claim(
            store, record_id=record_id, owner=sender.owner, now=now, holder=sender.owner
        ):
            return False
    try:
        message_id = sender.chat.send_notice(channel=channel, message=shown)
    except ChatError as error:
        log.error("%s to %s failed: %s (%s)", sender.what, channel, error.code, error.hint)
        if error.posted_nothing:  # refused outright: tried again REFUSED_AGAIN later
            with sender.uow() as store:
                noting.refused(store, record_id=record_id, at=now)
            return False
        message_id = ""  # it may be there: never twice
    with sender.uow() as store:
        noting.sent(store, record_id=record_id, message_id=message_id or "")
    return True


def _taken(*, sender: Sender[S], record: Record, now: datetime) -> bool:
    """Whether this process holds the claim on a record opened earlier and never noted,
    taking it over from a process that died or went silent for STALE_CLAIM; False while
    another live process holds it freshly."""
    holder, at = record.claimed_by, record.claimed_at
    if holder is not None and holder != sender.owner:
        fresh = at is not None and now - at < STALE_CLAIM
        if fresh and sender.owner_alive(holder):
            return False
    with sender.uow() as store:
        return sender.noting.claim(
            store, record_id=record.id, owner=sender.owner, now=now, holder=holder
        )


def send_again(*, sender: Sender[S], record: Record, shown: Message, now: datetime) -> bool:
    """Send a message opened earlier and never noted, unless the channel's history shows that
    it went out (noted now instead); whether it is out."""
    if not _taken(sender=sender, record=record, now=now):
        return False
    channel = record.channel
    if record.refused_at is not None:
        if now - record.refused_at < REFUSED_AGAIN:
            return False
        with sender.uow() as store:  # a new try, whose outcome is unknown until it is noted
            sender.noting.refused(store, record_id=record.id, at=None)
        return send(sender=sender, record_id=record.id, channel=channel, shown=shown, now=now)
    try:
        found = sender.chat.find_notice(
            channel=channel, message=shown, since=record.opened_at - CLOCK_SKEW
        )
    except ChatError as error:
        # It may be there: not sent (never twice); the next pass looks again.
        log.warning(
            "cannot look for the %s in %s's history yet: %s (%s)",
            sender.what,
            channel,
            error.code,
            error.hint,
        )
        return False
    if found is None:
        return send(sender=sender, record_id=record.id, channel=channel, shown=shown, now=now)
    with sender.uow() as store:
        sender.noting.sent(store, record_id=record.id, message_id=found)
    log.info("the %s was in %s already; noted it", sender.what, channel)
    return True
