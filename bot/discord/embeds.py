"""The daily post on Discord (content, one embed, the vote buttons) and its thread's name; pure.

It says what the Slack post says (bot/slack/blocks.py), in the words of bot/wording/post.py.
The content, which a notification shows, holds yesterday's line and "Today's paper: Title".
The embed holds the title (linked, through the embed's url, to the paper), its authors and
the abstract (clipped with "Read more"), every link known for it (arXiv, DOI, its own URL) and
a footer: who added it, how many are left in the queue, the date. Then 👍/👎 with live counts.

Discord's limits hold whatever the data: content 2,000 units, title 256, description 4,096,
footer 2,048, all of the embed's text 6,000, no fields; labels 80, custom ids 100. The title
and description are markdown (escaped data); the footer is plain text, which Discord shows as
it is, so it only gets zero-width spaces where its server would read a ping or an invite.
"""

from __future__ import annotations

from typing import Any

from bot.discord.links import link, maskable, names_elsewhere, safe_url
from bot.discord.markdown import (
    ELLIPSIS,
    clean,
    clip,
    data,
    escape,
    inert,
    paragraphs,
    size,
    squash,
)
from bot.discord.render import CONTENT_MAX, Component, action_row, button, custom_id, inline
from bot.domain import Paper, PaperCard
from bot.messages import format_date, plain_text
from bot.paper_links import paper_links
from bot.wording import post as words
from bot.wording import semantic as semantic_words

TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FOOTER_MAX = 2048
EMBED_MAX = 6000
CONTENT_TITLE_MAX = 300
THREAD_NAME_MAX = 100
AUTHOR_MAX = 100
AUTHORS_SHOWN = 6  # more than this: the first three and "et al."
NAME_MAX = 80
LINK_MAX = 750  # one link in the description: a URL of up to 512 units, its label (200)
COUNT_MAX = 999_999
POST_ID_MAX = 2**63 - 1
CARD_LINE_MAX = 700  # the related line (two titles with links) or why the paper was picked
VOTE = "vote"
PAPER_ICON = "📄 "


def count_text(n: int) -> str:
    """A vote count for display: never negative, never absurdly long."""
    return f"{COUNT_MAX:,}+" if n > COUNT_MAX else str(max(n, 0))


def vote_custom_id(*, post_id: int, up: bool) -> str:
    """'paperclub:vote:up:42' or 'paperclub:vote:down:42'; ValueError outside 1..2**63-1."""
    if isinstance(post_id, bool) or not 1 <= post_id <= POST_ID_MAX:
        raise ValueError(f"not a post id: {post_id!r}")
    return custom_id(action=VOTE, value=f"{'up' if up else 'down'}:{post_id}")


def read_vote(*, value: str) -> tuple[int, int] | None:
    """(+1 or -1, post id) from a vote button's value ('up:42'); None for anything else."""
    way, _, number = value.partition(":")
    if way not in ("up", "down") or not number.isascii() or not number.isdigit():
        return None
    if number.startswith("0") or not 1 <= (post_id := int(number)) <= POST_ID_MAX:
        return None
    return (1 if way == "up" else -1), post_id


def thread_name(*, card: PaperCard) -> str:
    """The paper's title as a thread name: one line, 1-100 units (Discord shows it as typed)."""
    title = squash(clean(card.paper.title)) or words.UNTITLED
    return clip(text=title, limit=THREAD_NAME_MAX)


def _links(*, paper: Paper) -> list[tuple[str, str]]:
    """(safe URL, label) of every link known for the paper, best first, each URL once."""
    found: dict[str, str] = {}
    for raw, label in paper_links(paper=paper):
        if (url := safe_url(raw)) and url not in found:
            found[url] = label
    return list(found.items())


def _authors(*, authors: tuple[str, ...]) -> str:
    """'*A, B, C*' or, past AUTHORS_SHOWN names, '*A, B, C et al.*'; '' when there are none."""
    names = [name for name in (squash(clean(a)) for a in authors) if name]
    if not names:
        return ""
    shown = names if len(names) <= AUTHORS_SHOWN else names[:3]
    line = ", ".join(data(text=name, limit=AUTHOR_MAX) for name in shown)
    return f"*{line} et al.*" if len(shown) < len(names) else f"*{line}*"


