"""Every installed workspace's own Bolt app, Chat and poster, built on first use from its bot
token in the installation store, and a Chat that sends each call to the channel's workspace."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from slack_bolt import App
from slack_sdk.oauth.installation_store import Bot, InstallationStore

from bot.domain import ChannelKey, PaperCard, PostedMessage
from bot.messages import Message
from bot.ports import ChatError
from bot.ports.platform import ChannelNames, PostAttempt, failed_attempt
from bot.ports.readback import SeenReaction, ThreadPage
from bot.services.posting import Poster
from bot.slack.chat import SlackChat

log = logging.getLogger(__name__)
# How often "no installation" is logged per workspace: the sweep asks every minute.
QUIET_SECONDS = 3600.0


@dataclass(frozen=True, slots=True)
class Team:
    """One installed workspace, wired as a single-workspace bot on its own token."""

    team_id: str
    token: str
    app: App
    chat: SlackChat
    poster: Poster


class Teams:
    """The installed workspaces, looked up in the store on every request (a token revoked or
    replaced by a reinstall is seen at once) and built once per token."""

    def __init__(self, *, store: InstallationStore, build: Callable[[Bot], Team]) -> None:
        """`build` wires a workspace from its stored bot."""
        self._store, self._build = store, build
        self._lock = threading.Lock()
        self._teams: dict[str, Team] = {}
        self._said: dict[str, float] = {}

    def get(self, *, team_id: str | None, enterprise_id: str | None = None) -> Team | None:
        """The workspace's wiring for its current bot token; None when it has no installation."""
        if not team_id:
            return None
        bot = self._store.find_bot(enterprise_id=enterprise_id, team_id=team_id)
        if bot is None or not bot.bot_token:
            self.forget(team_id=team_id)
            return None
        with self._lock:
            team = self._teams.get(team_id)
        if team is not None and team.token == bot.bot_token:
            return team
        fresh = self._build(bot)  # outside the lock: it asks Slack who the token is
        with self._lock:
            self._teams[team_id] = fresh
        return fresh

    def forget(self, *, team_id: str) -> None:
        """Drop a workspace's wiring (uninstalled, or its token revoked)."""
        with self._lock:
            self._teams.pop(team_id, None)

    def missing(self, *, team_id: str) -> ChatError:
        """The error for a call into a workspace with no installation, logged once an hour."""
        now = time.monotonic()
        with self._lock:
            quiet = now - self._said.get(team_id, -QUIET_SECONDS) < QUIET_SECONDS
            if not quiet:
                self._said[team_id] = now
        if not quiet:
            log.warning("workspace %s has no installation: its posts are skipped", team_id)
        return ChatError(
            code="not_installed",
            hint=f"Paper Club is not installed in workspace {team_id} (uninstalled?)",
            posted_nothing=True,
        )


class TeamChat:
    """The Chat port over every installed workspace: each call goes to the channel's own."""

    def __init__(self, *, teams: Teams, sleep: Callable[[float], None] = time.sleep) -> None:
        """Route through `teams`."""
        self._teams = teams
        self.sleep = sleep

    def _chat(self, *, channel: ChannelKey) -> SlackChat:
        """The channel's workspace's Chat; ChatError when it has no installation."""
        team = self._teams.get(team_id=channel.workspace)
        if team is None:
            raise self._teams.missing(team_id=channel.workspace)
        return team.chat

    def try_post(self, *, channel: ChannelKey, card: PaperCard) -> PostAttempt:
        """Try in the channel's workspace; one with no installation posts nothing."""
        try:
            chat = self._chat(channel=channel)
        except ChatError as error:
            return failed_attempt(error=error)
        return chat.try_post(channel=channel, card=card)

    def pause(self, *, seconds: float) -> None:
        """Wait between two attempts (`sleep`, which tests replace)."""
        self.sleep(seconds)

    def find_post(
        self,
        *,
        channel: ChannelKey,
        post_id: int,
        since: datetime | None,
        card: PaperCard | None = None,
    ) -> PostedMessage | None:
        """Look in the channel's own workspace."""
        chat = self._chat(channel=channel)
        return chat.find_post(channel=channel, post_id=post_id, since=since, card=card)

    def reactions_on(
        self, *, channel: ChannelKey, message_id: str, names: frozenset[str]
    ) -> list[SeenReaction]:
        """ports.ReadBack, read in the channel's own workspace."""
        chat = self._chat(channel=channel)
        return chat.reactions_on(channel=channel, message_id=message_id, names=names)

    def thread_page(
        self, *, channel: ChannelKey, message_id: str, cursor: str | None
    ) -> ThreadPage:
        """ports.ReadBack, read in the channel's own workspace."""
        chat = self._chat(channel=channel)
        return chat.thread_page(channel=channel, message_id=message_id, cursor=cursor)

    def send_notice(self, *, channel: ChannelKey, message: Message) -> str | None:
        """Say it in the channel's workspace."""
        return self._chat(channel=channel).send_notice(channel=channel, message=message)

    def send_direct(self, *, channel: ChannelKey, user: str, message: Message) -> str | None:
        """Say it to the member in the channel's workspace."""
        chat = self._chat(channel=channel)
        return chat.send_direct(channel=channel, user=user, message=message)

    def find_notice(self, *, channel: ChannelKey, message: Message, since: datetime) -> str | None:
        """Look in the channel's own workspace."""
        chat = self._chat(channel=channel)
        return chat.find_notice(channel=channel, message=message, since=since)

    def update_post(self, *, channel: ChannelKey, message_id: str, card: PaperCard) -> None:
        """Redraw in the channel's workspace."""
        self._chat(channel=channel).update_post(channel=channel, message_id=message_id, card=card)

    def is_admin(self, *, channel: ChannelKey, user: str) -> bool:
        """As the channel's workspace says; nobody is an admin of an uninstalled one."""
        try:
            return self._chat(channel=channel).is_admin(channel=channel, user=user)
        except ChatError:
            return False

    def is_private(self, *, channel: ChannelKey) -> bool:
        """As the channel's workspace says; True when it cannot be asked."""
        try:
            return self._chat(channel=channel).is_private(channel=channel)
        except ChatError:
            return True

    def names_of(self, *, channel: ChannelKey, people: Sequence[str]) -> ChannelNames:
        """As the channel's workspace says; nothing for an uninstalled one."""
        try:
            return self._chat(channel=channel).names_of(channel=channel, people=people)
        except ChatError:
            return ChannelNames(channel=None, people={})
