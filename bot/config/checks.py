"""The settings checked as a whole, beyond each variable alone: a platform set up by halves, and
variables with our prefixes that the bot does not read (a misspelt name is otherwise ignored
without a word, and a half Slack set-up would quietly run the console instead)."""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping

# Names with these prefixes are ours (or Slack's and Discord's, as the README spells them).
PREFIXES = ("PAPERCLUB_", "SLACK_", "DISCORD_")
# The variables that mean "this platform is wanted", each with what completes it.
_SLACK_HALVES = ("SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET")
_DISCORD_PARTS = ("DISCORD_CHANNEL", "DISCORD_API_URL", "DISCORD_GATEWAY_URL")


def unknown_variables(*, names: Collection[str], known: Collection[str]) -> list[str]:
    """One warning per variable with our prefixes that no setting reads, naming the closest
    known one when there is one (difflib's ratio, at least 0.75: SLACK_APP_TOKN, not
    SLACK_API_URL for SLACK_APPS)."""
    warnings = []
    for name in sorted(n for n in names if n.upper().startswith(PREFIXES) and n not in known):
        close = difflib.get_close_matches(name.upper(), sorted(known), n=1, cutoff=0.75)
        hint = f"; did you mean {close[0]}?" if close else ""
        warnings.append(f"{name} is set but Paper Club reads no such setting{hint}")
    return warnings


def half_configured(*, values: Mapping[str, str], known: Collection[str]) -> list[str]:
    """What a platform set up by halves is missing, one sentence each (empty: each platform is
    either fully set up or not at all). `values` are the variables as read, empty ones left
    out; a misspelt name among them is offered as the likely cause."""

    def hint(*, wanted: str) -> str:
        """A misspelling of `wanted` that is set, as a hint."""
        for name in values:
            if name not in known and difflib.get_close_matches(name.upper(), [wanted], 1, 0.75):
                return f" ({name} is set: a misspelling of {wanted}?)"
        return ""

    problems = []
    oauth = "SLACK_CLIENT_ID" in values or "SLACK_CLIENT_SECRET" in values
    halves = [name for name in _SLACK_HALVES if name in values]
    if "SLACK_BOT_TOKEN" in values and not halves:
        problems.append(
            "SLACK_BOT_TOKEN is set but SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET "
            "(HTTP mode) is missing"
            + (hint(wanted="SLACK_APP_TOKEN") or hint(wanted="SLACK_SIGNING_SECRET"))
        )
    elif halves and "SLACK_BOT_TOKEN" not in values and not oauth:
        problems.append(
            f"{halves[0]} is set but SLACK_BOT_TOKEN is missing"
            + (hint(wanted="SLACK_BOT_TOKEN") or " (or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET)")
        )
    elif oauth and "SLACK_SIGNING_SECRET" not in values:
        problems.append(
            "SLACK_CLIENT_ID is set but SLACK_SIGNING_SECRET is missing (OAuth distribution "
            "runs in HTTP mode)" + hint(wanted="SLACK_SIGNING_SECRET")
        )
    parts = [name for name in _DISCORD_PARTS if name in values]
    if parts and "DISCORD_TOKEN" not in values:
        problems.append(
            f"{parts[0]} is set but DISCORD_TOKEN is missing" + hint(wanted="DISCORD_TOKEN")
        )
    return problems
