"""The console through a real pseudo-terminal: start, see today's paper, vote, comment, search,
quit, restart and see no second post; export sees what was typed. Line editing: arrows, Home,
End, Ctrl-A/E and history edit the line, no escape sequence is ever stored, and a log line
from another thread is written above the line being typed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect

from tests.conftest import ROOT, SAMPLE_ENTRIES
from tests.fakelookup import FakeScholar

TIMEOUT = 60


# The keys a terminal sends (xterm's, as readline binds them whatever TERM says).
UP, DOWN, RIGHT, LEFT, HOME, END = "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1b[H", "\x1b[F"
CTRL_A, CTRL_E, CTRL_V = "\x01", "\x05", "\x16"  # Ctrl-V: the next key is taken as it is


def _env(tmp_path: Path) -> dict[str, str]:
    """No Slack tokens, a private database, plain colours so the screen reads as text."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    return base | {
        "PYTHONPATH": str(ROOT),
        "PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'paperclub.db'}",
        "NO_COLOR": "1",
        "LC_ALL": "C.UTF-8",  # what the person types is UTF-8, and readline reads it so
        "TERM": "dumb",
        "COLUMNS": "100",
        # No test touches the internet: metadata look-ups fail fast on a closed local port.
        "PAPERCLUB_ARXIV_API_URL": "http://127.0.0.1:9/api/query",
        "PAPERCLUB_CROSSREF_API_URL": "http://127.0.0.1:9",
    }


def _start(tmp_path: Path, **env: str) -> pexpect.spawn:
    """`python -m bot run` on a pty, as a newcomer would start it."""
    return pexpect.spawn(
        sys.executable,
        ["-m", "bot", "run"],
        cwd=str(tmp_path),
        env=_env(tmp_path) | env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 100),
    )


def test_console_session(tmp_path: Path) -> None:
    bot = _start(tmp_path)
    bot.expect(f"imported the sample reading list: {SAMPLE_ENTRIES} papers")
    bot.expect("Nonuniform-Tensor-Parallelism")
    bot.expect("you> ")
    bot.sendline("+1")
    bot.expect("👍 1 · 👎 0")
    bot.expect("you> ")
    bot.sendline("Pipeline bubbles are the real story here")
    bot.expect("Saved your comment")
    bot.expect("you> ")
    bot.sendline("-1")
    bot.expect("👍 0 · 👎 1")
    bot.expect("you> ")
    bot.sendline("/paperclub queue")
    bot.expect("Next in the queue")
    bot.expect("you> ")
    bot.sendline("/paperclub search pipeline bubbles")
    # Today's paper, by its thread's every word; then the related pipeline paper, by one.
    bot.expect("1–2 of 2")
    bot.expect("you: Pipeline bubbles are the real story here")
    bot.expect("pipeline parallelism")
    bot.expect("you> ")
    bot.sendeof()
    bot.expect("Bye")
    bot.expect(pexpect.EOF)
    bot.close()
    assert bot.exitstatus == 0

    again = _start(tmp_path)
    again.expect("Today's paper \\(already posted\\)")
    again.expect("👍 0 · 👎 1")
    again.expect("you> ")
    again.sendline("/paperclub next")
    again.expect("already has today's paper")
    again.expect("you> ")
    again.sendcontrol("c")
    again.expect("Bye")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0

    posted = _exported_posts(tmp_path)
    assert len(posted) == 1 and len(posted[0]["posts"]) == 1
    post = posted[0]["posts"][0]
    assert post["channel"] == "console::console"  # platform:workspace:channel
    assert post["votes"] == {"up": 0, "down": 1}
    assert [c["text"] for c in post["comments"]] == ["Pipeline bubbles are the real story here"]


def _blocked(*, status: str) -> int:
    """The SigBlk mask in a /proc/<pid>/task/<tid>/status text."""
    line = next(row for row in status.splitlines() if row.startswith("SigBlk:"))
    return int(line.split()[1], 16)


def test_only_the_main_thread_takes_stop_signals(tmp_path: Path) -> None:
    # The kernel hands a process's SIGINT to any thread that does not block it; a worker that
    # took Ctrl-C would leave input() waiting for ever (seen once in a loaded run).
    bot = _start(tmp_path)
    bot.expect("you> ")
    stop = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1))
    tasks = Path(f"/proc/{bot.pid}/task")
    masks = {int(t.name): _blocked(status=(t / "status").read_text()) for t in tasks.iterdir()}
    others = {tid: mask for tid, mask in masks.items() if tid != bot.pid}
    assert others, "the scheduler and the coalescer run on threads of their own"
    assert all(mask & stop == stop for mask in others.values()), others
    assert masks[bot.pid] & stop == 0
    bot.sendcontrol("c")
    bot.expect("Bye")
    bot.expect(pexpect.EOF)
    bot.close()
    assert bot.exitstatus == 0


