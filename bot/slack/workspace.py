"""Which workspace (and Enterprise Grid organisation) a request from Slack is for.

Slack names it in a different field for each kind of request, and its own field names stay
as they are here: slash commands say `team_id`; interactive payloads `team.id` (null in an
org-wide install, where `user.team_id` or `view.team_id` says it); Events API envelopes
`team_id` and `authorizations[0].team_id`. In a channel shared with another workspace the
envelope's `team_id` can be the other side's, while the authorization names the installation
the event was delivered to, and a modal opened from such a channel carries
`view.app_installed_team_id`. The order below is the one slack_bolt authorizes a request by,
so the guard, the distribution router and Bolt agree on whose request it is. Whatever the body
holds (a forged one too), these answer None rather than raise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _id(value: object) -> str | None:
    """A non-empty id as text; None for anything else (null, an empty string, an object)."""
    if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
        return str(value)
    return None


def _field(obj: object, name: str) -> object:
    """`obj[name]` when obj is an object, else None."""
    return obj.get(name) if isinstance(obj, Mapping) else None


def _authorization(body: Mapping[str, Any]) -> object:
    """The first installation an Events API delivery is authorized for, if it names one."""
    authorizations = body.get("authorizations")
    if isinstance(authorizations, list) and authorizations:
        return authorizations[0]
    return None


def workspace_of(*, body: Mapping[str, Any]) -> str | None:
    """The id of the workspace whose installation a request is for; None when it names none."""
    team = body.get("team")
    candidates = (
        _field(body.get("view"), "app_installed_team_id"),
        team if isinstance(team, str) else _field(team, "id"),
        _field(_authorization(body), "team_id"),
        body.get("team_id"),
        _field(body.get("user"), "team_id"),
        _field(body.get("view"), "team_id"),
    )
    return next((found for found in map(_id, candidates) if found), None)


def enterprise_of(*, body: Mapping[str, Any]) -> str | None:
    """The Enterprise Grid organisation a request is for; None outside a grid."""
    enterprise = body.get("enterprise")
    candidates = (
        enterprise if isinstance(enterprise, str) else _field(enterprise, "id"),
        _field(_authorization(body), "enterprise_id"),
        body.get("enterprise_id"),
        _field(body.get("team"), "enterprise_id"),
    )
    return next((found for found in map(_id, candidates) if found), None)
