"""The JSON twins of the archive's pages: the same views, as plain dicts. Ids stay as they
were; each gains its name beside it ("channel_name", "name"), and a comment its text with
mention markup as names ("shown")."""

from __future__ import annotations

from typing import Any

from bot.domain import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, Paper, PostView, SearchHit, VoteCount
from bot.domain.archive import ArchivePost, PostList
from bot.services.archive_web import Names, PaperPage
from bot.services.search import SearchResult
from bot.web.mentions import plain_names


def votes(*, count: VoteCount) -> dict[str, int]:
    """👍 and 👎."""
    return {"up": count.up, "down": count.down}


def post(*, item: ArchivePost, names: Names) -> dict[str, Any]:
    """One post in a list."""
    return {
        "paper_id": item.paper_id,
        "title": item.title,
        "authors": list(item.authors),
        "abstract": item.abstract,
        "channel": item.channel.channel,
        "channel_name": names.channel(item.channel),
        "date": item.date.isoformat(),
        "permalink": item.permalink,
        "votes": votes(count=item.votes),
        "comments": item.comments,
    }


def post_list(*, page: PostList, names: Names, **extra: Any) -> dict[str, Any]:
    """A page of posts."""
    return {
        **extra,
        "total": page.total,
        "offset": page.offset,
        "posts": [post(item=p, names=names) for p in page.posts],
    }


def paper(*, item: Paper) -> dict[str, Any]:
    """A paper's own fields."""
    return {
        "id": item.id,
        "title": item.title,
        "authors": list(item.authors),
        "abstract": item.abstract,
        "url": item.url,
        "arxiv_id": item.arxiv_id,
        "doi": item.doi,
    }


def _post_view(*, view: PostView, names: Names) -> dict[str, Any]:
    """A paper's post with its votes and comments in order."""
    return {
        "channel": view.channel.channel,
        "channel_name": names.channel(view.channel),
        "date": view.date.isoformat(),
        "permalink": view.permalink,
        "votes": votes(count=view.votes),
        "comments": [
            {
                "user": c.user,
                "name": names.person(c.user),
                "text": c.text,
                "shown": plain_names(text=c.text, people=names.people, channels=names.channels),
                "edited": c.edited,
            }
            for c in view.comments
        ],
    }


def paper_page(*, page: PaperPage, names: Names) -> dict[str, Any]:
    """A paper page."""
    return {
        "paper": paper(item=page.paper),
        "posts": [_post_view(view=v, names=names) for v in page.posts],
        "votes_over_time": [{"at": m.at.isoformat(), "value": m.value} for m in page.votes],
    }


def plain(*, snippet: str) -> str:
    """A snippet without its highlight marks."""
    return snippet.replace(HIGHLIGHT_OPEN, "").replace(HIGHLIGHT_CLOSE, "")


def _hit(*, hit: SearchHit, names: Names) -> dict[str, Any]:
    """One search hit."""
    return {
        "paper": paper(item=hit.paper),
        "snippet": plain(snippet=hit.snippet),
        "from_comment": hit.from_comment,
        "channel": hit.channel.channel if hit.channel else None,
        "channel_name": names.channel(hit.channel) if hit.channel else None,
        "date": hit.post_date.isoformat() if hit.post_date else None,
        "permalink": hit.permalink,
        "votes": votes(count=hit.votes),
        "comments": hit.comments,
    }


def search(*, result: SearchResult, names: Names) -> dict[str, Any]:
    """A page of search results."""
    return {
        "query": result.text,
        "total": result.page.total,
        "offset": result.page.offset,
        "next_offset": result.next_offset,
        "relaxed": result.page.relaxed,
        "notes": list(result.notes),
        "hits": [_hit(hit=h, names=names) for h in result.page.hits],
    }
