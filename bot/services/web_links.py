"""Sign-in links to the web archive: `/paperclub web` hands one out, the archive checks it.

A token names the workspace it opens and when it expires, with an HMAC-SHA256 of both under
a key from the environment; a changed character or a passed expiry makes it worthless. The
wiring builds the signer when a key is set, and the club hands it to the command.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import quote

from bot.domain import ChannelKey, WorkspaceKey
from bot.ports.archive_pages import one_person
from bot.services.reply import Reply
from bot.services.workspaces import WorkspaceUnknown, parse_workspace
from bot.wording import web as wording

SEPARATOR = "~"  # in neither a workspace key nor a hex digest, and safe in a URL


class BadLink(ValueError):
    """A token that was tampered with (`expired` False) or is too old (`expired` True)."""

    def __init__(self, *, expired: bool) -> None:
        """Remember which."""
        super().__init__("expired" if expired else "invalid")
        self.expired = expired


@dataclass(frozen=True, slots=True)
class Signer:
    """Makes and checks tokens with one key; `base`: the archive's public address."""

    key: bytes
    base: str
    minutes: int = 60

    def _mac(self, *, body: str) -> str:
        """The token body's signature."""
        return hmac.new(
            self.key, f"paperclub-archive{SEPARATOR}{body}".encode(), hashlib.sha256
        ).hexdigest()

    def token(self, *, workspace: WorkspaceKey, now: datetime) -> str:
        """A token opening `workspace` until `minutes` from now."""
        expires = math.floor((now + timedelta(minutes=self.minutes)).timestamp())
        body = f"{workspace}{SEPARATOR}{expires}"
        return f"{body}{SEPARATOR}{self._mac(body=body)}"

    def link(self, *, workspace: WorkspaceKey, now: datetime) -> str:
        """The URL that signs its visitor in."""
        return f"{self.base}/signin?token={quote(self.token(workspace=workspace, now=now))}"

    def calendar_token(self, *, channel: ChannelKey) -> str:
        """A channel's calendar feed token: the channel and an HMAC under its own purpose, with
        no expiry (a calendar app keeps one address for good); a changed key ends every one."""
        body = SEPARATOR.join((channel.platform, channel.workspace, channel.channel))
        mac = hmac.new(
            self.key, f"paperclub-calendar{SEPARATOR}{body}".encode(), hashlib.sha256
        ).hexdigest()
        return f"{body}{SEPARATOR}{mac}"

    def calendar_link(self, *, channel: ChannelKey) -> str:
        """The address of a channel's calendar feed (iCalendar)."""
        return f"{self.base}/calendar/{quote(self.calendar_token(channel=channel))}.ics"

    def check_calendar(self, *, token: str) -> ChannelKey:
        """The channel a genuine calendar token names (BadLink otherwise)."""
        parts = token.split(SEPARATOR)
        if len(parts) != 4:
            raise BadLink(expired=False)
        channel = ChannelKey(platform=parts[0], workspace=parts[1], channel=parts[2])
        wanted = self.calendar_token(channel=channel)
        if not hmac.compare_digest(token.encode(), wanted.encode()):
            raise BadLink(expired=False)
        return channel

    def check(self, *, token: str, now: datetime) -> WorkspaceKey:
        """The workspace a genuine, unexpired token opens (BadLink otherwise)."""
        body, _, mac = token.rpartition(SEPARATOR)
        name, _, expires = body.rpartition(SEPARATOR)
        if not hmac.compare_digest(mac.encode(), self._mac(body=body).encode()):
            raise BadLink(expired=False)
        if not expires.isdigit() or int(expires) < now.timestamp():
            raise BadLink(expired=True)
        try:
            return parse_workspace(text=name)
        except WorkspaceUnknown:
            raise BadLink(expired=False) from None


def reply(*, channel: ChannelKey, now: datetime, signer: Signer | None) -> Reply:
    """`/paperclub web`: a link to the archive of the asker's workspace, or why there is none
    (`signer` None: sign-in is off)."""
    if signer is None:
        # The console's person runs Paper Club: nobody else to ask for the address.
        here = one_person(workspace=channel.workspace_key)
        return Reply(message=wording.WEB_HERE if here else wording.WEB_OFF)
    url = signer.link(workspace=channel.workspace_key, now=now)
    return Reply(message=wording.link(url=url, minutes=signer.minutes))
