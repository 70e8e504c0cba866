"""Learning what the platform calls channels and people, so the web archive shows #general and
display names where the archive holds ids.

The minute sweep asks for the names the archive lacks (a channel it follows, a person who voted,
commented or presented a session) or holds for over a day, a batch at a time; a name the
platform cannot give is kept as unknown ("") for a day too, so nobody is asked about every
minute.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey
from bot.ports import Chat, NamesStore, UnitOfWork
from bot.ports.names import CHANNEL, PERSON, NameWanted

log = logging.getLogger("paperclub")

REFRESH = timedelta(days=1)
# Names asked per sweep and platform: users.info is Slack's Tier 4 (100+ a minute) and
# conversations.info Tier 3 (50+), so a large archive is named over a few minutes.
BATCH = 40


class Needs(NamesStore, Protocol):
    """The roles of the archive this service uses."""


def learn(*, uow: UnitOfWork[Needs], chat: Chat, platform: str, now: datetime) -> int:
    """Ask the platform for the names it lacks or holds for over a day; how many were asked."""
    with uow(write=False) as store:
        wanted = store.names_wanted(platform=platform, before=now - REFRESH, limit=BATCH)
    by_channel: dict[ChannelKey, list[NameWanted]] = {}
    for item in wanted:
        by_channel.setdefault(item.channel, []).append(item)
    for key, items in by_channel.items():
        people = [item.external_id for item in items if item.kind == PERSON]
        answer = chat.names_of(channel=key, people=people)
        asked_channel = answer.channel is not None or any(i.kind == CHANNEL for i in items)
        with uow() as store:
            if asked_channel:
                store.record_names(
                    workspace=key.workspace_key,
                    kind=CHANNEL,
                    names={key.channel: answer.channel or ""},
                    now=now,
                )
            store.record_names(
                workspace=key.workspace_key,
                kind=PERSON,
                names={person: answer.people.get(person, "") for person in people},
                now=now,
            )
    if wanted:
        log.debug("asked %s for %d name(s)", platform, len(wanted))
    return len(wanted)
