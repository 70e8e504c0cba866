"""The ports to the outside world: a chat platform, paper metadata, and the clock."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from threading import Event
from typing import Any, Protocol, runtime_checkable

from bot.domain import ChannelKey, PaperCard, PaperDraft, PostedMessage
from bot.messages import Message


class Clock(Protocol):
    """Where "now" comes from, so tests and the scheduler decide what time it is."""

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        ...


class ChatError(Exception):
    """A platform refused or failed a call; `posted_nothing` is True only when it surely did not
    post (so retrying cannot double a message)."""

    def __init__(self, *, code: str, hint: str, posted_nothing: bool) -> None:
        """Keep the platform's error code and a hint for the operator."""
        super().__init__(f"{code}: {hint}")
        self.code = code
        self.hint = hint
        self.posted_nothing = posted_nothing


@dataclass(frozen=True, slots=True)
class Posted:
    """One attempt posted the message."""

    message: PostedMessage


@dataclass(frozen=True, slots=True)
class PostedNothing:
    """A clear refusal (channel_not_found, a missing permission): nothing was posted, so the
    same attempt is never retried and the paper may go back to the queue."""

    error: ChatError


@dataclass(frozen=True, slots=True)
class MaybePosted:
    """A timeout, a 5xx, a dropped connection: the message may exist all the same, so only a
    look in the channel's history can tell."""

    error: ChatError


# What one attempt at a daily post did, as the platform saw it.
PostAttempt = Posted | PostedNothing | MaybePosted


def failed_attempt(*, error: ChatError) -> PostedNothing | MaybePosted:
    """The attempt a platform error stands for: nothing posted only when it surely was not."""
    return PostedNothing(error=error) if error.posted_nothing else MaybePosted(error=error)


@dataclass(frozen=True, slots=True)
class ChannelNames:
    """What the platform calls a channel and some people in it (shown by the web archive);
    `channel` None, or a person left out, where the platform cannot say."""

    channel: str | None
    people: Mapping[str, str]


class Chat(Protocol):
    """What the core asks of a chat platform; each platform renders and escapes the values.
    How often to try a daily post and when to look for it is the core's (services/delivery.py):
    a Chat makes one attempt and looks in history when asked."""

    def try_post(self, *, channel: ChannelKey, card: PaperCard) -> PostAttempt:
        """Make one attempt at a daily post, carrying its post id so that find_post can find it
        again; what the platform answered comes back as a value, never raised."""
        ...

    def find_post(
        self,
        *,
        channel: ChannelKey,
        post_id: int,
        since: datetime | None,
        card: PaperCard | None = None,
    ) -> PostedMessage | None:
        """Look in the channel's recent history for the daily post with this id (after a crash
        or an attempt that may have posted); with its `card`, finish a found post as try_post
        would have (Discord opens its thread). ChatError when history cannot be read."""
        ...

    def pause(self, *, seconds: float) -> None:
        """Wait this long before another attempt (a test's Chat may skip the wait)."""
        ...

    def send_notice(self, *, channel: ChannelKey, message: Message) -> str | None:
        """Say something to the whole channel; the message id when the platform has one."""
        ...

    def send_direct(self, *, channel: ChannelKey, user: str, message: Message) -> str | None:
        """Say something to one member alone, in a direct message from the bot (the member
        of `channel`'s workspace); the message's id. ChatError when the platform refuses (the
        member's DMs closed, a member gone)."""
        ...

    def find_notice(self, *, channel: ChannelKey, message: Message, since: datetime) -> str | None:
        """Look in the channel's history since `since` for a message of ours that carries one of
        this message's buttons (the same action and value: a tray's suggestion numbers, each
        shown in one tray); its id, or None. ChatError when history cannot be read."""
        ...

    def update_post(self, *, channel: ChannelKey, message_id: str, card: PaperCard) -> None:
        """Redraw a daily post (its vote counts changed)."""
        ...

    def is_admin(self, *, channel: ChannelKey, user: str) -> bool:
        """Whether the platform says this user administers the workspace (or guild) of the
        channel the command came from."""
        ...

    def is_private(self, *, channel: ChannelKey) -> bool:
        """Whether the channel is private (a private channel, a DM, a private thread);
        True when the platform cannot say, so nothing leaks by default."""
        ...

    def names_of(self, *, channel: ChannelKey, people: Sequence[str]) -> ChannelNames:
        """The channel's name and these people's display names, as the platform shows them
        (asked by the minute sweep for names the archive lacks, at most daily each); never
        raises: what cannot be asked is left out."""
        ...


class PlatformStartError(RuntimeError):
    """A platform refused to let the bot start (a bad token, an unreachable API)."""


class Platform(Protocol):
    """A chat platform plugged into the bot: its name, its Chat, how it serves and stops, and
    how it renders a message. Built by its folder's plugin from what every platform shares."""

    @property
    def name(self) -> str:
        """The platform's name as stored in channel keys: "slack", "console", ..."""
        ...

    @property
    def chat(self) -> Chat:
        """The platform's Chat, for the poster, the scheduler and redraws."""
        ...

    def render(self, *, message: Message) -> str:
        """The message as this platform sends it: its own markup with every run escaped
        (Slack's mrkdwn), or the text it shows (the console)."""
        ...

    def serve(self, *, stop: Event) -> None:
        """Serve until `stop` is set (or the platform ends by itself, like the console on EOF)."""
        ...

    def close(self) -> None:
        """Let go of connections and threads; called once, after serve returned."""
        ...


# How long the main thread blocks at a time while it waits for the stop (the longest a stop
# signal that lands in the gap below waits to be heard), in seconds.
STOP_POLL_SECONDS = 0.5


def wait_for_stop(*, stop: Event) -> None:
    """Block until `stop` is set, in timed waits. On the main thread an untimed wait can miss
    the stop signal for good: CPython runs a signal's handler between bytecodes, and one that
    lands just before the wait's lock blocks leaves it blocked, with nothing to wake it (it
    hung `paperclub run` about once in thirty SIGTERMs sent right after "connected")."""
    while not stop.wait(timeout=STOP_POLL_SECONDS):
        pass


# A WSGI callable: (environ, start_response) -> the body's chunks.
WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


@runtime_checkable
class ServesHttp(Protocol):
    """A platform that answers HTTP requests (Slack's HTTP mode) on the process's one server,
    beside /healthz and /metrics."""

    @property
    def routes(self) -> Mapping[str, WsgiApp]:
        """Exact paths and the WSGI callables that answer them (none outside HTTP mode)."""
        ...


class SeenRequests(Protocol):
    """Signatures of signed requests seen lately, kept where every replica sees them."""

    def first_time(self, *, signature: str, now: float) -> bool:
        """Record a signature (`now` in Unix seconds); False when it was seen in the window."""
        ...


class LookupFailed(Exception):
    """A metadata service could not be asked (no network, timeout, an error answer)."""


class PaperLookup(Protocol):
    """Where a paper's metadata comes from when only its id is known."""

    def by_arxiv_id(self, *, arxiv_id: str) -> PaperDraft | None:
        """The paper with this canonical arXiv id, or None when there is none."""
        ...

    def by_doi(self, *, doi: str) -> PaperDraft | None:
        """The paper with this DOI, or None when there is none."""
        ...
