"""FakeSlack's side for many teams: more workspaces, and OAuth installs into them."""

from __future__ import annotations

from .oauth import OAuthApp, OAuthServer
from .registry import Registry
from .state import Workspace


class Tenants:
    """One app installed into many teams (mixed into FakeSlack)."""

    ws: Workspace
    app_id: str
    registry: Registry
    oauth: OAuthServer
    http_url: str  # FakeSlack's property

    def add_workspace(
        self,
        team_id: str,
        team_name: str,
        *,
        bot_user_id: str,
        bot_id: str,
        ts_base: int = 1_700_000_000,
    ) -> Workspace:
        """Serve another team (no token yet: installing the app issues one) -> its Workspace,
        for add_channel/add_user/messages on that team."""
        ws = Workspace(
            team_id=team_id,
            team_name=team_name,
            bot_user_id=bot_user_id,
            bot_id=bot_id,
            bot_name=self.ws.bot_name,
            app_id=self.app_id,
            bot_token="",
            app_token="",
            ts_base=ts_base,
        )
        with ws.lock:
            ws.bot_tokens.clear()
            ws.app_tokens.clear()
        return self.registry.add(ws)

    def workspace(self, team_id: str) -> Workspace:
        """The state of one team the fake serves."""
        return self.registry.get(team_id)

    def register_app(self, client_id: str, client_secret: str, redirect_uri: str) -> None:
        """Make the app installable: its credentials and its configured redirect URL."""
        self.oauth.register(OAuthApp(client_id, client_secret, redirect_uri))

    def sign_in(self, team_id: str) -> None:
        """The browser that opens /oauth/v2/authorize is signed in to this team."""
        self.registry.get(team_id)
        self.oauth.signed_in_team = team_id

    @property
    def authorize_url(self) -> str:
        """Where "Add to Slack" sends the browser (Slack's /oauth/v2/authorize)."""
        return f"{self.http_url}/oauth/v2/authorize"

    def approve(self, url: str, team_id: str) -> str:
        """A person of `team_id` clicked Allow on this authorize URL -> the redirect URL with
        a one-time code and the state."""
        return self.oauth.authorize(url, team_id=team_id)

    def uninstall(self, team_id: str) -> None:
        """The app is removed from a team: every token issued there answers token_revoked."""
        ws = self.registry.get(team_id)
        with ws.lock:
            ws.revoked_tokens |= ws.bot_tokens

    def tokens(self, team_id: str) -> set[str]:
        """The bot tokens a team has issued and not revoked."""
        ws = self.registry.get(team_id)
        with ws.lock:
            return ws.bot_tokens - ws.revoked_tokens
