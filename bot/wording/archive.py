"""What the archive says back: search pages, rankings, recaps, the empty-queue notice."""

from __future__ import annotations

import json

from bot.domain import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, SearchHit, SearchPage, TopEntry
from bot.messages import (
    Block,
    Button,
    Buttons,
    ChannelRef,
    Code,
    Divider,
    Link,
    Listing,
    Message,
    Paragraph,
    PersonRef,
    Plain,
    Run,
    Strong,
    When,
    join,
    line,
    message,
    runs,
)

SEARCH_MORE = "search_more"
# "Did you mean": its value is a 'more' value (more_value) for the corrected query's first page.
SEARCH_SPELLED = "search_spelled"
QUERY_SHOWN = 200
# A button value holds at most 2,000 characters on Slack (100 on Discord's custom ids, which
# carry a short key instead); the query rides in it, clipped.
QUERY_IN_BUTTON = 1800

SYNTAX = line(
    'Search syntax: words, "quoted phrases", -excluded, ',
    Code("author:Name"),
    ", ",
    Code("after:2026-01-31"),
    " / ",
    Code("before:…"),
    " (post date), ",
    Code("in:#channel"),
    ", ",
    Code("is:queued"),
    " / ",
    Code("is:posted"),
    ", ",
    Code("presenter:@name"),
    ", ",
    Code("session:2026-01-31"),
    " (a meeting's paper).",
)
NO_HITS_TIPS = line(
    "Try fewer or other words, drop quotes and filters, or search by ",
    Code("author:Name"),
    ". ",
    Code("/paperclub help"),
    " lists the search syntax.",
)
STALE_BUTTON = message("That button no longer works; please search again.")
ASK_WHAT = message(line("What should I search for? "), SYNTAX)
EMPTY_QUEUE = message(
    line(
        "The reading list is empty, so there is no paper today. Add one with ",
        Code("/paperclub add <arXiv id, DOI or URL>"),
        ", or import a whole list on the server with ",
        Code("paperclub import FILE"),
        "; the next post goes out at the usual time once there is one.",
    )
)


def counts(*, up: int, down: int, comments: int) -> str:
    """'👍 4 · 👎 1 · 💬 6'."""
    return f"👍 {max(up, 0)} · 👎 {max(down, 0)} · 💬 {max(comments, 0)}"


def entry(*, item: TopEntry) -> tuple[Run, ...]:
    """'Title (Tue 3 Mar, #C1) 👍 4 · 👎 1 · 💬 6', the title linked to its thread."""
    title: Run = (
        Link(url=item.permalink, label=item.title) if item.permalink else Strong(item.title)
    )
    return runs(
        title,
        " (",
        When(day=item.date, year=False),
        ", ",
        ChannelRef(item.channel.channel),
        ") ",
        counts(up=item.votes.up, down=item.votes.down, comments=item.comments),
    )


def top(*, voted: list[TopEntry], talked: list[TopEntry], span: str) -> Message:
    """The most voted, then the most discussed posts of a period."""
    blocks: list[Block] = [
        line(Strong(f"Most voted, {span}:")),
        Listing(items=tuple(entry(item=e) for e in voted)),
    ]
    if talked:
        blocks += [
            line(Strong(f"Most discussed, {span}:")),
            Listing(items=tuple(entry(item=e) for e in talked)),
        ]
    return message(*blocks)


def no_top(*, period: str, bounded: bool) -> Message:
    """Nothing to rank yet."""
    return message(f"No posts here in the last {period} yet." if bounded else "No posts yet.")


def weekly_recap(*, entries: list[TopEntry]) -> Message:
    """The weekly recap: the last seven days' papers, best first."""
    if not entries:
        return message(
            line(Strong("This week in Paper Club:"), " no papers were posted this week.")
        )
    return message(
        line(Strong("This week in Paper Club"), ", ranked by votes and discussion:"),
        Listing(items=tuple(entry(item=e) for e in entries)),
    )


def snippet_runs(*, snippet: str) -> tuple[Run, ...]:
    """A snippet with its matched words (marked by the search engine) as emphasis."""
    out: list[Run] = []
    rest = " ".join(snippet.split())
    while rest:
        start = rest.find(HIGHLIGHT_OPEN)
        end = rest.find(HIGHLIGHT_CLOSE, start + 1) if start >= 0 else -1
        if start < 0 or end < 0:
            out.append(Plain(rest.replace(HIGHLIGHT_OPEN, "").replace(HIGHLIGHT_CLOSE, "")))
            break
        if start:
            out.append(Plain(rest[:start].replace(HIGHLIGHT_CLOSE, "")))
        if word := rest[start + 1 : end].strip():
            out.append(Strong(word))
        rest = rest[end + 1 :]
    return tuple(out)


