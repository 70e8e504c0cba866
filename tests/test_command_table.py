"""The command table is the one catalogue of /paperclub: the README's command list, Discord's
command group and the Slack manifests' usage hint are checked against it.

The usage hint is not asked to name every subcommand: Slack shows it on one line under the
command as it is typed, where fourteen names would be cut off before the search example that
teaches the most used form. So the hint is held to this instead: it names `help` (which lists
them all), its first alternative is a search (no subcommand, or the router would take it), and
every other alternative starts with a subcommand of the table, so a renamed or dropped one
cannot linger there. The three manifests carry the same hint.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import bot.discord  # noqa: F401  (first: discord.py's audioop warning)
from bot.discord.listeners.commands import declare
from bot.messages import as_plain
from bot.services.commands import TABLE, Subcommand
from bot.services.commands.entry import help_reply

ROOT = Path(__file__).resolve().parents[1]
MANIFESTS = ("manifest.yml", "manifest-http.yml", "manifest-distribution.yml")


def readme_subcommands(*, readme: str) -> set[str]:
    """The subcommands README.md's `/paperclub` table lists: the first word of each code span
    in the first column (`pause` / `resume` is two)."""
    section = readme.split("### `/paperclub`\n", 1)[1]
    rows = re.match(r"\s*((?:\|.*\n)+)", section)
    assert rows, "README.md's /paperclub section starts with no table"
    names: set[str] = set()
    for row in rows.group(1).splitlines()[2:]:  # past the header and its rule
        first = re.split(r"(?<!\\)\|", row)[1]
        names |= {span.split()[0] for span in re.findall(r"`([^`]+)`", first)}
    return names


def usage_hints() -> dict[str, str]:
    """Each Slack manifest's usage hint for /paperclub."""
    hints: dict[str, str] = {}
    for name in MANIFESTS:
        found = re.search(r'^\s*usage_hint:\s*"(.*)"\s*$', (ROOT / name).read_text(), re.M)
        assert found, f"{name} has no usage_hint"
        hints[name] = found.group(1)
    return hints


def declared_subcommands(*, table: Sequence[Subcommand]) -> set[str]:
    """The subcommands of the group the Discord plug-in declares from `table` (as the bot does
    on start, without connecting: callbacks that never run)."""

    async def run(*_: Any) -> None:
        raise AssertionError("not run here")

    return {command.name for command in declare(table=table, run=run).commands}


def drift(
    *,
    table: Sequence[Subcommand],
    readme: str,
    discord: Collection[str],
    hints: Mapping[str, str],
) -> list[str]:
    """Every place the table and the others disagree, one line each; empty when they agree."""
    names = {entry.name for entry in table}
    listed = readme_subcommands(readme=readme)
    problems = [f"{n}: not in README.md's /paperclub list" for n in sorted(names - listed)]
    problems += [f"{n}: in README.md's list, not in the table" for n in sorted(listed - names)]
    problems += [f"{n}: not in Discord's /paperclub group" for n in sorted(names - set(discord))]
    problems += [f"{n}: on Discord, not in the table" for n in sorted(set(discord) - names)]
    for manifest, hint in hints.items():
        search, *others = [alternative.split()[0] for alternative in hint.split("|")]
        if search in names:
            problems.append(f"{manifest}: the hint's search example {search!r} is a subcommand")
        if "help" not in others:
            problems.append(f"{manifest}: the usage hint does not name help")
        problems += [
            f"{manifest}: hint names {w!r}, no subcommand" for w in others if w not in names
        ]
    if len(set(hints.values())) > 1:
        problems.append("the manifests' usage hints differ")
    return problems


def _readme() -> str:
    return (ROOT / "README.md").read_text()


def test_the_table_is_in_the_readme_on_discord_and_in_the_usage_hints() -> None:
    found = drift(
        table=TABLE,
        readme=_readme(),
        discord=declared_subcommands(table=TABLE),
        hints=usage_hints(),
    )
    assert found == []


def test_a_new_entry_missing_elsewhere_is_reported() -> None:
    """A table with one more entry than the README and Discord's group know."""
    toy = (*TABLE, replace(TABLE[0], name="toy"))
    found = drift(
        table=toy,
        readme=_readme(),
        discord=declared_subcommands(table=TABLE),
        hints=usage_hints(),
    )
    assert found == [
        "toy: not in README.md's /paperclub list",
        "toy: not in Discord's /paperclub group",
    ]


def test_a_stale_usage_hint_is_reported() -> None:
    """A hint naming a subcommand the table dropped, and no longer naming help."""
    hints = {"manifest.yml": "tensor parallel | queue | frobnicate"}
    found = drift(
        table=TABLE, readme=_readme(), discord=declared_subcommands(table=TABLE), hints=hints
    )
    assert found == [
        "manifest.yml: the usage hint does not name help",
        "manifest.yml: hint names 'frobnicate', no subcommand",
    ]


def test_the_help_names_every_subcommand() -> None:
    """The help is built from the table, so it tells every entry (resume on pause's line)."""
    shown = as_plain(message=help_reply(table=TABLE).message)
    for entry in TABLE:
        assert f"/paperclub {entry.name}" in shown, entry.name
