"""What people read about a channel's Zotero link (`/paperclub watch zotero ...`): its state,
the answers of connect, test, pause, resume and disconnect, and why a key will not do.

No answer here is ever given the API key: the functions take the link (whose sealed key its
repr hides) and the problem, nothing typed with the key.
"""

from __future__ import annotations

from datetime import datetime

from bot.messages import Code, Listing, Message, Plain, Run, Strong, When, line, message, runs
from bot.ports.zotero import ZoteroLink
from bot.ports.zotero_desk import Problem

CONNECT = "/paperclub watch zotero connect groups/123 <API key> from Reading list into tray"
KEYS_PAGE = "https://www.zotero.org/settings/keys"
NAME_MAX = 100  # characters of a collection name shown back

USAGE = message(
    line("Usage: ", Code("/paperclub watch zotero"), " shows this channel's Zotero link. Admins:"),
    Listing(
        items=(
            runs(
                Code("/paperclub watch zotero connect <library> <API key>"),
                " (library: ",
                Code("groups/123"),
                ", ",
                Code("users/456"),
                " or its zotero.org address): each paper posted here is written to Zotero",
            ),
            runs(
                Code(CONNECT),
                " also reads a collection (by name or key) as a source, into the tray (default)"
                " or straight into the queue",
            ),
            runs(Code("/paperclub watch zotero test"), " checks the kept key again"),
            runs(
                Code("/paperclub watch zotero pause"),
                " / ",
                Code("resume"),
                " / ",
                Code("disconnect"),
                " (disconnect forgets the key)",
            ),
        ),
        ordered=False,
    ),
)
ADMINS_ONLY = message(
    line(
        "Only admins connect, test, pause and disconnect Zotero; ",
        Code("/paperclub watch zotero"),
        " shows the link.",
    )
)
NO_SECRET = message(
    line(
        "Zotero cannot be connected here yet: its API key is kept sealed with ",
        Code("PAPERCLUB_SECRET_KEY"),
        ", which this bot does not have.",
    ),
    line(
        "Whoever runs the bot makes one with ",
        Code("paperclub secrets new-key"),
        ", sets it in the bot's environment and restarts it; then connect again.",
        quiet=True,
    ),
)
NOT_CONNECTED = message(
    line("This channel is not connected to Zotero."),
    line("Admins connect a library with ", Code(CONNECT), ".", quiet=True),
)


def bad_connect(*, why: str) -> Message:
    """A connect command that could not be read (`why` never repeats what was typed)."""
    return message(line(f"That cannot be connected: {why}."), *USAGE.blocks[1:])


def _create_key() -> Run:
    return Code(KEYS_PAGE)


def refused(*, problem: Problem, collection: str | None) -> Message:
    """Why a key, a library or a collection will not do (connect and test)."""
    if problem == "revoked":
        return message(
            line("Zotero refuses that API key: it was deleted, revoked or mistyped."),
            line("Create one at ", _create_key(), " and connect again.", quiet=True),
        )
    if problem == "no_access":
        return message(
            line("That key may not read that library, or there is no such library."),
            line(
                "A group library needs the key's group access (Per Group Permissions, or All"
                " Groups) set to Read/Write, at ",
                _create_key(),
                "; a user library needs Allow library access.",
                quiet=True,
            ),
        )
    if problem == "read_only":
        return message(
            line("That key may read the library but not write to it."),
            line(
                "Paper Club writes each posted paper into it: allow write access (Allow write"
                " access, or Read/Write for a group) at ",
                _create_key(),
                ", then connect again.",
                quiet=True,
            ),
        )
    if problem == "no_notes":
        return message(
            line("That key may not read or write the notes of that user library."),
            line(
                "Paper Club writes each paper's discussion as a note: tick Allow notes access"
                " (under Personal Library) for the key at ",
                _create_key(),
                ", then connect again.",
                quiet=True,
            ),
        )
    if problem == "no_collection":
        return message(
            line(
                "The library has no collection named or keyed ",
                Code((collection or "")[:NAME_MAX]),
                ".",
            ),
            line(
                "Type its name as Zotero shows it (any case), or its 8-character key from its"
                " zotero.org address.",
                quiet=True,
            ),
        )
    if problem == "unreadable":
        return message(
            line(
                "The kept key cannot be opened: ",
                Code("PAPERCLUB_SECRET_KEY"),
                " no longer lists the secret that sealed it.",
            ),
            line("An admin connects again with the API key.", quiet=True),
        )
    return message(
        line("Zotero did not answer usably just now; nothing was changed."),
        line("Try again in a few minutes.", quiet=True),
    )


