"""Other threads' output while a line is being edited: held, then written above the line by
the editing thread (cleared first, drawn again after); written at once otherwise."""

from __future__ import annotations

import io
import threading

from bot.console.screen import Screen


class Recorder(io.StringIO):
    """A terminal stream that also takes the display's marks, so the order shows."""


class MarkingDisplay:
    """A line editor's display that writes where it clears and redraws."""

    def __init__(self, *, out: Recorder) -> None:
        """Mark into `out`."""
        self.out = out

    def clear(self) -> None:
        """Mark the clearing."""
        self.out.write("<clear>")

    def restore(self) -> None:
        """Mark the redraw."""
        self.out.write("<you> half>")


def _from_another_thread(*, screen: Screen, out: Recorder, text: str) -> None:
    """Write `text` through the screen from a thread of its own (the scheduler, say)."""
    worker = threading.Thread(target=lambda: screen.file(stream=out).write(text))
    worker.start()
    worker.join()


def test_output_while_editing_waits_for_the_editing_thread() -> None:
    out = Recorder()
    screen = Screen()
    display = MarkingDisplay(out=out)
    wakes: list[int] = []
    with screen.editing(wake=lambda: wakes.append(1)):
        _from_another_thread(screen=screen, out=out, text="WARNING one\n")
        _from_another_thread(screen=screen, out=out, text="no newline")
        assert out.getvalue() == "" and len(wakes) == 2  # held, and the editor asked to look
        screen.drain(display=display)
        assert out.getvalue() == "<clear>WARNING one\nno newline\n<you> half>"
        screen.drain(display=display)  # nothing held: the line is left alone
        assert out.getvalue().endswith("<you> half>")
        screen.file(stream=out).write("the editor's own\n")  # its own output is not held
        _from_another_thread(screen=screen, out=out, text="late\n")
    assert out.getvalue().endswith("<you> half>the editor's own\nlate\n")  # written at the end


def test_output_between_lines_is_written_at_once() -> None:
    out = Recorder()
    screen = Screen()
    _from_another_thread(screen=screen, out=out, text="posted\n")
    assert out.getvalue() == "posted\n"
    file = screen.file(stream=out)
    assert file.write("typed\n") == len("typed\n")
    assert out.getvalue() == "posted\ntyped\n"
