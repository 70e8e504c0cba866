"""The rules of the house (DESIGN.md §1), checked on the import graph of every module."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot"
CORE = (
    "domain.py", "ports", "services", "search_query.py", "ingest", "schedule_text.py",
    "paper_links.py", "export_formats.py",
)  # fmt: skip
EDGE_LIBRARIES = ("slack_bolt", "slack_sdk", "sqlalchemy", "apscheduler", "alembic")
MAX_LINES = 300


def _imports(path: Path) -> set[str]:
    """Every module a file imports, absolute names."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _files(*parts: str) -> list[Path]:
    """The Python files under bot/ named by the parts (files or folders)."""
    found: list[Path] = []
    for part in parts:
        target = BOT / part
        found += sorted(target.rglob("*.py")) if target.is_dir() else [target] * target.exists()
    return found


def _rel(path: Path) -> str:
    """A path relative to the project when inside it."""
    return str(path.relative_to(BOT.parent)) if path.is_relative_to(BOT.parent) else str(path)


def _violations(files: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    """file: module pairs where a file imports a forbidden module or package."""
    return [
        f"{_rel(path)} imports {name}"
        for path in files
        for name in sorted(_imports(path))
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    ]


def test_core_imports_no_edge_library() -> None:
    """domain, ports, services, search_query and ingest stay free of Slack, SQL and clocks."""
    core = _files(*CORE)
    assert len(core) >= 5
    assert _violations(core, EDGE_LIBRARIES) == []


def test_core_imports_no_edge_module() -> None:
    """The core never reaches into our own edges either."""
    edges = (
        "bot.db", "bot.slack", "bot.console", "bot.scheduler", "bot.cli", "bot.runner",
        "bot.run_slack", "bot.run_console", "rich",
    )  # fmt: skip
    assert _violations(_files(*CORE), edges) == []


def test_slack_and_db_do_not_import_each_other() -> None:
    """bot/slack and bot/db meet only in the composition root."""
    assert _violations(_files("slack"), ("bot.db", "sqlalchemy")) == []
    assert _violations(_files("db"), ("bot.slack", "slack_bolt", "slack_sdk")) == []


def test_console_is_one_more_platform() -> None:
    """bot/console implements the ports without the database or Slack."""
    forbidden = ("bot.db", "bot.slack", "sqlalchemy", "slack_bolt", "slack_sdk")
    assert _violations(_files("console"), forbidden) == []


def test_settings_are_read_only_in_config() -> None:
    """Nothing but config.py reads os.environ or getenv."""
    offenders = [
        str(path.relative_to(BOT.parent))
        for path in BOT.rglob("*.py")
        if path.name != "config.py"
        and ("os.environ" in path.read_text() or "getenv(" in path.read_text())
    ]
    assert offenders == []


def test_modules_stay_small() -> None:
    """No module grows past about 300 lines."""
    long = {
        str(p.relative_to(BOT.parent)): n
        for p in BOT.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    """The import scan is not vacuous: a planted edge import is found."""
    planted = tmp_path / "bad.py"
    planted.write_text("import sqlalchemy\nfrom slack_sdk import WebClient\n")
    assert _violations([planted], EDGE_LIBRARIES) == [
        f"{planted} imports slack_sdk",
        f"{planted} imports sqlalchemy",
    ]
