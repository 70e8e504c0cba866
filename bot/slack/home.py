"""A person's App Home, published over the request's client: which followed channels they are
in (users.conversations), the Home built by the core, and the schedule form opened on a click.

Slack errors are logged, never raised: a Home that could not be published is published again
the next time the person opens the tab."""

from __future__ import annotations

import logging
import re
from urllib.error import URLError

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.domain import ChannelKey
from bot.messages import Message
from bot.services import home
from bot.slack.deps import SlackDeps
from bot.slack.home_modal import schedule_modal
from bot.slack.home_view import home_view
from bot.wording import home as words

log = logging.getLogger(__name__)
PAGES_MAX = 10  # of 200 channels each: a person in more sees the Home of the first 2,000
CHANNEL_ID = re.compile(r"[CG][A-Z0-9]{2,40}")


def channel_id(*, value: object) -> str | None:
    """The channel id a Home button or form carries; None for anything that is not one."""
    return value if isinstance(value, str) and CHANNEL_ID.fullmatch(value) else None


def member_of(*, client: WebClient, deps: SlackDeps, user: str) -> frozenset[ChannelKey] | None:
    """The channels of this workspace the person is in (None when Slack cannot say)."""
    found: set[ChannelKey] = set()
    cursor: str | None = None
    try:
        for _page in range(PAGES_MAX):
            response = client.users_conversations(
                user=user,
                types="public_channel,private_channel",
                exclude_archived=True,
                limit=200,
                cursor=cursor,
            )
            for channel in response.get("channels") or []:
                found.add(deps.channel(channel_id=channel.get("id")))
            cursor = (response.get("response_metadata") or {}).get("next_cursor") or None
            if not cursor:
                break
    except (SlackApiError, URLError, OSError) as exc:
        log.warning("users.conversations failed for %s: %s", user, exc)
        return None
    return frozenset(found)


def publish(
    *,
    client: WebClient,
    deps: SlackDeps,
    user: str,
    notice: Message | None = None,
    viewer: home.Viewer | None = None,
) -> None:
    """Build the person's Home and publish it (with what their last action did, if any);
    `viewer`: their channels, when the caller asked Slack already."""
    if viewer is None:
        viewer = home.Viewer(user=user, channels=member_of(client=client, deps=deps, user=user))
    built = deps.room.home(viewer=viewer, notice=notice)
    try:
        client.views_publish(user_id=user, view=home_view(view=built, names=deps.chat.names))
    except (SlackApiError, URLError, OSError) as exc:
        log.warning("views.publish failed for %s: %s", user, exc)


def unavailable(*, client: WebClient, deps: SlackDeps, user: str) -> None:
    """The Home that says the archive is unavailable (the next opening shows it as it is)."""
    view = home.HomeView(sections=(words.UNAVAILABLE,), admin=False)
    try:
        client.views_publish(user_id=user, view=home_view(view=view, names=deps.chat.names))
    except (SlackApiError, URLError, OSError) as exc:
        log.warning("views.publish failed for %s: %s", user, exc)


def open_form(
    *, client: WebClient, deps: SlackDeps, user: str, channel: str, trigger_id: str
) -> Message | None:
    """Open the schedule form for an admin; what to show on the Home instead, otherwise."""
    form = deps.room.schedule_form(channel=deps.channel(channel_id=channel), user=user)
    if not isinstance(form, home.ScheduleForm):
        return form.message
    try:
        client.views_open(
            trigger_id=trigger_id, view=schedule_modal(form=form, names=deps.chat.names)
        )
    except (SlackApiError, URLError, OSError) as exc:
        log.warning("views.open failed for %s: %s", user, exc)
    return None
