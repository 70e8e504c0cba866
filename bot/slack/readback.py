"""Reading a daily post back from Slack (ports.ReadBack): its reactions (reactions.get) and its
thread (conversations.replies), and history pages for the crash look-up (find_post).

Every call here goes through its own WebClient, without slack_sdk's rate-limit retries: a
429 is waited out by the Pacer on the caller's thread (the reconciler's, or the poster's for
find_post), so a wait of minutes never holds up the Bolt app's client, the daily post or a
redraw.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any
from urllib.error import URLError

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.web import SlackResponse

from bot.domain import ChannelKey
from bot.ports import ChatError
from bot.ports.readback import SeenReaction, SeenReply, ThreadPage
from bot.slack.errors import chat_error, connection_error
from bot.slack.pacing import HistoryLimits, Pacer
from bot.slack.text import typed
from bot.slack.thread_rules import REPLY_SUBTYPES, by_a_person

# Answers that mean "there is no thread to read" (the post or its thread is gone).
NO_THREAD = frozenset({"thread_not_found", "message_not_found"})
HISTORY = "conversations.history"
REPLIES = "conversations.replies"
REACTIONS = "reactions.get"


def stamp(ts: object) -> datetime:
    """A Slack ts (seconds since the epoch, as text) as an aware UTC datetime."""
    return datetime.fromtimestamp(float(str(ts)), tz=UTC)


def base_name(name: str) -> str:
    """A reaction's name without its skin tone (`+1` of `+1::skin-tone-2`)."""
    return name.split("::", 1)[0]


@contextmanager
def _as_chat_errors() -> Iterator[None]:
    """Slack's refusals and network failures as ports.ChatError."""
    try:
        yield
    except SlackApiError as exc:
        raise chat_error(error=exc) from None
    except (URLError, OSError) as exc:
        raise connection_error(error=exc) from None


class SlackReadBack:
    """ports.ReadBack for one workspace's token, within Slack's limits."""

    def __init__(
        self, *, client: WebClient, limits: HistoryLimits, pacer: Pacer | None = None
    ) -> None:
        """`client`: the reader's own (make_client with rate_limit_retries=False); `limits`:
        which history limits apply; `pacer`: shared by every call of this workspace (one is
        made when None)."""
        self.client = client
        self.limits = limits
        self.pacer = pacer or Pacer()

    def halt(self) -> None:
        """The process is stopping: every wait for Slack's limits ends now."""
        self.pacer.halt()

    def _call(
        self, *, channel: ChannelKey, method: str, ask: Callable[[], SlackResponse]
    ) -> SlackResponse:
        """One paced call in the channel's workspace."""
        return self.pacer.call(workspace=channel.workspace, method=method, ask=ask)

    def _bot_user(self) -> str:
        """Our bot's user id (auth.test, asked once by an IdentityClient)."""
        return str(self.client.auth_test().get("user_id") or "")

    def bot_user(self) -> str:
        """Our bot's user id, for telling our messages in history from others'; ChatError
        when Slack cannot be asked."""
        with _as_chat_errors():
            return self._bot_user()

    def reactions_on(
        self, *, channel: ChannelKey, message_id: str, names: frozenset[str]
    ) -> list[SeenReaction]:
        """reactions.get with full=true: one SeenReaction per person and reaction name whose
        base name votes; the bot's own reactions left out."""
        with _as_chat_errors():
            me = self._bot_user()
            answer = self._call(
                channel=channel,
                method=REACTIONS,
                ask=lambda: self.client.reactions_get(
                    channel=channel.channel, timestamp=message_id, full=True
                ),
            )
        message: dict[str, Any] = answer.get("message") or {}
        seen: list[SeenReaction] = []
        for reaction in message.get("reactions") or []:
            name = str(reaction.get("name") or "")
            if not name or base_name(name) not in names:
                continue
            for user in dict.fromkeys(str(u) for u in reaction.get("users") or []):
                if user and user != me:
                    seen.append(SeenReaction(user=user, name=name, emoji=name))
        return seen

    def thread_page(
        self, *, channel: ChannelKey, message_id: str, cursor: str | None
    ) -> ThreadPage:
        """One page of conversations.replies, as the live listener would have stored its
        replies (same subtypes, people only, text undone once); the post itself left out on
        whichever page Slack repeats it."""
        try:
            with _as_chat_errors():
                answer = self._call(
                    channel=channel,
                    method=REPLIES,
                    ask=lambda: self.client.conversations_replies(
                        channel=channel.channel,
                        ts=message_id,
                        cursor=cursor,
                        limit=self.limits.page,
                    ),
                )
        except Exception as exc:
            # Only a first page: a thread gone half-way through its read is no empty thread
            # (its unread replies would be taken for deleted).
            if cursor is None and getattr(exc, "code", None) in NO_THREAD:
                return ThreadPage(replies=(), cursor=None)
            raise
        replies = tuple(
            reply
            for message in answer.get("messages") or []
            if (reply := _reply(message=message, post=message_id)) is not None
        )
        return ThreadPage(replies=replies, cursor=_next_cursor(answer=answer))

    def history_page(
        self, *, channel: ChannelKey, oldest: str, cursor: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """One page of conversations.history with every message's metadata (find_post's
        look-up): (messages newest first, the next page's cursor or None)."""
        with _as_chat_errors():
            answer = self._call(
                channel=channel,
                method=HISTORY,
                ask=lambda: self.client.conversations_history(
                    channel=channel.channel,
                    oldest=oldest,
                    limit=self.limits.page,
                    include_all_metadata=True,
                    cursor=cursor,
                ),
            )
        return list(answer.get("messages") or []), _next_cursor(answer=answer)


def _next_cursor(*, answer: SlackResponse) -> str | None:
    """The next page's cursor; None on the last page (an empty cursor, or has_more false)."""
    cursor = (answer.get("response_metadata") or {}).get("next_cursor") or None
    if answer.get("has_more") is False:
        return None
    if not cursor and answer.get("has_more"):
        # More to read and no way to ask for it: the read is incomplete, not finished.
        raise ChatError(
            code="no_cursor",
            hint="Slack said there was more and gave no cursor; read again later",
            posted_nothing=True,
        )
    return str(cursor) if cursor else None


def _reply(*, message: dict[str, Any], post: str) -> SeenReply | None:
    """A reply as the live listener would have stored it; None for the post itself, bots'
    messages and subtypes that are not a person's words."""
    ts = str(message.get("ts") or "")
    if not ts or ts == post or ts == message.get("thread_ts") or not message.get("thread_ts"):
        return None
    if message.get("subtype") not in REPLY_SUBTYPES or not by_a_person(message):
        return None
    edited = (message.get("edited") or {}).get("ts")
    return SeenReply(
        message_id=ts,
        user=str(message["user"]),
        text=typed(str(message.get("text", ""))),
        written_at=stamp(ts),
        edited_at=stamp(edited) if edited else None,
    )
