"""Sending one claimed daily post so that it lands exactly once, whatever the platform answers.

A Chat makes one attempt and says what it did: posted, posted nothing (a clear refusal), or
maybe posted (a timeout, a 5xx, a dropped connection). Only the last one is retried, and never
blindly: after a pause the channel's history is searched for the post first, since the message
may be there already. Every platform gets this same policy; posting.py claims the day before
calling it and records what it returns.
"""

from __future__ import annotations

import logging

from bot.domain import ChannelKey, PaperCard, PostedMessage
from bot.ports import Chat, ChatError
from bot.ports.platform import MaybePosted, Posted, PostedNothing

log = logging.getLogger(__name__)

# Attempts at one post before its outcome is left unknown (the claim then waits for its lease
# to end, and whoever takes it over looks in history first).
POST_ATTEMPTS = 3


def post_paper(*, chat: Chat, channel: ChannelKey, card: PaperCard) -> PostedMessage:
    """Post a daily paper: the message, whether this call or an earlier attempt posted it.

    ChatError when it did not land: `posted_nothing` only after a clear refusal, so the caller
    may give the paper back; otherwise (every attempt unknown, or history unreadable) the post
    may exist and its claim must be kept.
    """
    for attempt in range(1, POST_ATTEMPTS + 1):
        match chat.try_post(channel=channel, card=card):
            case Posted(message=message):
                return message
            case PostedNothing(error=error):
                raise error
            case MaybePosted(error=error):
                if attempt == POST_ATTEMPTS:
                    raise error
        log.warning("posting to %s failed (%s); checking history", channel, error.code)
        chat.pause(seconds=float(attempt))
        try:
            found = chat.find_post(channel=channel, post_id=card.post_id, since=None, card=card)
        except ChatError as lookup:
            # The post may have landed: whatever the history check says, the outcome stays
            # unknown, so the claim is kept and resolved later, never released.
            raise ChatError(code=lookup.code, hint=lookup.hint, posted_nothing=False) from None
        if found is not None:
            return found
    raise AssertionError("unreachable: the loop returns or raises")
