"""What a channel is told, unasked, about its Zotero link: it stopped working (said once per
run of failures, until a sync works again)."""

from __future__ import annotations

from bot.messages import Code, Message, Strong, line, message


def failing(*, library: str, reason: str) -> Message:
    """The link to `library` ("groups/123") failed in a way a person must fix (a revoked key,
    a library it may no longer write to). `reason` is the sync's, never the key."""
    return message(
        line(Strong("For the admins: "), f"Zotero sync with {library} has stopped working."),
        line(f"Why: {reason}", quiet=True),
        line(
            "It is tried again by itself; ",
            Code("/paperclub watch zotero connect"),
            " with a new key resumes where it stopped, ",
            Code("/paperclub watch zotero disconnect"),
            " ends it.",
            quiet=True,
        ),
    )
