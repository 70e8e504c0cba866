"""What people read about watches: the command's help, its answers, and a failing source."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages import Code, Listing, Message, Plain, Run, Strong, line, message, runs
from bot.ports.sources import Watch
from bot.sources.watch_text import searches_arxiv

HELP = runs(
    Code("/paperclub watch"),
    ": what this channel watches for new papers (admins: ",
    Code("watch add arxiv cs.LG keywords: diffusion"),
    ", ",
    Code("watch add arxiv authors: Ada Lovelace"),
    ", ",
    Code("watch add feed <url>"),
    ", ",
    Code("watch add crossref <ISSN>"),
    ", ",
    Code("watch remove 3"),
    "); ",
    Code("/paperclub watch zotero"),
    ": this channel's Zotero library (admins: ",
    Code("watch zotero connect groups/123 <API key>"),
    ", ",
    Code("test"),
    ", ",
    Code("pause"),
    ", ",
    Code("resume"),
    ", ",
    Code("disconnect"),
    ")",
)
ABOUT = "What this channel watches for new papers, and its Zotero library (admins change them)"
# Discord cuts an option's description at 100 characters.
WHAT = (
    "list | add arxiv <categories> | add feed <url> | add crossref <ISSN> | remove <number>"
    " | zotero ..."
)
ADD_EXAMPLE = "arxiv cs.LG cs.CL keywords: speculative decoding, pipeline authors: Ada Lovelace"

USAGE = message(
    line("Usage: ", Code("/paperclub watch"), " lists this channel's watches. Admins:"),
    Listing(
        items=(
            runs(Code("/paperclub watch add " + ADD_EXAMPLE)),
            runs(
                Code("/paperclub watch add arxiv keywords: speculative decoding"),
                " (no categories: a search of all of arXiv)",
            ),
            runs(Code("/paperclub watch add feed https://example.org/feed.xml keywords: sleep")),
            runs(Code("/paperclub watch add crossref 0028-0836 keywords: protein")),
            runs(Code("/paperclub watch remove 3"), " (the number ", Code("watch"), " lists)"),
            runs(
                Code("/paperclub watch zotero"),
                " (anyone: the channel's Zotero link; admins connect, test, pause, resume and"
                " disconnect it)",
            ),
        ),
        ordered=False,
    ),
)
ADMINS_ONLY = message(
    line("Only admins add and remove watches; ", Code("/paperclub watch"), " lists them.")
)


def spec_runs(*, watch: Watch) -> tuple[Run, ...]:
    """A watch in one line: #3 arXiv cs.LG + cs.CL · keywords: x, y · authors: z (an arXiv
    search: #4 arXiv search · keywords: x)."""
    spec = watch.spec
    if searches_arxiv(spec=spec):
        what: tuple[Run, ...] = (Plain("arXiv "), Strong("search"))
    elif spec.kind == "arxiv":
        what = (Plain("arXiv "), Strong(" + ".join(spec.target.split("+"))))
    elif spec.kind == "feed":
        what = (Plain("feed "), Code(spec.target))
    else:
        what = (Plain("Crossref journal "), Strong(spec.target))
    out: list[Run] = [Strong(f"#{watch.id} "), *what]
    if spec.keywords:
        out.append(Plain(" · keywords: " + ", ".join(spec.keywords)))
    if spec.authors:
        out.append(Plain(" · authors: " + ", ".join(spec.authors)))
    return tuple(out)


def listed(*, watches: Sequence[Watch]) -> Message:
    """The answer to /paperclub watch."""
    if not watches:
        return message(
            line(
                "This channel watches nothing yet. Admins add a source with ",
                Code("/paperclub watch add " + ADD_EXAMPLE),
                ".",
            )
        )
    return message(
        line(Strong("This channel watches:")),
        Listing(items=tuple(spec_runs(watch=w) for w in watches), ordered=False),
        line(
            "New papers from these arrive as suggestions (",
            Code("/paperclub suggestions"),
            ").",
            quiet=True,
        ),
    )


def added(*, watch: Watch, new: bool) -> Message:
    """A watch added (or the same one found)."""
    head = "Now watching " if new else "Already watching "
    return message(
        line(head, *spec_runs(watch=watch), "."),
        line(
            "Its new papers are read within a minute, then once a day, and suggested here.",
            quiet=True,
        ),
    )


def removed(*, watch: Watch) -> Message:
    """A watch removed."""
    return message(line("Stopped watching ", *spec_runs(watch=watch), "."))


def no_such(*, number: str) -> Message:
    """`watch remove` with a number this channel has no watch for."""
    return message(
        line(
            f"This channel has no watch #{number[:20]}; ",
            Code("/paperclub watch"),
            " lists them.",
        )
    )


def bad_watch(*, why: str) -> Message:
    """A watch that could not be read."""
    return message(line(f"That watch cannot be added: {why}."), *USAGE.blocks[1:])


def failing(*, watch: Watch, reason: str) -> Message:
    """A watch's source failed (said once, until it works again)."""
    return message(
        line(
            Strong("For the admins: "),
            "a watched source cannot be read: ",
            *spec_runs(watch=watch),
        ),
        line(f"Why: {reason}", quiet=True),
        line(
            "It is tried again later by itself. ",
            Code(f"/paperclub watch remove {watch.id}"),
            " stops it.",
            quiet=True,
        ),
    )
