"""The messages about sessions, each sent once by the minute sweep (bot/services/notices_once):
reminders (bot/services/meeting_reminders), a poll's opening and result
(bot/services/meeting_polls) and the question after a session (bot/services/session_ratings);
and the presenters chosen and told (bot/services/presenting, at most once: a direct message is
in no channel's history). A pass brings each channel's sessions up to date, sends again what a
crash or a refusal left unsent (not once its session began), then opens and sends what fell due.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey
from bot.messages import Message
from bot.ports import ArchiveUnavailable, Chat, UnitOfWork
from bot.ports.meetings import MeetingsStore, SessionRecord
from bot.ports.papers import PapersStore
from bot.ports.polls import PollsStore
from bot.ports.posts import ChannelsStore
from bot.ports.presenters import PresentersStore
from bot.ports.session_memory import SessionMemoryStore
from bot.services import meeting_polls, meeting_reminders, notices_once, presenting, session_ratings
from bot.services.meeting_sessions import bring_up_to_date

log = logging.getLogger("paperclub")

# An unsent notice is looked at again for this long after it was opened.
RETRY_FOR = timedelta(days=1)


class Needs(
    MeetingsStore,
    PollsStore,
    PresentersStore,
    PapersStore,
    ChannelsStore,
    SessionMemoryStore,
    Protocol,
):
    """The roles the sessions' messages use."""


class _NoticeNoting:
    """notices_once.Noting for a session's notices."""

    def claim(
        self, store: Needs, *, record_id: int, owner: str, now: datetime, holder: str | None
    ) -> bool:
        """Take or renew the notice's claim."""
        return store.claim_notice(notice_id=record_id, owner=owner, now=now, holder=holder)

    def refused(self, store: Needs, *, record_id: int, at: datetime | None) -> None:
        """Note the notice refused (None: tried again)."""
        store.notice_refused(notice_id=record_id, at=at)

    def sent(self, store: Needs, *, record_id: int, message_id: str) -> None:
        """Note the notice's message."""
        store.notice_sent(notice_id=record_id, message_id=message_id)


@dataclass(frozen=True, slots=True)
class SessionSender:
    """Who sends a platform's session messages: the archive, its Chat, this process's claim
    name and how to tell that a claim's process died."""

    uow: UnitOfWork[Needs]
    chat: Chat
    platform: str
    owner: str
    owner_alive: notices_once.OwnerAlive

    def sender(self) -> notices_once.Sender[Needs]:
        """How its messages go out once."""
        return notices_once.Sender(
            uow=self.uow,
            noting=_NoticeNoting(),
            chat=self.chat,
            owner=self.owner,
            owner_alive=self.owner_alive,
            what="session message",
        )


def message_of(*, store: Needs, record: SessionRecord, kind: str, now: datetime) -> Message:
    """A session's notice of this kind as it reads now."""
    if kind.startswith(meeting_reminders.KIND):
        return meeting_reminders.shown(store=store, record=record, kind=kind, now=now)
    if kind == session_ratings.KIND:
        return session_ratings.shown(store=store, record=record, kind=kind, now=now)
    return meeting_polls.shown(store=store, record=record, kind=kind, now=now)


def _too_late(*, record: SessionRecord | None, kind: str, now: datetime) -> bool:
    """Whether a notice left unsent is past saying: its session cancelled or begun (a poll's
    result is still worth saying until the session ends; the question after it, for
    session_ratings.WINDOW after that)."""
    if record is None or record.cancelled:
        return True
    if kind == session_ratings.KIND:
        return session_ratings.too_late(record=record, now=now)
    ends = record.session.end if kind == meeting_polls.RESULT else record.session.start
    return ends <= now


def send_due_notices(*, sessions: SessionSender, now: datetime) -> int:
    """Bring the platform's sessions up to date, then send every message that is due; how
    many went out (one found in the history counts: it is out). Unsent ones go first."""
    uow, sender = sessions.uow, sessions.sender()
    with uow(write=False) as store:
        channels = store.meeting_channels(platform=sessions.platform, now=now)
        unsent = store.unsent_notices(platform=sessions.platform, since=now - RETRY_FOR)
    sent = 0
    for notice in unsent:
        with uow(write=False) as store:
            record = store.session_record(session_id=notice.session_id)
            if record is None or _too_late(record=record, kind=notice.kind, now=now):
                continue
            message = message_of(store=store, record=record, kind=notice.kind, now=now)
        sent += notices_once.send_again(sender=sender, record=notice, shown=message, now=now)
    for channel in channels:
        try:
            sent += _channel_pass(sessions=sessions, sender=sender, channel=channel, now=now)
        except ArchiveUnavailable:
            raise  # every channel waits alike: the sweep says so once
        except Exception:  # one channel's fault (a bad setting) stops no other channel
            log.exception("the sessions of %s failed; the other channels go on", channel)
    return sent


def _channel_pass(
    *,
    sessions: SessionSender,
    sender: notices_once.Sender[Needs],
    channel: ChannelKey,
    now: datetime,
) -> int:
    """One channel's turn: its sessions up to date, its presenters, then its due messages."""
    uow = sessions.uow
    sent = 0
    bring_up_to_date(uow=uow, channel=channel, now=now)
    presenting.choose_due(uow=uow, channel=channel, now=now)
    presenting.tell_due(uow=uow, chat=sessions.chat, channel=channel, now=now)
    opened = meeting_polls.open_due(uow=uow, owner=sessions.owner, channel=channel, now=now)
    opened += meeting_reminders.open_due(uow=uow, owner=sessions.owner, channel=channel, now=now)
    opened += session_ratings.open_due(uow=uow, owner=sessions.owner, channel=channel, now=now)
    for notice, record in opened:
        with uow(write=False) as store:
            message = message_of(store=store, record=record, kind=notice.kind, now=now)
        sent += notices_once.send(
            sender=sender, record_id=notice.id, channel=channel, shown=message, now=now
        )
    return sent
