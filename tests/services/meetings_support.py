"""What the meetings' service tests share: their Monday, a clock a test moves, a typed
/paperclub command's answer, one sweep of the sessions' messages and a message's buttons."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.messages import Buttons, Message, as_plain
from bot.services import commands
from bot.services.session_notices import SessionSender, send_due_notices
from tests.services.conftest import key
from tests.services.memory_chat import MemoryChat
from tests.services.support import invocation

C1 = key("C1")
# Monday 2 March 2026, 09:00 UTC: the meetings' Thursdays follow.
MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@dataclass
class Clock:
    """A clock a test moves."""

    at: datetime

    def now(self) -> datetime:
        """The instant set."""
        return self.at


def said(
    database: Database,
    chat: MemoryChat,
    text: str,
    *,
    user: str = "UADMIN",
    now: datetime = MONDAY,
    channel: ChannelKey = C1,
) -> str:
    """What /paperclub `text` answers, as plain text."""
    call = invocation(database, chat, channel, user=user, now=now)
    return as_plain(message=commands.handle(call=call, text=text).message)


def sweep(database: Database, chat: MemoryChat, *, now: datetime, owner: str = "h:1:a") -> int:
    """One sweep's session messages (every other claim's owner taken for dead)."""
    sender = SessionSender(
        uow=database, chat=chat, platform="slack", owner=owner, owner_alive=lambda _o: False
    )
    return send_due_notices(sessions=sender, now=now)


def buttons(message: Message) -> list[tuple[str, str, str]]:
    """A message's buttons as (label, action, value)."""
    return [
        (b.label, b.action, b.value)
        for block in message.blocks
        if isinstance(block, Buttons)
        for b in block.buttons
    ]
