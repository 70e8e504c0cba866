"""What a posted paper's copy in Zotero holds, as pure functions: its tags, its note, the JSON
of the item and note to create, and the digest that tells whether either changed since it was
last written.

The digest has two halves, one of the tags and one of the note, so a change rewrites only the
object it touches (an edited comment: the note; a vote: the note's counts and the tags).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.ports.zotero import PostedPaper, ZoteroCopy
from bot.zotero.mapping import paper_item, tag_list
from bot.zotero.note import discussion_html, discussion_note

PAPER_CLUB_TAG = "Paper Club"
COLLECTION_PREFIX = "Paper Club "  # the channel's collection: "Paper Club #general"
_HALF = 16  # hex characters of each half of a digest
_COUNT = re.compile(r"^(?:👍|👎) \d+$")


@dataclass(frozen=True, slots=True)
class Contents:
    """What a copy should hold now: the item's tags (Zotero's JSON) and the note's HTML."""

    tags: list[dict[str, str]]
    note: str

    @property
    def digest(self) -> str:
        """The tags' half then the note's half (hex), as stored on the copy."""
        return tag_half(tags=self.tags) + note_half(note=self.note)


def _hash(*, text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:_HALF]


def tag_half(*, tags: list[dict[str, str]]) -> str:
    """The digest half of a tag list (order kept: it is what is written)."""
    return _hash(text=json.dumps(tags, ensure_ascii=False))


def note_half(*, note: str) -> str:
    """The digest half of a note's HTML."""
    return _hash(text=note)


def tags_changed(*, copy: ZoteroCopy, contents: Contents) -> bool:
    """Whether the item's tags differ from what was last written."""
    return copy.digest[:_HALF] != tag_half(tags=contents.tags)


def note_changed(*, copy: ZoteroCopy, contents: Contents) -> bool:
    """Whether the note differs from what was last written."""
    return copy.digest[_HALF:] != note_half(note=contents.note)


def written(*, copy: ZoteroCopy, contents: Contents, tags: bool, note: bool) -> str:
    """The copy's digest once its tags (when `tags`) and its note (when `note`) are written:
    the half of what was not written stays, so a failed half is tried again."""
    tag_part = tag_half(tags=contents.tags) if tags else copy.digest[:_HALF]
    return tag_part + (note_half(note=contents.note) if note else copy.digest[_HALF:])


def _ours(*, tag: str) -> bool:
    """Whether a tag is one a sync writes and may outdate: Paper Club's own, or a vote count
    ("👍 3"). The date and the channel are a post's for life, written again as they are."""
    return tag == PAPER_CLUB_TAG or bool(_COUNT.match(tag))


def merged_tags(
    *, current: list[dict[str, Any]], ours: list[dict[str, str]]
) -> list[dict[str, Any]]:
    """The item's tags as stored (`current`, people's own among them) with ours written anew:
    people's tags are kept, in their order, our outdated counts dropped, ours appended."""
    mine = {tag["tag"] for tag in ours}
    kept = [
        tag
        for tag in current
        if isinstance(tag, dict)
        and not _ours(tag=str(tag.get("tag", "")))
        and tag.get("tag") not in mine
    ]
    return [*kept, *ours]


def channel_label(*, names: Mapping[str, str], channel_id: str) -> str:
    """The channel as people know it ("#general"); its id when the platform never said."""
    return f"#{names.get(channel_id) or channel_id}"


def collection_title(*, label: str) -> str:
    """The name of the channel's collection ("Paper Club #general")."""
    return COLLECTION_PREFIX + label


def contents(*, posted: PostedPaper, label: str, people: Mapping[str, str]) -> Contents:
    """The tags and note of a posted paper in the channel shown as `label`; `people` names
    the commenters by user id. Tags: "Paper Club", the post's date, "👍 N", "👎 N", the
    channel (cleaned and cut as Zotero keeps tags, so the digest is of what is stored)."""
    view = posted.view
    tags = tag_list(
        tags=(
            PAPER_CLUB_TAG,
            view.date.isoformat(),
            f"👍 {view.votes.up}",
            f"👎 {view.votes.down}",
            label,
        )
    )
    html = discussion_html(title=posted.paper.title, post=view, channel_name=label, names=people)
    return Contents(tags=tags, note=html)


def new_objects(
    *, posted: PostedPaper, copy: ZoteroCopy, held: Contents, collection: str
) -> list[dict[str, Any]]:
    """The item and its note, under the copy's planned keys, in the channel's collection."""
    item = paper_item(paper=posted.paper, collections=(collection,))
    item["tags"] = held.tags
    item["key"] = copy.item_key
    note: dict[str, Any] = dict(discussion_note(parent=copy.item_key, html=held.note))
    note["key"] = copy.note_key
    return [item, note]
