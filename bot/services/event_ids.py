"""The one policy for the dedupe ids of what people do: a platform that redelivers an event (a
retry, a reconnect) must hand the same id again, and two different actions must never share one.

Each platform brings its own uniqueness: Slack's event_id (the same on every retry; its event_ts
stands in when a payload lacks it), a click's action_ts (unique per click of one person on one
post), Discord's interaction and message snowflakes (unique everywhere), the console's random
token. Slack's ids keep the shapes stored before this module existed, as Slack's retries of one
event may straddle an upgrade; Discord's interactions and the console's lines are never
delivered twice, so theirs share the click shape above.
"""

from __future__ import annotations


def click(*, post_id: int, user: str, token: str) -> str:
    """A vote button's click: `token` is unique per click (Slack's action_ts, Discord's
    interaction id, the console's random token)."""
    return f"click:{post_id}:{user}:{token}"


def reaction(
    *,
    delivery: str | None,
    added: bool,
    stamp: str | None,
    message_id: str,
    user: str,
    emoji: str,
) -> tuple[str | None, str | None]:
    """(event id, presence key) of a reaction added or removed. The platform's event id when it
    has one, else its timestamp of the event; a platform with neither (Discord's reactions)
    gets a presence key instead: one person cannot add one reaction twice without taking it
    back between, so an add while it is present is the same event delivered again."""
    if delivery:
        return delivery, None
    if stamp:
        return f"{'reaction_added' if added else 'reaction_removed'}:{stamp}", None
    return None, presence_prefix(message_id=message_id, user=user) + emoji


def presence_prefix(*, message_id: str, user: str) -> str:
    """What every presence key of one person's reactions on one message starts with."""
    return f"{message_presence(message_id=message_id)}{user}:"


def message_presence(*, message_id: str) -> str:
    """What every presence key of reactions on one message starts with (a read-back keeps
    only those of the reactions it still finds)."""
    return f"reaction:{message_id}:"


def thread_message(*, delivery: str | None, kind: str, message_id: str, stamp: str | None) -> str:
    """A reply, edit or delete in a thread (`kind`: message, edit, delete): the platform's event
    id when it has one, else the message and, for platforms that change one message several
    times, the stamp of this change (Slack's event_ts, Discord's edited_at)."""
    if delivery:
        return delivery
    return f"{kind}:{message_id}:{stamp}" if stamp else f"{kind}:{message_id}"
