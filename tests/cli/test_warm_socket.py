"""The running bot's search socket itself (bot/cli/warm_socket.py), with real sockets and
threads and an answer of the test's own: at most AT_ONCE answers at once (more are declined,
never queued), a stop that does not wait for a slow answer, no half-made socket in sight."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import warm_wire as wire
from bot.cli.warm_socket import AT_ONCE, Listening, listen


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """A private socket folder."""
    folder = tmp_path / "sockets"
    folder.mkdir(mode=0o700)
    return folder


class Held:
    """An answer that waits until released, counting the requests that reached it."""

    def __init__(self) -> None:
        """Nothing reached yet."""
        self.release = threading.Event()
        self.reached = threading.Semaphore(0)

    def __call__(self, data: bytes) -> bytes:
        """Wait, then echo the request as an answer."""
        self.reached.release()
        self.release.wait(30)
        return wire.answer(code=0, stdout=data.decode(), stderr="")


@pytest.fixture
def held(place: Path) -> Iterator[tuple[Held, Listening]]:
    """A socket whose answers wait for the test."""
    answer = Held()
    listening = listen(place=str(place), answer=answer)
    try:
        yield answer, listening
    finally:
        answer.release.set()
        listening.close()


def _ask(*, path: str, data: bytes) -> bytes:
    """Send a whole request and read the whole answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(30)
        conn.connect(path)
        conn.sendall(data)
        conn.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := conn.recv(1 << 16):
            chunks.append(chunk)
    return b"".join(chunks)


def test_the_socket_appears_only_once_it_listens(place: Path, held: tuple[Held, Listening]) -> None:
    _, listening = held
    assert os.listdir(place) == [os.path.basename(listening.path)]  # no ".binding" left
    assert (os.stat(listening.path).st_mode & 0o777) == 0o600


def test_more_than_at_once_answers_are_declined_not_queued(held: tuple[Held, Listening]) -> None:
    answer, listening = held
    answers: list[bytes] = []
    askers = [
        threading.Thread(target=lambda: answers.append(_ask(path=listening.path, data=b"x")))
        for _ in range(AT_ONCE)
    ]
    for asker in askers:
        asker.start()
    for _ in range(AT_ONCE):
        assert answer.reached.acquire(timeout=30)  # all AT_ONCE are being answered
    extra = json.loads(_ask(path=listening.path, data=b"y"))
    assert extra == {"v": wire.VERSION, "served": False, "why": "busy"}
    answer.release.set()
    for asker in askers:
        asker.join(30)
    assert [wire.read_answer(data=a) for a in answers] == [(0, "x", "")] * AT_ONCE


def test_a_stop_does_not_wait_for_an_answer_under_way(place: Path) -> None:
    answer = Held()
    listening = listen(place=str(place), answer=answer)
    asker = threading.Thread(target=lambda: _ask(path=listening.path, data=b"x"), daemon=True)
    asker.start()
    assert answer.reached.acquire(timeout=30)
    listening.close()  # returns while the answer still waits
    assert not os.path.exists(listening.path)
    answer.release.set()
    asker.join(30)


def test_a_request_over_the_limit_is_declined(held: tuple[Held, Listening]) -> None:
    _, listening = held
    reply = json.loads(_ask(path=listening.path, data=b"x" * (wire.REQUEST_LIMIT + 1)))
    assert reply["why"] == "request too large"
