"""What the bot and the web archive say about signing in to the archive."""

from __future__ import annotations

from bot.messages import Link, Message, line, message

WEB_OFF = message(
    "The web archive hands out no sign-in links here: it is served on its machine only. "
    "Ask whoever runs Paper Club for its address."
)
WEB_HERE = message(
    "On the console the web archive is yours alone: run `paperclub web` in another terminal "
    "and open the address it prints (or set PAPERCLUB_WEB_PORT before `paperclub run`)."
)
NO_PUBLIC_CHANNEL = (
    "This archive shows public channels only, and this workspace follows none yet: what is "
    "said in a private channel stays there. Invite Paper Club to a public channel (or follow "
    "one) and its posts, votes and comments appear here."
)
INVALID_TITLE = "This link does not work"
INVALID = "The link was changed or cut short. Ask for a new one with /paperclub web."
EXPIRED_TITLE = "This link has expired"
EXPIRED = "Sign-in links work for a while only. Ask for a new one with /paperclub web."
MISSING_TITLE = "Sign in first"
MISSING = "This archive opens with a link from the bot: type /paperclub web in your workspace."


def link(*, url: str, minutes: int) -> Message:
    """The sign-in link, for the person who asked (the reply is ephemeral)."""
    return message(
        line(
            Link(url=url, label="Open the reading group's archive"),
            f" (the link works for {minutes} minutes; it is yours, do not share it).",
        ),
    )


def calendar_name(*, channel: str) -> str:
    """A channel's calendar feed's name, as a calendar app lists it: "#journal-club · Paper
    Club" (`channel`: its name, or its id when the name is unknown)."""
    return f"#{channel} · Paper Club"
