"""Every Block Kit action_id and block_id, once; and the vote buttons' value format."""

from __future__ import annotations

import re
from collections.abc import Sequence

# action_ids (the listeners match on these)
VOTE_UP = "paperclub_vote_up"
VOTE_DOWN = "paperclub_vote_down"
SEARCH_MORE = "paperclub_search_more"


def action_id(*, action: str) -> str:
    """The action_id of a neutral button action ("search_more" -> "paperclub_search_more")."""
    return f"paperclub_{action}"


# Slack wants action_ids unique within a block: an action repeated in one row of buttons (a
# poll's papers) is numbered from its second: paperclub_poll_vote, paperclub_poll_vote~2, ...
REPEAT = "~"


def row_action_ids(*, actions: Sequence[str]) -> list[str]:
    """The action_ids of one row of buttons, in order, each unique in the row."""
    seen: dict[str, int] = {}
    out = []
    for action in actions:
        seen[action] = seen.get(action, 0) + 1
        repeat = f"{REPEAT}{seen[action]}" if seen[action] > 1 else ""
        out.append(action_id(action=action) + repeat)
    return out


def action_pattern(*, action: str) -> re.Pattern[str]:
    """What a listener matches for an action: its action_id, numbered or not."""
    return re.compile(rf"^{re.escape(action_id(action=action))}(?:{REPEAT}\d+)?$")


def action_of(*, action_id_seen: str) -> str:
    """The neutral action an action_id stands for ("paperclub_poll_vote~3" -> "poll_vote")."""
    return action_id_seen.removeprefix(action_id(action="")).split(REPEAT, 1)[0]


# block_ids (unique within one message)
POST_BLOCK = "paperclub_post"
VOTE_BLOCK = "paperclub_votes"

# message metadata event_type of a daily post (found again after a crash)
METADATA_EVENT_TYPE = "paperclub_post"

# A post id is a positive 64-bit integer, written in plain decimal.
_MAX_POST_ID = 2**63 - 1
_POST_ID_RE = re.compile(r"[1-9][0-9]{0,18}")


def encode_post_id(*, post_id: int) -> str:
    """The vote buttons' value for a post: its id in decimal; ValueError outside 1..2**63-1."""
    if isinstance(post_id, bool) or not 1 <= post_id <= _MAX_POST_ID:
        raise ValueError(f"not a post id: {post_id!r}")
    return str(post_id)


def decode_post_id(*, value: object) -> int | None:
    """The post id a vote button's value carries; None for anything else, never raising."""
    if not isinstance(value, str) or not _POST_ID_RE.fullmatch(value):
        return None
    post_id = int(value)
    return post_id if post_id <= _MAX_POST_ID else None


# The App Home's schedule form: the view's callback_id, and its inputs' block_id and action_id.
SCHEDULE_VIEW = "paperclub_schedule"
SCHEDULE_TIME = "paperclub_schedule_time"
SCHEDULE_ZONE = "paperclub_schedule_zone"
SCHEDULE_DAYS = "paperclub_schedule_days"

# The App Home's meeting form (bot/slack/meeting_modal): the view's callback_id, and each
# input's block_id, which is its action_id too.
MEETING_VIEW = "paperclub_meeting"
MEETING_DAY = "paperclub_meeting_day"
MEETING_TIME = "paperclub_meeting_time"
MEETING_ZONE = "paperclub_meeting_zone"
MEETING_EVERY = "paperclub_meeting_every"
MEETING_FIRST = "paperclub_meeting_first"
MEETING_DURATION = "paperclub_meeting_duration"
MEETING_PLACE = "paperclub_meeting_place"
MEETING_REMINDERS = "paperclub_meeting_reminders"

# The poll's "Nominate a paper" modal (bot/slack/nominate_modal): callback_id, and its input.
NOMINATE_VIEW = "paperclub_nominate"
NOMINATE_PAPER = "paperclub_nominate_paper"
