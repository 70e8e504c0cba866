"""`paperclub search` answered by a running bot: the bot has the archive open, its imports done
and, with the semantic extra, its model loaded, so it answers in a round trip what a new
process takes half a second (SQLAlchemy's import) or more (the model) to answer.

The bot answers only a search on its own database, read as the client's settings say (it reads
them for the client, from the client's folder and environment); for anything else, or when no
bot runs, the command searches in its own process, as it always did. Only the standard library
is imported here, on purpose.
"""

from __future__ import annotations

import os
import socket
import sys

from bot.cli import warm_wire as wire
from bot.cli.pipes import reader_gone
from bot.config import warm_place

INTERRUPTED = 130  # what a shell reports for a command ended by Ctrl-C (128 + SIGINT)


def answered(*, argv: list[str]) -> int | None:
    """Print a running bot's answer to `paperclub search ARGV` and return its exit status, or
    None when no bot on this database answered (`--here` and `--help` never ask one)."""
    options = argv[: argv.index("--")] if "--" in argv else argv
    if {"--here", "-h", "--help"} & set(options):
        return None
    place = warm_place.folder()
    if not wire.private(path=place):
        return None
    question = wire.request(argv=argv, cwd=os.getcwd(), env=warm_place.environment())
    for path in wire.sockets(place=place):
        try:
            reply = _ask(path=path, question=question)
        except KeyboardInterrupt:  # as the command says it when it searches itself
            print("paperclub: interrupted", file=sys.stderr)
            return INTERRUPTED
        if reply is None:
            continue
        code, stdout, stderr = reply
        try:
            sys.stdout.write(stdout)
            sys.stdout.flush()
        except BrokenPipeError:
            return reader_gone()
        sys.stderr.write(stderr)
        return code
    return None


def _ask(*, path: str, question: bytes) -> tuple[int, str, str] | None:
    """One bot's served answer, or None: not running (a socket left by a killed bot), declined,
    silent past ANSWER_SECONDS, or unreadable."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(wire.ANSWER_SECONDS)
        try:
            conn.connect(path)
            conn.sendall(question)
            conn.shutdown(socket.SHUT_WR)  # the end of the request
            chunks = []
            while chunk := conn.recv(1 << 16):
                chunks.append(chunk)
        except OSError:  # refused, vanished, timed out, reset
            return None
    return wire.read_answer(data=b"".join(chunks))