def _exported_posts(tmp_path: Path) -> list[dict[str, Any]]:
    """`paperclub export`'s papers that were posted; no escape character anywhere in it."""
    exported = subprocess.run(
        [sys.executable, "-m", "bot", "export"],
        cwd=tmp_path,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        check=True,
    )
    assert "\x1b" not in exported.stdout and "\\u001b" not in exported.stdout
    return [p for p in json.loads(exported.stdout) if p["posts"]]


def _quit(bot: pexpect.spawn) -> None:
    """Ctrl-D at the prompt: the console says goodbye and exits 0."""
    bot.sendeof()
    bot.expect("Bye")
    bot.expect(pexpect.EOF)
    bot.close()
    assert bot.exitstatus == 0


def test_keys_edit_the_line_and_never_reach_a_comment(tmp_path: Path) -> None:
    bot = _start(tmp_path)
    bot.expect("you> ")
    bot.send(f"world{HOME}hello {END}!\r")  # typed out of order, put right with Home and End
    bot.expect("Saved your comment")
    bot.expect("you> ")
    bot.send("+1\r")
    bot.expect("👍 1 · 👎 0")
    bot.expect("you> ")
    bot.send(f"{UP}\r")  # the last line again: the same vote withdraws it
    bot.expect("👍 0 · 👎 0")
    bot.expect("you> ")
    # Two lines up (the repeated +1 is kept once), then edited at both ends and in the middle.
    bot.send(f"{UP}{UP}{CTRL_A}Re: {CTRL_E}{LEFT}?{RIGHT}.\r")
    bot.expect("Saved your comment")
    bot.expect("you> ")
    bot.send(f"{UP}{UP}{UP}{DOWN}\r")  # up past it and back down to +1
    bot.expect("👍 1 · 👎 0")
    bot.expect("you> ")
    bot.send(f"{CTRL_V}\x1b[A\r")  # an arrow's bytes typed into the line itself
    bot.expect("Nothing saved: that line held only control keys")
    bot.expect("you> ")
    bot.send(f"{CTRL_V}\x1b]0;title{CTRL_V}\x07{CTRL_V}\x1b[31mred alert ☃é{LEFT}👍🏽\r")
    bot.expect("Saved your comment")
    bot.expect("you> ")
    _quit(bot)

    [paper] = _exported_posts(tmp_path)
    post = paper["posts"][0]
    assert post["votes"] == {"up": 1, "down": 0}
    assert [c["text"] for c in post["comments"]] == [
        "hello world!",
        "Re: hello world?!.",
        "red alert ☃👍🏽é",  # the cursor moves by characters, not bytes
    ]


def test_a_log_line_is_written_above_the_line_being_typed(tmp_path: Path) -> None:
    with FakeScholar() as scholar:
        bot = _start(
            tmp_path,
            PAPERCLUB_ARXIV_API_URL=scholar.arxiv_url,
            PAPERCLUB_CROSSREF_API_URL=scholar.crossref_url,
        )
        bot.expect("you> ")
        bot.send(f"half a cmm{LEFT}{LEFT}")  # a letter left out; the cursor goes back to it
        bot.expect("half a cmm")
        # The enricher's next look-up (its own thread, every few seconds) gets a broken answer,
        # and says so in a warning while the line is half typed.
        scholar.malformed_next("arxiv")
        scholar.malformed_next("crossref")
        # The row is cleared first (spaces over it: TERM is dumb), the warning starts at its
        # left edge, and the line is drawn again under it as far as it was typed.
        bot.expect(r"\r +\r[\d-]+ [\d:,]+ WARNING [^\r\n]*\(for http://127\.0\.0\.1:\d+/\S*\r\n")
        bot.expect("you> half a cmm")
        bot.send(f"o{END}ent\r")  # the cursor was put back where it was
        bot.expect("Saved your comment")
        bot.expect("you> ")
        _quit(bot)
    [paper] = _exported_posts(tmp_path)
    assert [c["text"] for c in paper["posts"][0]["comments"]] == ["half a comment"]
