"""The feed's text: hostile values stay inside their property and come back exactly, lines are
folded at 75 octets without splitting a character, every line ends in CRLF."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import icalendar
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from icalendar.parser import unescape_backslash

from bot.meetings.ics import MAX_LINE, SessionEvent, calendar, clean_text, escape_text, fold

STAMP = datetime(2026, 3, 20, 9, 30, tzinfo=UTC)
START = datetime(2026, 3, 24, 17, tzinfo=UTC)
HOSTILE = [
    "<!channel> <!here> @everyone @here <@U0123> <#C0456|general> <t:1700000000:R>",
    "*bold* _it_ ~strike~ `code` ```block``` [bold]rich[/bold] <https://x.org|label>",
    "semi; comma, back\\slash \\n \\, \\; \\\\ literal escapes, trailing backslash\\",
    "emoji 🎉👩‍🔬🏳️‍🌈 and combining é (e\u0301) and RTL \u202eevil",
    "BEGIN:VEVENT:x;END:VCALENDAR:\u2028line separator\u2029paragraph\ttab",
    "  leading and trailing spaces  ",
    "ü" * 10_000,
    "x" * 9_999 + "😀",
]


def _feed(*, name: str = "n", **text: str) -> bytes:
    event = SessionEvent(
        uid="u-1@paperclub",
        sequence=0,
        start=START,
        end=START + timedelta(hours=1),
        summary=text.get("summary", "s"),
        description=text.get("description", ""),
        location=text.get("location", ""),
        modified=START,
    )
    return calendar(name=name, events=[event], stamp=STAMP)


def _physical_lines(feed: bytes) -> list[bytes]:
    """The feed split at CRLF; it must end in one, so the last piece is empty."""
    *lines, last = feed.split(b"\r\n")
    assert last == b""
    return lines


def _assert_well_formed(feed: bytes) -> None:
    """Every physical line is at most 75 octets, holds no CR or LF of its own, and is whole
    UTF-8 on its own (no character split by a fold)."""
    for line in _physical_lines(feed):
        assert 0 < len(line) <= MAX_LINE
        assert b"\r" not in line and b"\n" not in line
        line.decode("utf-8")  # raises on a split character


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_round_trips_exactly(text: str) -> None:
    feed = _feed(name=text, summary=text, description=text, location=text)
    _assert_well_formed(feed)
    parsed = icalendar.Calendar.from_ical(feed)
    (event,) = parsed.walk("VEVENT")
    assert str(event["SUMMARY"]) == text
    assert str(event["DESCRIPTION"]) == text
    assert str(event["LOCATION"]) == text
    # icalendar keeps NAME (RFC 7986) as an unknown type, raw: its TEXT unescaping reads it
    assert unescape_backslash(str(parsed["NAME"])) == text


@pytest.mark.parametrize("newline", ["\r\n", "\n", "\r"])
def test_injected_lines_stay_inside_their_property(newline: str) -> None:
    """CR LF, LF and CR in a value are newlines of that value, never new content lines."""
    attack = newline.join(["x", "END:VEVENT", "BEGIN:VEVENT", "UID:evil", "SUMMARY:pwned", "y"])
    feed = _feed(name=attack, summary=attack, description=attack, location=attack)
    _assert_well_formed(feed)
    starts = [line for line in _physical_lines(feed) if line.startswith(b"BEGIN:VEVENT")]
    assert len(starts) == 1
    (event,) = icalendar.Calendar.from_ical(feed).walk("VEVENT")
    expected = "x\nEND:VEVENT\nBEGIN:VEVENT\nUID:evil\nSUMMARY:pwned\ny"
    assert (str(event["UID"]), str(event["SUMMARY"])) == ("u-1@paperclub", expected)
    assert str(event["DESCRIPTION"]) == str(event["LOCATION"]) == expected


def test_text_is_escaped_as_rfc_5545_says() -> None:
    """Backslash, semicolon, comma and newline are escaped (§3.3.11); a lenient reader would
    take some of them back unescaped, so the written line itself is checked."""
    assert escape_text(text='a\\b;c,d\ne:f"g') == 'a\\\\b\\;c\\,d\\ne:f"g'
    lines = _feed(summary="x;y,z\\", location="1\r\n2").decode().split("\r\n")
    assert "SUMMARY:x\\;y\\,z\\\\" in lines and "LOCATION:1\\n2" in lines


def test_control_characters_are_removed() -> None:
    text = "a\x00b\x07c\x1b[31md\x7fe\x85f\x9fg\ttab\ud800h"
    assert clean_text(text=text) == "abc[31mdefg\ttabh"
    (event,) = icalendar.Calendar.from_ical(_feed(summary=text)).walk("VEVENT")
    assert str(event["SUMMARY"]) == "abc[31mdefg\ttabh"


def test_folding_at_the_octet_limit() -> None:
    """75 octets stay on one line; the 76th moves to a continuation; a character that would
    straddle the limit moves whole."""
    assert fold(line="x" * 75) == b"x" * 75 + b"\r\n"
    assert fold(line="x" * 76) == b"x" * 75 + b"\r\n x\r\n"
    assert fold(line="x" * 74 + "é") == b"x" * 74 + b"\r\n \xc3\xa9\r\n"
    assert fold(line="x" * 73 + "😀") == b"x" * 73 + b"\r\n \xf0\x9f\x98\x80\r\n"
    lines = fold(line="x" * 75 + "y" * 148).split(b"\r\n")
    assert lines == [b"x" * 75, b" " + b"y" * 74, b" " + b"y" * 74, b""]


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8", exclude_characters="\r\n"), min_size=1, max_size=300))
@example("é" * 80)
@example("\\" * 80)
def test_fold_keeps_every_character(text: str) -> None:
    """Any one line (text already cleaned of CR and LF) unfolds back to its exact octets."""
    folded = fold(line=text)
    _assert_well_formed(folded)
    assert folded.replace(b"\r\n ", b"").removesuffix(b"\r\n") == text.encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(summary=st.text(max_size=400), description=st.text(max_size=400))
@example(summary="a\\", description=";\\,\\n\\\\")
@example(summary="\r\nBEGIN:VEVENT\r\n", description=" \r")
def test_any_text_round_trips(summary: str, description: str) -> None:
    """Whatever the text, the feed stays well formed, holds one session, and gives back the
    text as clean_text leaves it (the input itself when it has no control characters)."""
    feed = _feed(summary=summary, description=description)
    _assert_well_formed(feed)
    (event,) = icalendar.Calendar.from_ical(feed).walk("VEVENT")
    assert str(event["SUMMARY"]) == clean_text(text=summary)
    assert str(event.get("DESCRIPTION", "")) == clean_text(text=description)
