"""ports.Chat over slack_sdk's WebClient."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any
from urllib.error import URLError

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.domain import ChannelKey, PaperCard, PostedMessage
from bot.messages import Message
from bot.ports import ChatError
from bot.ports.platform import ChannelNames, PostAttempt, Posted, failed_attempt
from bot.ports.readback import SeenReaction, ThreadPage
from bot.services.reply import Reply
from bot.slack import blocks, history, ids, render
from bot.slack.errors import chat_error, connection_error
from bot.slack.pacing import HistoryLimits
from bot.slack.readback import SlackReadBack

log = logging.getLogger(__name__)

NAME_TTL_SECONDS = 3600
USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")


class SlackChat:
    """The Chat port for Slack: posts, history look-ups, notices, admin checks."""

    def __init__(
        self,
        *,
        client: WebClient,
        post_client: WebClient,
        reader: SlackReadBack | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """`client` retries everything; `post_client` only what cannot double a message;
        `reader` reads history and posts back within Slack's limits (by default on `client`,
        under the tiers)."""
        self.client = client
        self.post_client = post_client
        self.reader = reader or SlackReadBack(client=client, limits=HistoryLimits())
        self.sleep = sleep
        self._names: dict[str, tuple[str, float]] = {}

    def _named(self, *, card: PaperCard) -> PaperCard:
        """The card with the adder's display name, when a Slack user added the paper."""
        adder = card.paper.added_by
        if card.added_by_name or not adder or not USER_ID.match(adder):
            return card
        return replace(card, added_by_name=self.display_name(user=adder))

    def names(self, user: str) -> str:
        """How a person is shown in our messages: their display name, never a mention."""
        return self.display_name(user=user) if USER_ID.match(user) else user

    def render(self, *, message: Message) -> tuple[str, list[dict[str, Any]]]:
        """(fallback text, blocks) of a neutral message."""
        return render.render(message=message, names=self.names)

    def answer(self, *, reply: Reply) -> tuple[str, list[dict[str, Any]]]:
        """(notification text, blocks) of a reply: its summary when it has one, made inert."""
        text, shown = self.render(message=reply.message)
        if reply.summary is not None:
            text = render.data(text=reply.summary, limit=render.SECTION_MAX)
        return text, shown

    def try_post(self, *, channel: ChannelKey, card: PaperCard) -> PostAttempt:
        """One chat.postMessage of a daily paper, with its post id in the message metadata
        (find_post looks for it there)."""
        text, message_blocks = blocks.paper_message(card=self._named(card=card), names=self.names)
        metadata = {
            "event_type": ids.METADATA_EVENT_TYPE,
            "event_payload": {
                "post_id": card.post_id,
                "paper_id": card.paper.id,
                "date": card.local_date.isoformat(),
            },
        }
        try:
            response = self.post_client.chat_postMessage(
                channel=channel.channel,
                text=text,
                blocks=message_blocks,
                metadata=metadata,
                unfurl_links=False,
                unfurl_media=False,
            )
        except SlackApiError as exc:
            return failed_attempt(error=chat_error(error=exc))
        except (URLError, TimeoutError, OSError) as exc:
            return failed_attempt(error=connection_error(error=exc))
        ts = str(response["ts"])
        link = self._permalink(channel=channel.channel, ts=ts)
        return Posted(message=PostedMessage(message_id=ts, permalink=link))

    def pause(self, *, seconds: float) -> None:
        """Wait between two attempts (`sleep`, which tests replace)."""
        self.sleep(seconds)

    def _permalink(self, *, channel: str, ts: str) -> str | None:
        """The message's permalink; a failure here must not fail the post."""
        try:
            return str(self.client.chat_getPermalink(channel=channel, message_ts=ts)["permalink"])
        except (SlackApiError, URLError, OSError) as exc:
            log.warning("no permalink for %s/%s: %s", channel, ts, exc)
            return None

    def find_post(
        self,
        *,
        channel: ChannelKey,
        post_id: int,
        since: datetime | None,
        card: PaperCard | None = None,
    ) -> PostedMessage | None:
        """Page through recent history for the daily post carrying this post id (within
        Slack's limits on conversations.history: the reader's page size and Retry-After)."""
        for message in history.recent(reader=self.reader, channel=channel, oldest=since):
            if history.is_post(message=message, post_id=post_id):
                ts = str(message["ts"])
                link = self._permalink(channel=channel.channel, ts=ts)
                return PostedMessage(message_id=ts, permalink=link)
        return None

    def find_notice(self, *, channel: ChannelKey, message: Message, since: datetime) -> str | None:
        """Page through recent history for a message of our bot user's whose blocks carry one
        of this message's buttons (action_id and value); its ts."""
        wanted = history.buttons_of(message=message)
        if not wanted:
            return None  # nothing to know it by
        me = self.reader.bot_user()
        for seen in history.recent(reader=self.reader, channel=channel, oldest=since):
            if history.shows_any(message=seen, buttons=wanted, bot_user=me):
                return str(seen["ts"])
        return None

    def reactions_on(
        self, *, channel: ChannelKey, message_id: str, names: frozenset[str]
    ) -> list[SeenReaction]:
        """ports.ReadBack: the post's voting reactions now (bot.slack.readback)."""
        return self.reader.reactions_on(channel=channel, message_id=message_id, names=names)

    def thread_page(
        self, *, channel: ChannelKey, message_id: str, cursor: str | None
    ) -> ThreadPage:
        """ports.ReadBack: one page of the post's thread (bot.slack.readback)."""
        return self.reader.thread_page(channel=channel, message_id=message_id, cursor=cursor)

    def send_notice(self, *, channel: ChannelKey, message: Message) -> str | None:
        """Say something to the whole channel (no blind retry on a 5xx: it may have landed)."""
        return self._say(conversation=channel.channel, message=message)

    def send_direct(self, *, channel: ChannelKey, user: str, message: Message) -> str | None:
        """Say something to one member in the bot's DM with them, as Slack has bots do it:
        conversations.open (scope im:write) names the DM, then chat.postMessage says it there,
        rendered as a notice."""
        try:
            opened = self.client.conversations_open(users=user)  # idempotent: retried
            conversation = str(opened["channel"]["id"])
        except SlackApiError as exc:
            raise _nothing_said(error=chat_error(error=exc)) from None
        except (URLError, OSError) as exc:
            raise _nothing_said(error=connection_error(error=exc)) from None
        return self._say(conversation=conversation, message=message)

    def _say(self, *, conversation: str, message: Message) -> str:
        """One chat.postMessage of a neutral message (blocks, and the text fallback) -> its ts."""
        text, shown = self.render(message=message)
        try:
            response = self.post_client.chat_postMessage(
                channel=conversation,
                text=text,
                blocks=shown,
                unfurl_links=False,
                unfurl_media=False,
            )
            return str(response["ts"])
        except SlackApiError as exc:
            raise chat_error(error=exc) from None
        except (URLError, OSError) as exc:
            raise connection_error(error=exc) from None

    def update_post(self, *, channel: ChannelKey, message_id: str, card: PaperCard) -> None:
        """Redraw a daily post with fresh counts (chat.update is idempotent, so it is retried)."""
        text, message_blocks = blocks.paper_message(card=self._named(card=card), names=self.names)
        try:
            self.client.chat_update(
                channel=channel.channel, ts=message_id, text=text, blocks=message_blocks
            )
        except SlackApiError as exc:
            raise chat_error(error=exc) from None
        except (URLError, OSError) as exc:
            raise connection_error(error=exc) from None

    def display_name(self, *, user: str) -> str:
        """A person's display name (cached for an hour); the id when Slack cannot say."""
        now = time.monotonic()
        cached = self._names.get(user)
        if cached is not None and now - cached[1] < NAME_TTL_SECONDS:
            return cached[0]
        try:
            info = self.client.users_info(user=user)["user"]
        except (SlackApiError, URLError, OSError) as exc:
            log.warning("users.info failed for %s: %s", user, exc)
            return cached[0] if cached else user
        profile = info.get("profile") or {}
        name = str(
            profile.get("display_name")
            or profile.get("real_name")
            or info.get("real_name")
            or info.get("name")
            or user
        )
        self._names[user] = (name, now)
        return name

    def is_private(self, *, channel: ChannelKey) -> bool:
        """Private channels, DMs and group DMs, per conversations.info; True when Slack cannot
        say (what is said in a channel of unknown kind stays there)."""
        try:
            info = self.client.conversations_info(channel=channel.channel)["channel"]
        except (SlackApiError, URLError, OSError) as exc:
            log.warning("conversations.info failed for %s: %s", channel, exc)
            return True
        return bool(info.get("is_private") or info.get("is_im") or info.get("is_mpim"))

    def names_of(self, *, channel: ChannelKey, people: Sequence[str]) -> ChannelNames:
        """The channel's name per conversations.info, people's per users.info (cached);
        whoever Slack cannot name is left out."""
        try:
            info = self.client.conversations_info(channel=channel.channel)["channel"]
            name = str(info.get("name") or "") or None
        except (SlackApiError, URLError, OSError) as exc:
            log.warning("conversations.info failed for %s: %s", channel, exc)
            name = None
        named = {user: self.display_name(user=user) for user in people if USER_ID.match(user)}
        return ChannelNames(channel=name, people={u: n for u, n in named.items() if n != u})

    def is_admin(self, *, channel: ChannelKey, user: str) -> bool:
        """Workspace admins and owners, per users.info; anyone unknown is not."""
        try:
            info = self.client.users_info(user=user)["user"]
        except (SlackApiError, URLError, OSError) as exc:
            log.warning("users.info failed for %s: %s", user, exc)
            return False
        return bool(info.get("is_admin") or info.get("is_owner") or info.get("is_primary_owner"))


def _nothing_said(*, error: ChatError) -> ChatError:
    """The error of a call made before anything was posted: whatever happened to it, no
    message can exist yet."""
    return ChatError(code=error.code, hint=error.hint, posted_nothing=True)


__all__ = ["ChatError", "SlackChat"]