def _links_line(*, links: list[tuple[str, str]], vouched: tuple[str, ...]) -> str:
    """'📄 arXiv:… · doi:… · host/path', each a masked link; '' when no link is known."""
    shown = [link(url=url, label=label, limit=LINK_MAX, vouched=vouched) for url, label in links]
    return PAPER_ICON + " · ".join(shown) if shown else ""


def _abstract(*, abstract: str, main: str | None, limit: int) -> str:
    """The abstract within `limit`, its paragraphs kept, clipped with '… Read more' (linked to
    the paper when a link is known)."""
    text = paragraphs(clean(abstract))
    if not text:
        return f"*{escape(words.NO_ABSTRACT)}*"
    more = f" [{escape(words.READ_MORE)}](<{main}>)" if main else ""
    body = data(text=text, limit=limit - size(more), squashed=False)
    return body + more if more and body.endswith(ELLIPSIS) else body


def _footer(*, card: PaperCard) -> str:
    """'Added by Ana · 3 more in the queue · Thu 2 May 2024' as plain text."""
    name = clip(text=squash(clean(card.added_by_name or "")), limit=NAME_MAX) or None
    runs = words.footer(
        added_by=name,
        remaining=card.remaining,
        count=count_text(card.remaining),
        list_name=card.list_name,
        title_derived=card.paper.title_derived,
    )
    text = "".join(plain_text(run=run) for run in runs)
    return inert(f"{text} · {format_date(day=card.local_date)}")


def _content(*, card: PaperCard, title: str) -> str:
    """Yesterday's line (when there was a paper) and 'Today's paper: Title'."""
    today = words.fallback(title=data(text=title, limit=CONTENT_TITLE_MAX))
    if card.recap is None:
        return today
    recap = inline(runs=words.recap_line(recap=card.recap), limit=CONTENT_MAX - size(today) - 1)
    return f"{recap}\n{today}"


def _votes(*, card: PaperCard) -> Component:
    """The row with 👍 and 👎, their live counts and the post id."""
    votes = ((True, words.VOTE_UP, card.votes.up), (False, words.VOTE_DOWN, card.votes.down))
    return action_row(
        buttons=[
            button(
                label=f"{emoji} {count_text(n)}",
                custom_id=vote_custom_id(post_id=card.post_id, up=up),
            )
            for up, emoji, n in votes
        ]
    )


def daily_post(*, card: PaperCard) -> dict[str, Any]:
    """{"content", "embeds": [embed], "components": [vote row]} of one paper's daily post."""
    paper = card.paper
    title = squash(clean(paper.title)) or words.UNTITLED
    links = _links(paper=paper)
    vouched = tuple(url for url in (safe_url(paper.url),) if url)
    # The title and "Read more" link to the best URL that may hide behind words.
    main = next((url for url, lab in links if maskable(url=url, label=lab, vouched=vouched)), None)
    embed: dict[str, Any] = {"title": data(text=title, limit=TITLE_MAX)}
    # The title is the label of the embed's link: one naming another host stays unlinked (the
    # links line below still has every link), as links.link does for any label.
    if main and not names_elsewhere(label=title, url=main):
        embed["url"] = main
    footer = clip(text=_footer(card=card), limit=FOOTER_MAX)
    room = min(DESCRIPTION_MAX, EMBED_MAX - size(embed["title"]) - size(footer))
    head = [part for part in (_authors(authors=paper.authors),) if part]
    tail = [part for part in (_links_line(links=links, vouched=vouched),) if part]
    tail += [
        inline(runs=line, limit=CARD_LINE_MAX) for line in semantic_words.card_lines(card=card)
    ]
    fixed = sum(size(part) + 2 for part in (*head, *tail))  # each with its blank line
    abstract = _abstract(abstract=paper.abstract, main=main, limit=max(room - fixed, 1))
    embed["description"] = "\n\n".join([*head, abstract, *tail])
    embed["footer"] = {"text": footer}
    return {
        "content": _content(card=card, title=title),
        "embeds": [embed],
        "components": [_votes(card=card)],
    }
