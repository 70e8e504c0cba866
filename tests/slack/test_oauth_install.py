"""Distribution end to end: two workspaces install the app through the real OAuth flow (our
HTTP server, the fake's consent page, oauth.v2.access), each posts its own paper on its own
schedule with its own token, votes land on the right post, and uninstalling one stops it while
the other carries on. Requests from a team with no installation are acked and leave no trace."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.sealing import PREFIX
from bot.services import posting
from bot.slack import ids
from tests.fakeslack import (
    block_actions_payload,
    event_body,
    event_envelope_payload,
    interactive_body,
    message_event,
)
from tests.fakeslack.model import Channel
from tests.slack.distribution import NINE, TEAMS, TEN, Deployment, deployed, posts, vote


@pytest.fixture
def deployment(any_url: str) -> Iterator[Deployment]:
    """The distributed bot and the fake, on SQLite and on PostgreSQL, until the test ends."""
    yield from deployed(url=any_url)


def test_two_workspaces_install_post_vote_and_one_uninstalls(deployment: Deployment) -> None:
    d, fake = deployment, deployment.fake
    for team, (_c, _a, _m, _bu, _bi, at, paper) in TEAMS.items():
        page = d.install(team)
        assert "Thank you!" in page and f"team={team}" in page and "<script>" not in page
        d.installed.add(team)
        assert len(fake.tokens(team)) == 1
        assert "now posts here" in (d.command(team, f"schedule {at} Europe/Berlin mon-fri") or "")
        d.command(team, f"add {paper}")
        d.command(team, f"add Second paper of {team}")
    # Tokens are sealed in the database; each workspace's calls carry its own.
    stored = [row[0] for row in d.rows("SELECT bot_token FROM slack_bots")]
    assert len(stored) == 2 and all(v.startswith(PREFIX) for v in stored)
    for team in TEAMS:
        (token,) = fake.tokens(team)
        assert {c.token for c in fake.workspace(team).recorded("chat.postEphemeral")} <= {token}

    d.sweep()  # 09:00 in Berlin: only the first workspace is due
    [alpha] = posts(fake, "T0100")
    assert posts(fake, "T0200") == []
    d.clock.at = TEN
    d.sweep()
    [beta] = posts(fake, "T0200")
    assert "Alpha" in alpha["text"] and "Beta" in beta["text"]
    assert "<!channel>" not in alpha["text"]  # hostile titles are shown, never ping
    for team in TEAMS:
        (token,) = fake.tokens(team)
        assert {c.token for c in fake.workspace(team).recorded("chat.postMessage")} == {token}

    vote(d, "T0100", alpha, TEAMS["T0100"][2])
    votes = d.rows("SELECT p.message_id, v.user_id FROM votes v JOIN posts p ON p.id = v.post_id")
    assert votes == [(alpha["ts"], TEAMS["T0100"][2])]
    alpha_ws = fake.workspace("T0100")
    assert alpha_ws.wait_for(lambda: alpha_ws.recorded("chat.update"), 10)  # redrawn there
    assert fake.workspace("T0200").recorded("chat.update") == []

    # A comment in each thread; a search finds a workspace's own papers and comments only.
    for team, post, word in (("T0100", alpha, "zebra"), ("T0200", beta, "okapi")):
        channel, _admin, member = TEAMS[team][:3]
        reply = message_event(
            channel=channel,
            text=f"a {word} of an idea <!here>",
            user=member,
            team=team,
            thread_ts=str(post["ts"]),
        )
        assert d.post(event_body(event_envelope_payload(reply, team_id=team))) == (200, b"")
    none = "No papers or comments match"
    for team, query, found in (
        ("T0100", "Alpha", True),
        ("T0200", "Alpha", False),
        ("T0100", "zebra", True),
        ("T0200", "zebra", False),
        ("T0100", "okapi", False),
        ("T0200", "okapi", True),
    ):
        assert (none not in (d.command(team, f"search {query}") or none)) is found, (team, query)

    fake.uninstall("T0100")
    event = {"type": "app_uninstalled"}
    assert d.post(event_body(event_envelope_payload(event, team_id="T0100"))) == (200, b"")
    assert d.rows("SELECT team_id FROM slack_bots") == [("T0200",)]
    assert d.rows("SELECT team_id FROM slack_installations") == [("T0200",)]
    d.installed.discard("T0100")

    d.clock.at = NINE.replace(day=6)  # Tuesday: the second workspace still posts, not the first
    results = d.sweep()
    d.clock.at = TEN.replace(day=6)
    results |= d.sweep()
    assert len(posts(fake, "T0100")) == 1 and len(posts(fake, "T0200")) == 2
    outcomes = {key.workspace: r.outcome for key, r in results.items()}
    # The uninstalled workspace's channel is paused, not tried every minute with no token.
    assert outcomes == {"T0100": posting.Outcome.PAUSED, "T0200": posting.Outcome.POSTED}
    assert len(fake.workspace("T0100").recorded("chat.postMessage")) == 1  # never tried again


def test_a_private_channels_comment_is_found_only_there(deployment: Deployment) -> None:
    d, fake = deployment, deployment.fake
    for team in TEAMS:
        d.install(team)
        d.installed.add(team)
    # The searches run as the workspace's admin, who still sees only what the channel may.
    public, _admin, member = TEAMS["T0100"][:3]
    fake.workspace("T0100").add_channel(Channel(id="G0100", name="core-team", is_private=True))
    for channel in (public, "G0100"):
        reply = d.command("T0100", "schedule 09:00 Europe/Berlin mon-fri", channel=channel)
        assert "now posts here" in (reply or "")
        d.command("T0100", f"add A paper for {channel}", channel=channel)
    d.sweep()
    [secret] = [m for m in fake.workspace("T0100").messages("G0100") if m.get("metadata")]
    reply = message_event(
        channel="G0100",
        text="the ocelot plan",
        user=member,
        team="T0100",
        thread_ts=str(secret["ts"]),
    )
    assert d.post(event_body(event_envelope_payload(reply, team_id="T0100"))) == (200, b"")
    none = "No papers or comments match"
    assert none not in (d.command("T0100", "search ocelot", channel="G0100") or none)
    assert none in (d.command("T0100", "search ocelot", channel=public) or "")
    assert none in (d.command("T0200", "search ocelot") or "")


def test_a_team_with_no_installation_is_acked_and_nothing_stored(deployment: Deployment) -> None:
    d, fake = deployment, deployment.fake
    tables = ("channels", "processed_events", "votes", "comments", "workspaces")
    before = {t: d.rows(f"SELECT COUNT(*) FROM {t}") for t in tables}
    # The fake's default team never installed the app; T0100 is served but not installed yet.
    assert d.command("T0100", "schedule 09:00 Europe/Berlin mon-fri") is None
    assert d.command("T0100", "add " + "<!channel> 📚 *x* " * 600) is None  # 10,000+ characters
    message = message_event(
        channel="C0100", text="<!here> hi", user="U0A2", team="T0100", thread_ts="1.0"
    )
    assert d.post(event_body(event_envelope_payload(message, team_id="T0100"))) == (200, b"")
    click = block_actions_payload(
        ids.VOTE_UP, "1", user_id="U0A2", message_ts="1.0", channel_id="C0100", team_id="T0100"
    )
    assert d.post(interactive_body(click)) == (200, b"")
    home = {"type": "app_home_opened", "user": "U0A1", "tab": "home"}
    assert d.post(event_body(event_envelope_payload(home, team_id=fake.team_id))) == (200, b"")
    after = {t: d.rows(f"SELECT COUNT(*) FROM {t}") for t in before}
    assert after == before
    assert fake.responses() == [] and fake.workspace("T0100").recorded() == []
    assert d.rows("SELECT COUNT(*) FROM slack_bots") == [(0,)]
