"""Pure Block Kit builders for the daily post: header, authors, abstract, links, footer and the
vote buttons, as plain dicts.

Every builder keeps Slack's limits (DESIGN.md §3) whatever the data: 50 blocks, section text
3,000, header 150, button text 75, value 2,000, ids 255; text objects never empty. The words
come from bot.wording; data is escaped and made inert by bot.slack.render.
"""

from __future__ import annotations

from typing import Any

from bot.domain import Paper, PaperCard, VoteCount
from bot.messages import Link, Run
from bot.paper_links import paper_links
from bot.slack import ids
from bot.slack.render import SECTION_MAX, Names, data, mrkdwn
from bot.slack.text import ELLIPSIS, clip, count_text, paragraphs, safe_url, squash
from bot.wording import post as words
from bot.wording import semantic as semantic_words

Block = dict[str, Any]

HEADER_MAX = 150
BUTTON_TEXT_MAX = 75
ABSTRACT_MAX = 2500
TITLE_MAX = 300  # a title inside a mrkdwn line (fallback text)
AUTHOR_MAX = 100
AUTHORS_SHOWN = 6  # more than this: the first three and "et al."
NAME_MAX = 80
LABEL_MAX = 100


def _text(text: str) -> dict[str, Any]:
    """A mrkdwn text object (verbatim: Slack links and parses nothing by itself)."""
    return {"type": "mrkdwn", "text": text or ELLIPSIS, "verbatim": True}


def _context(text: str) -> Block:
    """A context block with one mrkdwn element."""
    return {"type": "context", "elements": [_text(text)]}


def _section(text: str) -> Block:
    """A section block with mrkdwn text (the caller keeps it within the limit)."""
    return {"type": "section", "text": _text(text)}


def _paper_link(*, paper: Paper) -> Link | None:
    """The paper's main link: arXiv abstract page, else doi.org, else its URL; else None."""
    for raw, label in paper_links(paper=paper):
        if safe_url(raw):
            return Link(url=raw, label=label)
    return None


def _button_text(*, emoji: str, n: int) -> dict[str, Any]:
    """The plain_text label of a vote button: '👍 3'."""
    text = clip(text=f"{emoji} {count_text(n)}", limit=BUTTON_TEXT_MAX)
    return {"type": "plain_text", "text": text, "emoji": True}


def _vote_buttons(*, votes: VoteCount, value: str) -> Block:
    """The actions block with the 👍 and 👎 buttons, both carrying the post id."""
    buttons = ((ids.VOTE_UP, words.VOTE_UP, votes.up), (ids.VOTE_DOWN, words.VOTE_DOWN, votes.down))
    return {
        "type": "actions",
        "block_id": ids.VOTE_BLOCK,
        "elements": [
            {
                "type": "button",
                "action_id": action,
                "text": _button_text(emoji=emoji, n=n),
                "value": value,
            }
            for action, emoji, n in buttons
        ],
    }


def authors_line(*, authors: tuple[str, ...]) -> str:
    """'A, B, C' or, past AUTHORS_SHOWN names, 'A, B, C et al.'; inert mrkdwn; '' when none."""
    names = [name for name in (squash(a) for a in authors) if name]
    shown = names if len(names) <= AUTHORS_SHOWN else names[:3]
    line = ", ".join(data(text=name, limit=AUTHOR_MAX) for name in shown)
    return line + " et al." if len(shown) < len(names) else line


def _abstract_text(*, abstract: str, link: Link | None, names: Names) -> str:
    """The abstract as inert mrkdwn, clipped with '… Read more' (linked when a link is known)."""
    text = paragraphs(abstract)
    if not text:
        return f"_{words.NO_ABSTRACT}_"
    more = mrkdwn(runs=(Link(url=link.url, label=words.READ_MORE),), names=names) if link else ""
    body = data(text=text, limit=min(ABSTRACT_MAX, SECTION_MAX - len(more) - 1), squashed=False)
    return f"{body} {more}" if more and body.endswith(ELLIPSIS) else body


def _footer(*, card: PaperCard) -> tuple[Run, ...]:
    """'Added by Ana · 3 more in the queue' (the name only when known)."""
    name = squash(card.added_by_name or "")[:NAME_MAX] or None
    return words.footer(
        added_by=name,
        remaining=card.remaining,
        count=count_text(card.remaining),
        list_name=card.list_name,
        title_derived=card.paper.title_derived,
    )


def paper_message(*, card: PaperCard, names: Names) -> tuple[str, list[Block]]:
    """(fallback text, blocks) of the daily post of one paper, with its vote buttons."""
    paper = card.paper
    title = squash(paper.title) or words.UNTITLED
    link = _paper_link(paper=paper)
    blocks: list[Block] = []
    if card.recap is not None:
        blocks.append(_context(mrkdwn(runs=words.recap_line(recap=card.recap), names=names)))
    header = {"type": "plain_text", "text": clip(text=title, limit=HEADER_MAX), "emoji": False}
    blocks.append({"type": "header", "block_id": ids.POST_BLOCK, "text": header})
    if authors := authors_line(authors=paper.authors):
        blocks.append(_context(authors))
    blocks.append(_section(_abstract_text(abstract=paper.abstract, link=link, names=names)))
    if link:
        shown = Link(url=link.url, label=link.label[:LABEL_MAX])
        blocks.append(_section("📄 " + mrkdwn(runs=(shown,), names=names)))
    blocks.append(_context(mrkdwn(runs=_footer(card=card), names=names)))
    blocks += [
        _context(mrkdwn(runs=line, names=names)) for line in semantic_words.card_lines(card=card)
    ]
    value = ids.encode_post_id(post_id=card.post_id)
    blocks.append(_vote_buttons(votes=card.votes, value=value))
    text = words.fallback(title=data(text=title, limit=TITLE_MAX))
    url = safe_url(link.url) if link else None
    return (f"{text} — {url}" if url else text), blocks
