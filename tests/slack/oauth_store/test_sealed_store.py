"""Installed workspaces' tokens are sealed at rest, opened on read, rotated to a new key."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from slack_sdk.oauth.installation_store.models.installation import Installation
from sqlalchemy import Engine, create_engine, text

from bot.sealing import PREFIX, TokenCipher, UnreadableToken, new_key
from bot.slack.oauth.rotate import rotate_tokens
from bot.slack.oauth.store import SealedInstallationStore

ROOT = Path(__file__).resolve().parents[2]
OLD, NEW = new_key(), new_key()
BOT_TOKEN = "xoxb-T0002-1-" + "a" * 40
# A rotating token: longer than slack_sdk's 200 characters once sealed.
REFRESH = "xoxe-1-" + "r" * 150


@pytest.fixture
def engine(any_url: str) -> Iterator[Engine]:
    """A migrated database (SQLite, and PostgreSQL where it runs)."""
    made = create_engine(any_url)
    yield made
    made.dispose()


def _installation(team: str = "T0002", token: str = BOT_TOKEN) -> Installation:
    """What Bolt saves after oauth.v2.access."""
    return Installation(
        app_id="A0APP",
        enterprise_id=None,
        team_id=team,
        team_name="Second <!channel> 🎉",
        bot_token=token,
        bot_id="B0BOT2",
        bot_user_id="U0BOT2",
        bot_scopes="chat:write",
        bot_refresh_token=REFRESH,
        user_id="U0INSTALLER",
        user_token="xoxp-" + "u" * 60,
    )


def _stored(engine: Engine) -> list[str]:
    """Every token column value as the database holds it."""
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT bot_token, bot_refresh_token, user_token FROM slack_installations")
        ).all()
        bots = conn.execute(text("SELECT bot_token, bot_refresh_token FROM slack_bots")).all()
    return [v for row in [*rows, *bots] for v in row if v is not None]


def test_tokens_are_sealed_at_rest_and_open_on_read(engine: Engine) -> None:
    store = SealedInstallationStore(client_id="1.2", engine=engine, cipher=TokenCipher(keys=[OLD]))
    store.save(_installation())
    stored = _stored(engine)
    assert len(stored) == 5 and all(v.startswith(PREFIX) for v in stored)
    assert not any(BOT_TOKEN in v or "xox" in v for v in stored)
    bot = store.find_bot(enterprise_id=None, team_id="T0002")
    assert bot is not None and (bot.bot_token, bot.bot_refresh_token) == (BOT_TOKEN, REFRESH)
    found = store.find_installation(enterprise_id=None, team_id="T0002")
    assert found is not None and found.bot_token == BOT_TOKEN
    assert found.user_token == "xoxp-" + "u" * 60 and found.team_name == "Second <!channel> 🎉"
    assert store.find_bot(enterprise_id=None, team_id="T0009") is None


def test_a_revoked_bot_is_gone_from_every_row(engine: Engine) -> None:
    store = SealedInstallationStore(client_id="1.2", engine=engine, cipher=TokenCipher(keys=[OLD]))
    store.save(_installation())
    store.save(_installation(team="T0003", token="xoxb-T0003-2-" + "b" * 40))
    store.delete_bot(enterprise_id=None, team_id="T0002")
    assert store.find_bot(enterprise_id=None, team_id="T0002") is None
    found = store.find_installation(enterprise_id=None, team_id="T0002")
    assert found is not None and found.bot_token is None and found.bot_refresh_token is None
    other = store.find_bot(enterprise_id=None, team_id="T0003")
    assert other is not None and other.bot_token == "xoxb-T0003-2-" + "b" * 40


def test_rotation_reseals_under_the_new_key(engine: Engine) -> None:
    SealedInstallationStore(client_id="1.2", engine=engine, cipher=TokenCipher(keys=[OLD])).save(
        _installation()
    )
    with engine.begin() as conn:  # a token stored before encryption existed
        conn.execute(text("UPDATE slack_bots SET bot_refresh_token = 'xoxe-plain'"))
    seen: list[tuple[int, int]] = []
    outcome = rotate_tokens(
        engine=engine,
        cipher=TokenCipher(keys=[NEW, OLD]),
        progress=lambda d, t: seen.append((d, t)),
    )
    assert (outcome.rows, outcome.tokens, outcome.unsealed) == (2, 5, 1)
    assert seen == [(0, 2), (1, 2), (2, 2)]
    only_new = SealedInstallationStore(
        client_id="1.2", engine=engine, cipher=TokenCipher(keys=[NEW])
    )
    bot = only_new.find_bot(enterprise_id=None, team_id="T0002")
    assert bot is not None and (bot.bot_token, bot.bot_refresh_token) == (BOT_TOKEN, "xoxe-plain")
    with pytest.raises(UnreadableToken):  # the old key alone opens nothing any more
        SealedInstallationStore(
            client_id="1.2", engine=engine, cipher=TokenCipher(keys=[OLD])
        ).find_bot(enterprise_id=None, team_id="T0002")


def test_rotation_without_the_old_key_changes_nothing(engine: Engine) -> None:
    SealedInstallationStore(client_id="1.2", engine=engine, cipher=TokenCipher(keys=[OLD])).save(
        _installation()
    )
    before = _stored(engine)
    with pytest.raises(UnreadableToken):
        rotate_tokens(engine=engine, cipher=TokenCipher(keys=[NEW]))
    assert _stored(engine) == before


def test_the_cli_rotates_and_reports_as_json(sqlite_url: str, tmp_path: Path) -> None:
    """`paperclub secrets rotate --json` in a real process; no key or token in its output."""
    engine = create_engine(sqlite_url)
    try:
        SealedInstallationStore(
            client_id="1.2", engine=engine, cipher=TokenCipher(keys=[OLD])
        ).save(_installation())
    finally:
        engine.dispose()
    env = {
        "PATH": "/usr/bin:/bin",
        "PAPERCLUB_DATABASE_URL": sqlite_url,
        "SLACK_CLIENT_ID": "1.2",
        "SLACK_CLIENT_SECRET": "client-secret-xyz",
        "PAPERCLUB_SECRET_KEY": f"{NEW},{OLD}",
    }
    for args, expect in (
        (["--json"], '{"rows": 2, "tokens": 5, "unsealed": 0, "zotero_keys": 0, "keys": 2}'),
        ([], ""),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "bot", "secrets", "rotate", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        if expect:
            assert json.loads(done.stdout) == json.loads(expect)
        else:
            assert "Re-encrypted 5 token(s) in 2 row(s)" in done.stdout
            assert "re-encrypted 2/2 rows" in done.stderr
        for secret in (NEW, OLD, BOT_TOKEN, "client-secret-xyz"):
            assert secret not in done.stdout + done.stderr