def hit(*, found: SearchHit) -> list[Block]:
    """One hit: title (linked to its thread), authors, where and when, counts, the snippet."""
    paper = found.paper
    title: Run = (
        Link(url=found.permalink, label=paper.title) if found.permalink else Strong(paper.title)
    )
    where = (
        runs(When(day=found.post_date), " in ", ChannelRef(found.channel.channel))
        if found.post_date and found.channel
        else runs(paper.status.value)
    )
    meta = join(
        [
            runs(", ".join(paper.authors[:3]) + (" et al." if len(paper.authors) > 3 else ""))
            if paper.authors
            else (),
            where,
            runs(counts(up=found.votes.up, down=found.votes.down, comments=found.comments)),
        ]
    )
    said: tuple[Run, ...] = ()
    if found.from_comment and found.comment_user:
        said = runs(PersonRef(found.comment_user), ": ")
    blocks: list[Block] = [line(title), Paragraph(runs=meta, quiet=True)]
    if snippet := snippet_runs(snippet=found.snippet):
        blocks.append(line("“", *said, *snippet, "”"))
    return blocks


def more_value(*, text: str, offset: int) -> str:
    """The 'more' button's value: the query and where the next page starts."""
    return json.dumps({"q": text[:QUERY_IN_BUTTON], "o": offset}, ensure_ascii=False)[:2000]


def read_more_value(*, value: object) -> tuple[str, int] | None:
    """The query and offset a 'more' button carries; None for anything malformed."""
    try:
        data = json.loads(str(value))
        text, offset = str(data["q"]), int(data["o"])
    except (ValueError, TypeError, KeyError):
        return None
    return (text, offset) if offset >= 0 else None


def _shown(*, text: str) -> str:
    """A query on one line, clipped to QUERY_SHOWN."""
    shown = " ".join(text.split())
    return shown if len(shown) <= QUERY_SHOWN else shown[: QUERY_SHOWN - 1] + "…"


def did_you_mean(*, text: str) -> Button:
    """The button that runs the corrected query `text` (labels are clipped by each platform)."""
    label = f"Did you mean “{' '.join(text.split())}”?"
    return Button(label=label, action=SEARCH_SPELLED, value=more_value(text=text, offset=0))


def search_page(
    *,
    text: str,
    page: SearchPage,
    notes: tuple[str, ...],
    next_offset: int | None,
    typed: str = "",
    suggestion: str = "",
) -> Message:
    """A page of search results, five at a time, with a button for more; when `typed` found
    nothing, these are for its corrected `text` and say so; `suggestion`: a "Did you mean"
    button (the query must fit a button's value whole, or none is offered)."""
    shown = _shown(text=text)
    blocks: list[Block] = []
    if typed:
        blocks.append(
            line(
                "Showing results for “",
                Strong(shown),
                "” (no match for “",
                Plain(_shown(text=typed)),
                "”)",
            )
        )
    if not page.hits:
        blocks += [line("No papers or comments match “", Plain(shown), "”."), NO_HITS_TIPS]
    else:
        first, last = page.offset + 1, page.offset + len(page.hits)
        head = line(Strong(f"Results {first}–{last} of {page.total}"), " for “", Plain(shown), "”")
        if page.relaxed:
            head = line(*head.runs, " (no paper has all the words; these have some of them)")
        blocks.append(head)
        for found in page.hits:
            blocks += [Divider(), *hit(found=found)]
    if notes:
        blocks.append(line(" ".join(notes), quiet=True))
    buttons: list[Button] = []
    if suggestion and len(suggestion) <= QUERY_IN_BUTTON:
        buttons.append(did_you_mean(text=suggestion))
    if next_offset is not None:
        more = Button(
            label="More results",
            action=SEARCH_MORE,
            value=more_value(text=text, offset=next_offset),
        )
        buttons.append(more)
    if buttons:
        blocks.append(Buttons(buttons=tuple(buttons)))
    return message(*blocks)


def names_forgiven(*, typed: str) -> str:
    """The note under a page that has papers by authors whose names are close to the words."""
    return f"Also papers by authors whose names are close to “{typed[:60]}”."


def search_summary(*, text: str, page: SearchPage, typed: str = "") -> str:
    """The page in one plain line, for notifications."""
    shown = " ".join(text.split())[:QUERY_SHOWN]
    if typed and page.hits:
        was = " ".join(typed.split())[:QUERY_SHOWN]
        return f"Showing results for “{shown}” (no match for “{was}”)"
    if not page.hits:
        return f"No papers or comments match “{shown}”."
    first, last = page.offset + 1, page.offset + len(page.hits)
    return f"Results {first}–{last} of {page.total} for “{shown}”"
