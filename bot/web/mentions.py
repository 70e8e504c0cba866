"""Mention markup in a comment as the plain names a reader expects: Slack's `<@U123>`,
`<#C123|general>`, `<!here>` and `<url|label>`, Discord's `<@123>`, `<#123>` and `<@&123>`,
and the `@U123` / `#C123` the Slack edge keeps in the archive (so `in:#C123` searches work).

Plain text in, plain text out: the page's autoescaping makes it inert, and nothing here turns
into a link or a ping."""

from __future__ import annotations

import re
from collections.abc import Mapping

_TOKEN = re.compile(
    r"<([@#!][^<>\s|]{1,80}|(?:https?|mailto):[^<>\s|]{1,2000})(?:\|([^<>]{0,200}))?>"
)
# An id kept as typed text: replaced only when its name is known, so ordinary words stay.
_BARE = re.compile(r"(?<![\w@#])([@#])([A-Z0-9]{2,30}|[0-9]{15,20})\b")


def _token(
    *, sigil: str, body: str, label: str, people: Mapping[str, str], channels: Mapping[str, str]
) -> str:
    """One <…> token as the words a reader sees for it."""
    if sigil == "@":
        key = body.removeprefix("!").removeprefix("&")
        return "@" + (label.removeprefix("@") or people.get(key) or key)
    if sigil == "#":
        return "#" + (label or channels.get(body) or body)
    if sigil == "!":
        special = body.split("^")[0]
        return label or "@" + (body.split("^")[1] if special == "subteam" else special)
    url = body.removeprefix("mailto:") if body.startswith("mailto:") else body
    return url if not label or label == url else f"{label} ({url})"


def plain_names(*, text: str, people: Mapping[str, str], channels: Mapping[str, str]) -> str:
    """The comment with its mention markup as names (ids where no name is known)."""

    def token(match: re.Match[str]) -> str:
        body, label = match.group(1), match.group(2) or ""
        sigil = body[0] if body[0] in "@#!" else ""
        return _token(
            sigil=sigil,
            body=body[1:] if sigil else body,
            label=label,
            people=people,
            channels=channels,
        )

    def bare(match: re.Match[str]) -> str:
        sigil, key = match.group(1), match.group(2)
        known = (people if sigil == "@" else channels).get(key)
        return sigil + known if known else match.group(0)

    return _BARE.sub(bare, _TOKEN.sub(token, text))
