"""A command's reply: its plain text is the summary when there is one, else the message."""

from __future__ import annotations

from bot.messages import Code, line, message
from bot.services.reply import Reply


def test_text_is_the_message_as_plain_text() -> None:
    said = message(line("Use ", Code("/paperclub help"), " <@U1> 🦘"))
    reply = Reply(message=said)
    assert reply.text == "Use /paperclub help <@U1> 🦘"
    assert not reply.reschedule and reply.summary is None


def test_a_summary_stands_for_a_long_message() -> None:
    reply = Reply(message=message("a long page"), summary="one line", reschedule=True)
    assert reply.text == "one line" and reply.reschedule
    assert Reply(message=message("x"), summary="").text == ""  # an empty summary is still one