def _library(*, link: ZoteroLink) -> tuple[Run, ...]:
    kind = "group library" if link.library_kind == "groups" else "user library"
    return (Plain(f"Zotero {kind} "), Code(link.library))


def _source(*, link: ZoteroLink) -> tuple[Run, ...]:
    if link.source is None:
        return (Plain("no collection is read as a source"),)
    where = "the tray" if link.into == "tray" else "the queue"
    return (
        Plain("new items of "),
        Strong(link.source_name[:NAME_MAX] or link.source),
        Plain(" ("),
        Code(link.source),
        Plain(f") arrive in {where}"),
    )


def in_watch_list(*, link: ZoteroLink) -> Message:
    """The line /paperclub watch adds for the channel's Zotero link."""
    paused = " (paused)" if link.paused else ""
    return message(
        line(
            Strong("Linked to "),
            *_library(link=link),
            f"{paused}: posted papers are written there; ",
            *_source(link=link),
            ". ",
            Code("/paperclub watch zotero"),
            " tells more.",
        )
    )


def _at(*, when: datetime) -> tuple[Run, ...]:
    return (When(day=when.date()), Plain(f" {when:%H:%M} UTC"))


def connected(*, link: ZoteroLink, again: bool) -> Message:
    """A library connected (or connected anew: the same library's copies and cursor kept)."""
    head = "Connected again to " if again else "Connected this channel to "
    return message(
        line(head, *_library(link=link), "."),
        Listing(
            items=(
                runs(
                    "each paper posted here is written into the collection named for this"
                    " channel, with its votes as tags and its thread as a note, kept up to date"
                ),
                runs(*_source(link=link)),
            ),
            ordered=False,
        ),
        line(
            "The key is kept sealed and shown nowhere. The first sync runs within minutes; ",
            Code("/paperclub watch zotero"),
            " shows how it goes.",
            quiet=True,
        ),
    )


def status(*, link: ZoteroLink | None, ready: bool) -> Message:
    """/paperclub watch zotero: the link's state (never its key)."""
    if link is None:
        return NOT_CONNECTED if ready else message(*NOT_CONNECTED.blocks[:1], *NO_SECRET.blocks)
    state: tuple[Run, ...] = (Strong("paused"),) if link.paused else (Plain("running"),)
    written: tuple[Run, ...] = (
        (Plain("writes to collection "), Code(link.destination))
        if link.destination
        else (Plain("writes to a collection named for this channel, made at the first sync"),)
    )
    synced = _at(when=link.synced_at) if link.synced_at else (Plain("not yet"),)
    items = [
        runs("State: ", *state),
        runs("Source: ", *_source(link=link)),
        runs("Destination: ", *written),
        runs("Last sync: ", *synced),
        runs("Connected: ", *_at(when=link.connected_at)),
    ]
    if link.failing_since is not None:
        items.append(
            runs(
                "Failing since ",
                *_at(when=link.failing_since),
                f": {link.last_error[:300] or 'no reason given'}",
            )
        )
    if link.retry_at is not None:  # failing, or Zotero asked to wait: not synced before then
        items.append(runs("Next try: ", *_at(when=link.retry_at)))
    return message(
        line("This channel is connected to ", *_library(link=link), "."),
        Listing(items=tuple(items), ordered=False),
        *(() if ready else NO_SECRET.blocks),
    )


def tested(*, link: ZoteroLink, cleared: bool) -> Message:
    """`test` found the kept key working."""
    more = " Its failing state is cleared; the next sync runs soon." if cleared else ""
    return message(line("The kept key works for ", *_library(link=link), f".{more}"))


def paused(*, link: ZoteroLink, already: bool) -> Message:
    """Syncing with Zotero paused."""
    head = "Zotero was already paused" if already else "Paused syncing with Zotero"
    return message(
        line(
            head,
            " for this channel (",
            *_library(link=link),
            "); ",
            Code("/paperclub watch zotero resume"),
            " goes on.",
        )
    )


def resumed(*, link: ZoteroLink, already: bool) -> Message:
    """Syncing with Zotero resumed."""
    head = "Zotero was already running" if already else "Resumed syncing with Zotero"
    return message(line(head, " for this channel (", *_library(link=link), ")."))


def disconnected(*, library: str) -> Message:
    """The link and its key forgotten."""
    return message(
        line("Disconnected from Zotero ", Code(library), ": the key is forgotten."),
        line(
            "What was written stays in Zotero; connecting the same library again goes on"
            " without writing any paper twice.",
            quiet=True,
        ),
    )
