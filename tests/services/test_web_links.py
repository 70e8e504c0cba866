"""Sign-in links to the web archive: a token opens its own workspace until it expires, and a
changed character makes it worthless."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import unquote

import pytest

from bot.domain import LOCAL, WorkspaceKey
from bot.services import web_links
from bot.services.web_links import BadLink, Signer
from bot.wording import web as words
from tests.services.conftest import key
from tests.services.support import MONDAY, plain

T1 = WorkspaceKey(platform="slack", id="T1")
SIGNER = Signer(key=b"k" * 32, base="https://archive.example", minutes=30)


def test_a_token_opens_its_workspace_until_it_expires() -> None:
    token = SIGNER.token(workspace=T1, now=MONDAY)
    assert SIGNER.check(token=token, now=MONDAY) == T1
    assert SIGNER.check(token=token, now=MONDAY + timedelta(minutes=30)) == T1
    with pytest.raises(BadLink) as late:
        SIGNER.check(token=token, now=MONDAY + timedelta(minutes=30, seconds=1))
    assert late.value.expired
    local = SIGNER.token(workspace=LOCAL, now=MONDAY)
    assert SIGNER.check(token=local, now=MONDAY) == LOCAL


def test_a_changed_token_or_another_key_is_worthless() -> None:
    token = SIGNER.token(workspace=T1, now=MONDAY)
    other_workspace = token.replace("slack:T1", "slack:T2", 1)
    later_expiry = token.replace("~1", "~2", 1)
    flipped = token[:-1] + ("0" if token[-1] != "0" else "1")
    for bad in (other_workspace, later_expiry, flipped, token[:-5], "", "~~", "<!channel>"):
        with pytest.raises(BadLink) as raised:
            SIGNER.check(token=bad, now=MONDAY)
        assert not raised.value.expired, bad
    stranger = Signer(key=b"other" * 8, base=SIGNER.base)
    with pytest.raises(BadLink):
        stranger.check(token=token, now=MONDAY)


def test_the_link_carries_the_token_to_the_signin_page() -> None:
    link = SIGNER.link(workspace=T1, now=MONDAY)
    assert link.startswith("https://archive.example/signin?token=")
    token = unquote(link.split("token=", 1)[1])
    assert SIGNER.check(token=token, now=MONDAY) == T1


def test_web_without_sign_in_says_so() -> None:
    reply = web_links.reply(channel=key("C1"), now=MONDAY, signer=None)
    assert reply.message == words.WEB_OFF


def test_web_hands_out_a_link_to_the_askers_workspace() -> None:
    installed = SIGNER
    reply = web_links.reply(channel=key("C1", workspace="T9"), now=MONDAY, signer=installed)
    assert reply.message == words.link(
        url=installed.link(workspace=WorkspaceKey(platform="slack", id="T9"), now=MONDAY),
        minutes=30,
    )
    assert "the link works for 30 minutes" in plain(reply.message)
